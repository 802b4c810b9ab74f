#pragma once
// Time per state class (executing / sleeping / overhead) per lane and in total, on the whole
// trace or on a time range, and the trace-level figures: makespan, idleness, barriers,
// per-transition stall, StarPU's efficiencies, area bound and critical path, and the same
// figures without the tracing's own time (FxT writing its buffer: trace_flushes.hpp).

#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/critical_path.hpp"
#include "tracer/analysis/figure.hpp"
#include "tracer/model/time_unit.hpp"
#include "tracer/model/trace.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace starscope::tracer {

// Time (ns) per state class. idle = time of the range covered by no span on the lane. StarPU's
// own tasks (starpu_tasks.hpp) are its runtime's work: their time is overhead, not executing.
struct ClassTimes {
    TimeNs executing = 0;
    TimeNs sleeping = 0;
    TimeNs overhead = 0;
    TimeNs user = 0;
    TimeNs notProfiled = 0;   // FxT profiling stopped: neither sleeping nor idle
    TimeNs tracing = 0;       // writing FxT's full buffer to the trace file
    TimeNs idle = 0;

    TimeNs total() const {
        return executing + sleeping + overhead + user + notProfiled + tracing + idle;
    }
    ClassTimes& operator+=(const ClassTimes& other);
    ClassTimes& operator-=(const ClassTimes& other);
    bool operator==(const ClassTimes&) const = default;
};

struct LaneStats {
    std::int32_t lane = -1;               // index into Trace::lanes
    ClassTimes classes;
    std::vector<TimeNs> perState;         // indexed by Trace::states id, base level only
    std::uint64_t tasks = 0;              // tasks whose execution starts in the range

    bool operator==(const LaneStats&) const = default;
};

// Statistics restricted to [from, to): spans are clipped to the range.
struct RangeStats {
    TimeNs from = 0;
    TimeNs to = 0;
    std::vector<LaneStats> lanes;         // one per lane of the trace, in lane order
    ClassTimes workers;                   // sum over worker lanes only

    bool operator==(const RangeStats&) const = default;
};

// Base-level (levels[0]) time per state and class for every lane on [from, to).
RangeStats computeRangeStats(const Trace& trace, TimeNs from, TimeNs to);
// Same on the whole trace [trace.begin, trace.end).
RangeStats computeStats(const Trace& trace);

// StarPU's efficiencies, as starpu_trace_state_stats.py -e defines them from the worker
// times tt (task: Executing), ts (Scheduling), tr (other runtime overhead) and ti (idle:
// Sleeping): scheduling = tt/(tt+ts), runtime = (tt+ts)/(tt+tr+ts),
// pipeline = (tt+tr+ts)/(tt+tr+ti+ts), task = 1 (no sequential reference time),
// parallel = their product.
struct Efficiencies {
    double parallel = 0.0;
    double task = 0.0;
    double runtime = 0.0;
    double scheduling = 0.0;
    double pipeline = 0.0;

    bool operator==(const Efficiencies&) const = default;
};

struct TransitionStall {
    std::int32_t transition = -1;
    std::string label;
    TimeNs stall = 0;          // total barrier time attributed to this transition

    bool operator==(const TransitionStall&) const = default;
};

// The figures of a trace with the time its threads spent writing FxT's buffer cut out of the
// timeline (every lane's, during any flush), as if the program had not waited for the tracing:
// a flush of the main thread starves every worker, one of a worker holds its task back.
struct WithoutTracing {
    TimeNs makespan = 0;     // the makespan less the flush time within it
    ClassTimes workerTotals; // the workers' times outside the flushes (tracing is 0)
    double idleness = 0.0;   // as TraceSummary's, of these
    // Barriers still longer than the threshold without their flush time.
    std::size_t barrierCount = 0;
    TimeNs barrierTotal = 0;
    TimeNs barrierMean = 0;
    TimeNs barrierMax = 0;
    double barrierShare = 0.0; // barrierTotal / makespan

    bool operator==(const WithoutTracing&) const = default;
};

// One rank's area bound: the program's executing time on its workers / its workers. A job's
// ranks share no worker, so the slowest rank's bound is what the job cannot go below on its
// ranks as they were loaded, where the job's own bound averages them.
struct RankAreaBound {
    std::int32_t rank = -1;
    std::size_t workers = 0;
    TimeNs bound = 0;

    bool operator==(const RankAreaBound&) const = default;
};

struct TraceSummary {
    // The execution window's length: the program's first task start -> last task end, StarPU's
    // own tasks left out (starpu_tasks.hpp); 0 if the program ran no task.
    TimeNs makespan = 0;
    std::size_t workers = 0;
    std::size_t tasks = 0;             // executed tasks, StarPU's own included
    ClassTimes workerTotals;           // over [trace.begin, trace.end)
    double idleness = 0.0;             // 1 - executing/(makespan*workers), on the makespan window
    std::size_t barrierCount = 0;
    TimeNs barrierTotal = 0;
    TimeNs barrierMean = 0;
    TimeNs barrierMax = 0;
    // Part of barrierTotal attributed to FxT writing its full buffer (BarrierCause::TraceFlush):
    // the tracing's cost, not the program's.
    TimeNs barrierTraceFlush = 0;
    double barrierShare = 0.0; // barrierTotal / makespan (0 without a task)
    // Where threads wrote FxT's full buffer to the trace file (trace_flushes.hpp): how often, how
    // long in all and at most. The figures above include that time as it happened;
    // withoutTracing gives them without it (the same figures when there is no flush).
    std::size_t traceFlushes = 0;
    TimeNs traceFlushTotal = 0;
    TimeNs traceFlushMax = 0;
    WithoutTracing withoutTracing;
    std::vector<TransitionStall> transitions;   // empty when meanTransitionStall is n/a
    Figure<TimeNs> meanTransitionStall;   // mean over all transitions (0 stall included); n/a without batch markers
    Efficiencies efficiencies;
    TimeNs areaBound = 0;              // the program's total task time / workers
    std::vector<RankAreaBound> rankAreaBounds;   // per rank, in rank order; empty with one process
    Figure<TimeNs> criticalPath;       // critical_path.hpp; n/a without recorded dependencies

    bool operator==(const TraceSummary&) const = default;
};

TraceSummary summarize(const Trace& trace, const BarrierOptions& options = {});
// Same, with computeStats(trace) computed already: a caller showing the whole trace's table has
// it (computeRangeStats was 2 % of `stats` on a 390 MB trace, run twice over every span).
TraceSummary summarize(const Trace& trace, const BarrierOptions& options, const RangeStats& whole);
// Same, with the trace's batch transitions (findTransitions(trace)) found already: a command or
// an open that shows them too searches the markers once.
TraceSummary summarize(const Trace& trace, const BarrierOptions& options, const RangeStats& whole,
                       const std::vector<BatchTransition>& transitions);

// Why the trace cannot support figures over the task graph (its reader recorded no task
// dependency: a Paje trace, an FxT trace without task events); nullopt when it can.
std::optional<std::string> dependenciesUnavailable(const Trace& trace);

} // namespace starscope::tracer
