#include "viewer/core/document/trace_document.hpp"

#include "tracer/model/time_unit.hpp"
#include "tracer/analysis/parallel.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/analysis/worker_shares.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <algorithm>
#include <cstdio>
#include <future>

namespace starscope::viewer {

namespace {

// findJobAndRankBarriers lists the ranks in order: searched by rank alone.
struct RankOrder {
    bool operator()(const tracer::Barrier& b, std::int32_t rank) const { return b.rank < rank; }
    bool operator()(std::int32_t rank, const tracer::Barrier& b) const { return rank < b.rank; }
};

// The critical path of the trace (none without recorded dependencies), searched on a thread of
// its own when one can be had.
std::future<std::vector<tracer::TaskIndex>> startChainSearch(const tracer::Trace& trace) {
    return tracer::runAside([&trace] {
        return tracer::dependenciesUnavailable(trace) ? std::vector<tracer::TaskIndex>{} : tracer::criticalPath(trace);
    });
}

} // namespace

std::shared_ptr<const TraceDocument> prepareDocument(tracer::Trace trace, std::string source,
                                                     std::optional<tracer::TimeNs> length,
                                                     std::optional<TimeScale> time,
                                                     const std::optional<CodeletShades>& shades) {
    auto document = std::make_shared<TraceDocument>();
    document->trace = std::move(trace);
    document->source = std::move(source);
    const auto& t = document->trace;
    document->length = length.value_or(t.end - t.begin);
    document->time = time.value_or(TimeScale{tracer::nsPerTick(t), 0});
    document->rows = layoutRows(t);
    document->laneIdleness.resize(t.lanes.size());
    for (const auto& share : tracer::workerShares(t)) {
        document->laneIdleness[static_cast<std::size_t>(share.lane)] = share.idleness;
    }
    // The longest chain of tasks (a walk of the task graph, the longest step here) on another
    // core meanwhile: the rest reads the spans.
    auto chain = startChainSearch(t);
    document->laneIndex.resize(t.lanes.size());
    tracer::TimeNs first = t.end;
    tracer::TimeNs last = t.begin;
    for (std::size_t l = 0; l < t.lanes.size(); ++l) {
        auto& levels = document->laneIndex[l];
        for (const auto& level : t.lanes[l].levels) {
            levels.emplace_back(level, t.states.size());
            if (!level.empty()) {
                first = std::min(first, level.front().start);
                last = std::max(last, level.back().end);
            }
            // A frame reads the index and a few spans at each fold: not the whole level.
            level.releaseResident();
        }
    }
    // The states the spans use, as the lanes' indexes found them: the palette's key lists those.
    std::vector<bool> used(t.states.size(), false);
    for (const auto& levels : document->laneIndex) {
        for (const auto& index : levels) {
            for (const auto state : index.usedStates()) {
                used[state] = true;
            }
        }
    }
    document->palette = Palette(t, shades ? *shades : CodeletShades(programCodelets(t)), used);
    document->activityBegin = first < last ? first : t.begin;
    document->activityEnd = first < last ? last : t.end;
    document->execution = tracer::executionWindow(t);
    // One pass over the tasks for the tasks that ran and the task graph's order.
    bool inJobIdOrder = true;
    for (std::size_t i = 0; i < t.tasks.size(); ++i) {
        const tracer::Task& task = t.tasks[i];
        document->executedTasks += task.start >= 0 ? 1U : 0U;
        inJobIdOrder = inJobIdOrder && (i == 0 || t.tasks[i - 1].jobId <= task.jobId);
    }
    document->transitions = tracer::findTransitions(t);
    document->transitions.shrink_to_fit();   // kept while the trace is open: no doubling slack
    document->taskGraph = TaskGraph(t, inJobIdOrder);
    document->criticalPath = chain.get();
    // The passes over the whole trace are done; a frame reads a window of it.
    t.releaseResident();
    for (std::size_t i = 0; i < t.markers.size(); ++i) {
        const auto& m = t.markers[i];
        if (m.parsed && m.kind == markers::Kind::BatchBegin) {
            document->batchMarkers.push_back(i);
        }
    }
    return document;
}

tracer::ReadOptions viewerReadOptions() {
    tracer::ReadOptions options;
    options.verifiedFiles = tracer::verifiedFilesFolder();
    return options;
}

tracer::TraceResult<std::shared_ptr<const TraceDocument>> loadDocument(const std::filesystem::path& input,
                                                                       const tracer::ReadOptions& options) {
    auto trace = tracer::readTrace(input, options);
    if (!trace) {
        return fail(trace.error());
    }
    return prepareDocument(std::move(trace).value(), input.string());
}

tracer::TraceResult<std::shared_ptr<const TraceDocument>> loadDocument(const std::vector<std::filesystem::path>& inputs,
                                                                       const tracer::ReadOptions& options) {
    auto trace = tracer::readTrace(inputs, options);
    if (!trace) {
        return fail(trace.error());
    }
    return prepareDocument(std::move(trace).value(), sourceName(inputs));
}

std::string sourceName(const std::vector<std::filesystem::path>& inputs) {
    std::string name;
    for (const auto& input : inputs) {
        name += (name.empty() ? "" : kJobSeparator) + input.string();
    }
    return name;
}

std::string groupThousands(std::size_t value) {
    std::string digits = std::to_string(value);
    for (auto at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > 0; at -= 3) {
        digits.insert(static_cast<std::size_t>(at), 1, ',');
    }
    return digits;
}

std::string taskCountText(const TraceDocument& document) {
    const std::size_t executed = document.executedTasks;
    const std::size_t jobs = document.trace.tasks.size();
    std::string text = groupThousands(executed) + (executed == 1 ? " task executed" : " tasks executed");
    if (jobs != executed) {
        text += " (" + groupThousands(jobs) + (jobs == 1 ? " job)" : " jobs)");
    }
    return text;
}

const tracer::MarkerEvent* TraceDocument::batchAt(tracer::TimeNs timeNs) const {
    const auto it = std::partition_point(batchMarkers.begin(), batchMarkers.end(), [&](std::size_t i) {
        return trace.markers[i].time <= timeNs;
    });
    return it == batchMarkers.begin() ? nullptr : &trace.markers[*(it - 1)];
}

Barriers computeBarriers(const TraceDocument& document, tracer::TimeNs thresholdNs) {
    tracer::BarrierOptions options;
    options.threshold = thresholdNs;
    return tracer::findBarriers(document.trace, document.transitions, options);
}

JobAndRankBarriers computeJobAndRankBarriers(const TraceDocument& document, tracer::TimeNs thresholdNs) {
    tracer::BarrierOptions options;
    options.threshold = thresholdNs;
    // The job's come first (rank -1), then the ranks' in rank order. Both lists are sized
    // exactly: the window keeps them for as long as the trace is open, and a list grown by
    // doubling would keep up to twice its barriers' bytes.
    auto all = tracer::findJobAndRankBarriers(document.trace, document.transitions, options);
    const auto job = static_cast<std::size_t>(
        std::count_if(all.begin(), all.end(), [](const tracer::Barrier& b) { return b.rank < 0; }));
    JobAndRankBarriers out;
    out.job.reserve(job);
    out.ranks.reserve(all.size() - job);
    for (auto& b : all) {
        (b.rank < 0 ? out.job : out.ranks).push_back(std::move(b));
    }
    return out;
}

std::span<const tracer::Barrier> barriersOfRank(const Barriers& rankBarriers, std::int32_t rank) {
    const auto [first, last] = std::equal_range(rankBarriers.begin(), rankBarriers.end(), rank, RankOrder{});
    return {first, last};
}

std::size_t firstBarrierEndingAfter(const Barriers& barriers, double timeNs) {
    const auto it = std::partition_point(barriers.begin(), barriers.end(), [timeNs](const tracer::Barrier& b) {
        return static_cast<double>(b.end) <= timeNs;
    });
    return static_cast<std::size_t>(it - barriers.begin());
}

std::string shownRowLabel(const TraceDocument& document, const Row& row) {
    if (row.kind != RowKind::Lane || row.lane < 0
        || static_cast<std::size_t>(row.lane) >= document.laneIdleness.size()) {
        return row.label;
    }
    const auto& idleness = document.laneIdleness[static_cast<std::size_t>(row.lane)];
    if (!idleness) {
        return row.label;
    }
    char share[32];
    std::snprintf(share, sizeof share, "  %.1f %% idle", *idleness * 100.0);
    return row.label + share;
}

std::string batchLabel(const markers::Marker& marker) {
    return "epoch " + std::to_string(marker.epoch) + " batch " + std::to_string(marker.batch);
}

} // namespace starscope::viewer
