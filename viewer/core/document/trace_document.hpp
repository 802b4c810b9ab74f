#pragma once
// A trace made ready for drawing, built once off the UI thread after reading: rows, per-lane
// prefix sums for folded colours, palette, batch transitions and batch markers. Immutable once
// built, so widgets share it through std::shared_ptr<const TraceDocument>; barriers depend on
// the UI's threshold and live beside it.

#include "tracer/analysis/barriers.hpp"
#include "tracer/model/error.hpp"
#include "tracer/model/starpu_tasks.hpp"
#include "tracer/model/trace.hpp"
#include "tracer/readers/read_trace.hpp"
#include "viewer/core/drawing/lane_index.hpp"
#include "viewer/core/layout/lane_layout.hpp"
#include "viewer/core/drawing/palette.hpp"
#include "viewer/core/document/task_graph.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace starscope::viewer {

// How the chart's ticks read as time. A tick is the trace's unit (time_unit.hpp), and tick 0
// is shown as time 0; a run moved onto a comparison's shared axis (comparison.hpp) keeps its
// real durations through its own scale (normalized runs are stretched) and shows its alignment
// point (first task, batch marker) as 0, while its ticks stay non-negative as the model wants.
struct TimeScale {
    double nsPerTick = 1.0;
    tracer::TimeNs zeroTick = 0;

    double durationNs(double ticks) const { return ticks * nsPerTick; }
    double timeNs(double tick) const { return (tick - static_cast<double>(zeroTick)) * nsPerTick; }
    double tickAt(double ns) const { return ns / nsPerTick + static_cast<double>(zeroTick); }

    bool operator==(const TimeScale&) const = default;
};

struct TraceDocument {
    tracer::Trace trace;
    std::string source;                             // what was opened, for titles and messages
    std::vector<Row> rows;
    std::vector<std::vector<LaneIndex>> laneIndex;  // [lane][level]
    Palette palette;
    std::vector<tracer::BatchTransition> transitions;
    std::vector<std::size_t> batchMarkers;          // indices of batch_begin markers, by time
    // Where the spans are: StarPU's initialisation often leaves a long empty start.
    tracer::TimeNs activityBegin = 0;
    tracer::TimeNs activityEnd = 0;
    // The program's own tasks, first start to last end (tracer::executionWindow, the makespan
    // `stats` and the comparison's table give): a comparison aligns its runs on it, since the
    // spans before it are StarPU's start-up, not the program.
    tracer::ExecutionWindow execution;
    // Tasks that ran, counted as `stats` counts them (a start time): StarPU also records its
    // internal jobs (tags, callbacks, data requests) that never execute, which trace.tasks holds.
    std::size_t executedTasks = 0;
    // The run's own length (trace.end - trace.begin as read), in the trace's ticks. Aligned for
    // --compare, every run's trace spans the shared axis; its title still gives its own length.
    tracer::TimeNs length = 0;
    // Predecessors and successors of each task, for the selected task's arrows.
    TaskGraph taskGraph;
    // Every time and duration shown (axis, labels, tooltips, details, lists) goes through it.
    TimeScale time;
    // The longest chain of dependent tasks (tracer::criticalPath), first task first; empty when
    // the trace recorded no dependency (a Paje trace): then there is no chain to draw.
    std::vector<tracer::TaskIndex> criticalPath;
    // Per lane, its idleness on the makespan's window when it is a worker whose time is known
    // (tracer::workerShares): the figure beside each worker's row label, as StarVZ shows it.
    std::vector<std::optional<double>> laneIdleness;

    // The batch (from its batch_begin marker) running at timeNs; nullptr before the first.
    const tracer::MarkerEvent* batchAt(tracer::TimeNs timeNs) const;
};

using Barriers = std::vector<tracer::Barrier>;

// length: the run's own length when trace was moved onto a shared axis (default: its span);
// time: how its ticks read then (default: the trace's unit, from 0); shades: the codelets'
// shades when shared with other documents, a comparison's panels (default: its own codelets').
std::shared_ptr<const TraceDocument> prepareDocument(tracer::Trace trace, std::string source,
                                                     std::optional<tracer::TimeNs> length = std::nullopt,
                                                     std::optional<TimeScale> time = std::nullopt,
                                                     const std::optional<CodeletShades>& shades = std::nullopt);
// What the viewer reads with: the native files it checked whole remembered where the command
// line remembers them (tracer::verifiedFilesFolder), so that they open without checks again.
tracer::ReadOptions viewerReadOptions();
// Reads any input readTrace knows (run folder, prof file, Paje, native) and prepares it.
// Errors are the reader's, verbatim (file, byte offset, what was wrong).
tracer::TraceResult<std::shared_ptr<const TraceDocument>> loadDocument(const std::filesystem::path& input,
                                                                       const tracer::ReadOptions& options = {});
// Several inputs as one job (one prof file per process of a StarPU-MPI run, merged by the
// reader on one clock); one input is read as above. The source names them all.
tracer::TraceResult<std::shared_ptr<const TraceDocument>> loadDocument(const std::vector<std::filesystem::path>& inputs,
                                                                       const tracer::ReadOptions& options = {});
// What a document read from inputs is called: the one path, or "a + b" for a job's files.
inline constexpr const char* kJobSeparator = " + ";
std::string sourceName(const std::vector<std::filesystem::path>& inputs);
Barriers computeBarriers(const TraceDocument& document, tracer::TimeNs thresholdNs);
// The job's barriers (as computeBarriers) and each rank's own (none of that rank's workers
// executing), rank by rank, each rank's in time order; no rank barriers for a one-process
// trace. The chart bands a rank's barriers in that rank's rows.
struct JobAndRankBarriers {
    Barriers job;
    Barriers ranks;
};
JobAndRankBarriers computeJobAndRankBarriers(const TraceDocument& document, tracer::TimeNs thresholdNs);
// The barriers of one rank in JobAndRankBarriers::ranks.
std::span<const tracer::Barrier> barriersOfRank(const Barriers& rankBarriers, std::int32_t rank);
// Index of the first barrier ending after timeNs (barriers sorted by start, disjoint).
std::size_t firstBarrierEndingAfter(const Barriers& barriers, double timeNs);

// "14,655 tasks executed (41,652 jobs)", or "20 tasks executed" when every job ran: the figure
// `stats` prints, with StarPU's jobs that never ran said apart instead of counted as tasks.
std::string taskCountText(const TraceDocument& document);
// 41652 -> "41,652".
std::string groupThousands(std::size_t value);

// A row's label on the chart: a worker's with its idleness ("CPU 0  12.3 % idle"), any other
// row's (a header, the main thread, a memory node) as it is.
std::string shownRowLabel(const TraceDocument& document, const Row& row);

// "epoch 0 batch 3" for a batch_begin marker.
std::string batchLabel(const markers::Marker& marker);

} // namespace starscope::viewer
