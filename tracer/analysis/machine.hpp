#pragma once
// The figures of a machine with GPUs, where a worker is not just a worker and data moves:
// per kind of worker (CPU, CUDA) its time per state class and its idleness, per link between
// two memory nodes its transfers (count, bytes, busy time, achieved bandwidth), the time
// workers waited for their task's data, and the area bound that knows the kinds apart
// (area_bound.hpp). A CPU-only run's idleness counts its cores alike; on a machine with GPUs
// the scheduler may leave CPUs idle on purpose, which only the per-kind figures show.

#include "tracer/analysis/area_bound.hpp"
#include "tracer/analysis/figure.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/model/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace starscope::tracer {

// The state in which StarPU's workers wait for their task's data to reach their memory node.
inline constexpr std::string_view kFetchingInputState = "FetchingInput";

struct WorkerKindFigures {
    LaneKind kind = LaneKind::CpuWorker;
    std::size_t workers = 0;
    std::uint64_t tasks = 0;     // executed
    ClassTimes times;            // its workers' time over the whole trace
    TimeNs waitingForData = 0;   // in FetchingInput
    // 1 - executing / capacity, on the makespan's window, capacity being its workers' time
    // there less what was not recorded (as TraceSummary::idleness). None when nothing of
    // those workers was recorded there (profiling stopped while every task ran): a kind whose
    // time is unknown is neither idle nor busy.
    std::optional<double> idleness;

    bool operator==(const WorkerKindFigures&) const = default;
};

// The transfers from one memory node to another of one process.
struct LinkFigures {
    std::int32_t rank = -1;
    std::int32_t fromNode = -1;
    std::int32_t toNode = -1;
    std::size_t count = 0;
    std::uint64_t bytes = 0;
    TimeNs busy = 0;             // time at least one transfer ran on the link
    double bandwidth = 0.0;      // bytes per second of busy time (0 when it was never busy)

    bool operator==(const LinkFigures&) const = default;
};

struct MachineFigures {
    std::vector<WorkerKindFigures> kinds;   // in LaneKind order: those the trace has
    std::vector<LinkFigures> links;         // by rank, source node, destination node
    TimeNs waitingForData = 0;              // all workers
    Figure<HeterogeneousBound> areaBound;

    // More than one kind of worker, or data moved: what a CPU-only trace never has, and then
    // shows none of these figures.
    bool heterogeneous() const { return kinds.size() > 1 || !links.empty(); }
    bool operator==(const MachineFigures&) const = default;
};

// whole: computeStats(trace). A trace of one kind of worker and no transfer gets its kind's
// workers, tasks and times only (no idleness, no area bound): what it shows is the summary's.
MachineFigures machineFigures(const Trace& trace, const RangeStats& whole);

// Whether machineFigures(trace, ...) would be heterogeneous(), read from the lanes and the
// transfers alone: a CPU-only trace needs none of its passes (one over the spans, a linear
// program), `stats` of a one-epoch CNN trace 0.66 ms of its 21.
bool heterogeneousMachine(const Trace& trace);

// Bytes in decimal units as `stats` prints them and the viewer shows a transfer: "3.69 MB",
// "512 B"; a bandwidth is formatBytes(bytes per second) + "/s".
std::string formatBytes(double bytes);

} // namespace starscope::tracer
