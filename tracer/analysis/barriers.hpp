#pragma once
// Barriers: maximal intervals during which no worker executes a codelet, longer than a
// threshold, each attributed to the batch transition (batch_end -> next batch_begin markers)
// it falls in, to what the main thread was doing meanwhile, and to a cause. A trace of
// several StarPU-MPI ranks has barriers across the job (no worker of any rank executing) and
// per rank (none of that rank's workers executing).

#include "tracer/model/trace.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::tracer {

struct BarrierOptions {
    // Nanoseconds whatever the trace's unit (findBarriers scales it); shorter gaps are not
    // barriers. Barriers found are in the trace's ticks.
    TimeNs threshold = 100'000;
    // Only this rank's workers, markers and main thread; across the whole job when unset.
    std::optional<std::int32_t> rank;
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

// What a barrier is attributed to, the first that applies:
//  - TraceFlush: a thread wrote FxT's full buffer to the trace file during it (a flush of
//    trace_flushes.hpp overlaps it, or StarPU's "fxt flush" event falls in it), so the barrier
//    is the tracing's cost (a bigger STARPU_TRACE_BUFFER_SIZE avoids it);
//  - DataFromRank: a message from another rank arrived during it (the last one to arrive is
//    named): the workers had nothing to run until the data came;
//  - DataTransfer: a copy between memory nodes of the scope ended during it (the last one to
//    end is named): on a machine with GPUs, a worker waiting for its task's data;
//  - ArenaReset: the main thread waited in an arena reset (reset_wait markers) during it;
//  - EndOfBatch: it falls in a batch transition (batch_end -> next batch_begin);
//  - Unattributed: none of these.
enum class BarrierCause : std::uint8_t { Unattributed, ArenaReset, DataFromRank, EndOfBatch, TraceFlush, DataTransfer };
std::string_view causeName(BarrierCause cause);   // "arena reset", "data from rank", ...

struct Barrier {
    TimeNs start = 0;
    TimeNs end = 0;
    std::int32_t transition = -1;    // index into findTransitions(), -1 if none
    std::string transitionLabel;     // e.g. "epoch 0 batch 3->4"; empty if none
    std::string mainThreadState;     // what the main thread was doing, e.g. "Waiting all tasks"
    std::int32_t rank = -1;          // the rank it is a barrier of; -1 across the job (or one process)
    BarrierCause cause = BarrierCause::Unattributed;
    std::int32_t fromRank = -1;      // DataFromRank: the sender
    std::int32_t message = -1;       // DataFromRank: index into Trace::messages
    std::int32_t transfer = -1;      // DataTransfer: index into Trace::transfers
    std::string arena;               // ArenaReset: the arena being reset, when the marker names it

    TimeNs duration() const { return end - start; }
    bool operator==(const Barrier&) const = default;
};

// The cause with what it names: "data from rank 1 (message 12: tag 7, 4096 B, 1.2 ms)",
// "data transfer (node 0 -> 1, 3686400 B, 1.9 ms, for job 42)", "arena reset (batch)",
// "end of batch": what `barriers` prints and the viewer shows.
std::string describeCause(const Trace& trace, const Barrier& barrier);

// Batch transitions in time order, from the trace's parsed starscope markers: of that rank,
// or, unset, of the lowest rank that has markers (every rank trains the same batches).
std::vector<BatchTransition> findTransitions(const Trace& trace, std::optional<std::int32_t> rank = std::nullopt);

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

// The job's barriers, then each rank's (rank order) for a trace of several ranks; only the
// job's for one process. Each list in time order.
std::vector<Barrier> findJobAndRankBarriers(const Trace& trace, BarrierOptions options = {});
// Same, with the job's transitions (findTransitions(trace)) computed by the caller: an open that
// keeps them does not search the markers again.
std::vector<Barrier> findJobAndRankBarriers(const Trace& trace, const std::vector<BatchTransition>& jobTransitions,
                                            BarrierOptions options);

} // namespace starscope::tracer
