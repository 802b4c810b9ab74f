#pragma once
// Barriers: maximal intervals during which no worker executes a codelet, longer than a
// threshold, each attributed to the batch transition (batch_end -> next batch_begin markers)
// it falls in and to what the main thread was doing meanwhile.

#include "tracer/model/trace.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace starscope::tracer {

struct BarrierOptions {
    // Nanoseconds whatever the trace's unit (findBarriers scales it); shorter gaps are not
    // barriers. Barriers found are in the trace's ticks.
    TimeNs threshold = 100'000;
};

// The interval between a batch_end marker and the next batch_begin marker.
struct BatchTransition {
    TimeNs start = 0;          // time of the batch_end marker
    TimeNs end = 0;            // time of the next batch_begin marker (trace end if none)
    std::int32_t fromEpoch = -1;
    std::int32_t fromBatch = -1;
    std::int32_t toEpoch = -1;     // -1 when the trace ends without a next batch
    std::int32_t toBatch = -1;
    std::string label;         // "epoch 0 batch 3->4", "epoch 0 batch 9->epoch 1 batch 0"

    bool operator==(const BatchTransition&) const = default;
};

struct Barrier {
    TimeNs start = 0;
    TimeNs end = 0;
    std::int32_t transition = -1;    // index into findTransitions(), -1 if none
    std::string transitionLabel;     // e.g. "epoch 0 batch 3->4"; empty if none
    std::string mainThreadState;     // what the main thread was doing, e.g. "Waiting all tasks"

    TimeNs duration() const { return end - start; }
    bool operator==(const Barrier&) const = default;
};

// Batch transitions in time order, from the trace's parsed starscope markers.
std::vector<BatchTransition> findTransitions(const Trace& trace);

// Why barriers of this trace cannot be attributed to batch transitions (no starscope marker,
// or no batch ever ended); nullopt when transitions holds at least one.
std::optional<std::string> transitionsUnavailable(const Trace& trace, const std::vector<BatchTransition>& transitions);

// Barriers in time order, between the first task start and the last task end (start-up and
// shut-down are not synchronization). A barrier is attributed to the batch transition it
// overlaps most; mainThreadState is the main thread's base state covering most of it
// ("Application code" when the main thread was outside any StarPU call).
std::vector<Barrier> findBarriers(const Trace& trace, const BarrierOptions& options = {});

// Same, with transitions computed by the caller (avoids recomputing them).
std::vector<Barrier> findBarriers(const Trace& trace, const std::vector<BatchTransition>& transitions,
                                  const BarrierOptions& options);

} // namespace starscope::tracer
