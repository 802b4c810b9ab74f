#pragma once
// The figures of one run and the one table that names them. Every front end (`starscope
// compare`, sweep's summary, the viewer's comparison) gets its figures from measureRun and
// its list, labels, units and directions from metrics(): the same numbers and the same n/a
// reasons everywhere.

#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/figure.hpp"
#include "tracer/model/trace.hpp"
#include "tracer/run_folder/run_record.hpp"

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::tracer::run {

using RunFigure = Figure<double>;

struct RunFigures {
    std::string source;   // the run folder (or trace file) as given
    std::string strategy; // "single+naive" from run.json; the folder's name otherwise
    std::optional<RunRecord> record;
    std::string recordProblem; // why there is no record (missing, unreadable, not a run record)
    // What the trace lacks of the run (readers' missingRanks: prof files of ranks run.json
    // counts are gone); empty when it holds every rank.
    std::string missingRanks;

    RunFigure makespanNs;
    RunFigure idleness;
    RunFigure barrierCount;
    RunFigure barrierTotalNs;
    RunFigure barrierMaxNs;
    RunFigure meanTransitionStallNs;
    RunFigure criticalPathNs;
    RunFigure parallelEfficiency;
    RunFigure areaBoundRatio;
    RunFigure tasks;
    RunFigure ranks;              // StarPU-MPI ranks (1 for a one-process run)
    RunFigure communicationShare; // time with a message between ranks in flight / makespan
    RunFigure barrierShare;       // job-wide barrier total / makespan
    // A machine with GPUs (tracer/analysis/machine.hpp): n/a for one kind of worker without
    // transfers.
    RunFigure cudaIdleness;
    RunFigure waitingForDataNs;
    RunFigure transferBytes;
    RunFigure areaBoundByKindRatio;
    // The tracing's own cost (FxT writing its full buffer) and the figures without it
    // (stats.hpp's WithoutTracing).
    RunFigure traceFlushCount;
    RunFigure traceFlushTotalNs;
    RunFigure makespanWithoutTracingNs;
    RunFigure idlenessWithoutTracing;
    RunFigure barrierTotalWithoutTracingNs;
    RunFigure barrierShareWithoutTracing;
    // Against the 1-rank run of the same strategy: only a comparison (compareRuns) that holds
    // one can fill them; measureRun leaves them n/a with that reason.
    RunFigure speedup;
    RunFigure scalingEfficiency;
    RunFigure wallTimeS;
    RunFigure totalTimeS;
    RunFigure peakMemoryBytes;
    RunFigure ipc;
    RunFigure llcLoadMissRatio;
    RunFigure llcStoreMissRatio;
    RunFigure energyJ;
    RunFigure powerW;

    bool operator==(const RunFigures&) const = default;
};

enum class Unit { Nanoseconds, Seconds, Ratio, Count, Bytes, Joules, Watts, Plain };

struct Metric {
    std::string_view key;   // JSON and CSV name
    std::string_view label; // table and chart label
    Unit unit;
    bool lowerIsBetter;
    std::string_view computed; // how the figure is obtained
    std::string_view naWhen;   // when it is n/a
    RunFigure RunFigures::*figure;
};

// Every run figure, in presentation order.
std::span<const Metric> metrics();
const Metric* findMetric(std::string_view key);

// Figures of one run: trace figures from trace (barriers longer than thresholdNs, as
// `starscope stats` finds them), the rest from runFolder's run.json when runFolder is a run
// folder (any other path, a trace file, gives n/a with the reason).
RunFigures measureRun(const Trace& trace, const std::filesystem::path& runFolder, TimeNs thresholdNs);
// Same, with the trace's batch transitions (findTransitions(trace)) found already by the caller.
RunFigures measureRun(const Trace& trace, const std::vector<BatchTransition>& transitions,
                      const std::filesystem::path& runFolder, TimeNs thresholdNs);

// The same, reading the run folder's trace first (readTrace: the prof files or the native cache).
TraceResult<RunFigures> measureRun(const std::filesystem::path& runFolder, TimeNs thresholdNs);

// The reason speedup and scalingEfficiency carry until a comparison fills them.
inline constexpr std::string_view kNoScalingReference = "no 1-rank run of this strategy compared";

// "12.3 ms", "45.0%", "3", "1.5 MiB", "2.50 J", "1.200": a value in its unit, for tables.
std::string formatFigure(double value, Unit unit);

} // namespace starscope::tracer::run
