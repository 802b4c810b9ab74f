#pragma once
// Per codelet: how many tasks ran and how long, in all and per kind of worker (CPU, CUDA,
// other), on the whole trace or on a range: Vampir's function summary, StarPU's
// starpu_codelet_profile. `stats`, `export --format csv --table codelets` and the viewer's
// codelet dock all show this table.

#include "tracer/model/starpu_tasks.hpp"
#include "tracer/model/trace.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::tracer {

// Count and durations (trace ticks) of a set of tasks; all 0 when there is none.
struct DurationSummary {
    std::uint64_t count = 0;
    TimeNs total = 0;
    TimeNs min = 0;
    TimeNs max = 0;
    TimeNs mean = 0;     // total / count, rounded down
    TimeNs median = 0;   // the lower middle one for an even count

    bool operator==(const DurationSummary&) const = default;
};

// The kinds of worker a task runs on, as the table splits them.
enum class WorkerKind : std::uint8_t { Cpu, Cuda, Other };
std::string_view workerKindName(WorkerKind kind);   // "CPU", "CUDA", "other"
WorkerKind workerKindOf(LaneKind lane);             // Other for any other kind of lane

struct CodeletKindSummary {
    WorkerKind kind = WorkerKind::Cpu;
    DurationSummary durations;

    bool operator==(const CodeletKindSummary&) const = default;
};

struct CodeletStats {
    std::string codelet;                      // "" for tasks the trace names no codelet for
    bool internal = false;                    // StarPU's own (isStarpuInternalCodelet)
    DurationSummary all;
    std::vector<CodeletKindSummary> perKind;  // the kinds that ran it, in WorkerKind order

    bool operator==(const CodeletStats&) const = default;
};

// The tasks whose execution starts in [from, to), grouped by codelet name (footprints merged):
// the program's codelets, then StarPU's own, each by total time, longest first (then by name).
std::vector<CodeletStats> computeCodeletStats(const Trace& trace, TimeNs from, TimeNs to);
// The same on the whole trace.
std::vector<CodeletStats> computeCodeletStats(const Trace& trace);

namespace detail {
// computeCodeletStats with the tasks cut into `parts` stretches, each read on a thread of its
// own (the public one makes as many as the cores and the tasks warrant): tests cut small traces.
std::vector<CodeletStats> computeCodeletStats(const Trace& trace, TimeNs from, TimeNs to, std::size_t parts);
} // namespace detail

// How a codelet's task durations spread: `bins` buckets between its shortest and longest task,
// spaced evenly on a logarithmic scale (task times span decades). Bucket i holds durations in
// [edges[i], edges[i + 1]), the last one its upper edge too.
struct DurationHistogram {
    std::vector<TimeNs> edges;             // bins + 1 edges, increasing; empty without a task
    std::vector<std::uint64_t> counts;     // bins counts

    bool operator==(const DurationHistogram&) const = default;
};
DurationHistogram codeletDurationHistogram(const Trace& trace, std::string_view codelet, TimeNs from, TimeNs to,
                                           std::size_t bins);

} // namespace starscope::tracer
