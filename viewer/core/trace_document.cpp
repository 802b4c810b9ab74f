#include "viewer/core/trace_document.hpp"

#include "tracer/run/run_folder.hpp"

#include <algorithm>

namespace starscope::viewer {

std::shared_ptr<const TraceDocument> prepareDocument(tracer::Trace trace, std::string source) {
    auto document = std::make_shared<TraceDocument>();
    document->trace = std::move(trace);
    document->source = std::move(source);
    const auto& t = document->trace;
    document->rows = layoutRows(t);
    document->palette = Palette(t);
    document->laneIndex.reserve(t.lanes.size());
    tracer::TimeNs first = t.end;
    tracer::TimeNs last = t.begin;
    for (const auto& lane : t.lanes) {
        auto& levels = document->laneIndex.emplace_back();
        for (const auto& level : lane.levels) {
            levels.emplace_back(level, t.states.size());
            if (!level.empty()) {
                first = std::min(first, level.front().start);
                last = std::max(last, level.back().end);
            }
        }
    }
    document->activityBegin = first < last ? first : t.begin;
    document->activityEnd = first < last ? last : t.end;
    document->transitions = tracer::findTransitions(t);
    for (std::size_t i = 0; i < t.markers.size(); ++i) {
        const auto& m = t.markers[i];
        if (m.parsed && m.marker.kind == markers::Kind::BatchBegin) {
            document->batchMarkers.push_back(i);
        }
    }
    return document;
}

tracer::TraceResult<std::shared_ptr<const TraceDocument>> loadDocument(const std::filesystem::path& input,
                                                                       const tracer::ReadOptions& options) {
    auto trace = tracer::run::readRunTrace(input, options);
    if (!trace) {
        return fail(trace.error());
    }
    return prepareDocument(std::move(trace).value(), input.string());
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

std::size_t firstBarrierEndingAfter(const Barriers& barriers, double timeNs) {
    const auto it = std::partition_point(barriers.begin(), barriers.end(), [timeNs](const tracer::Barrier& b) {
        return static_cast<double>(b.end) <= timeNs;
    });
    return static_cast<std::size_t>(it - barriers.begin());
}

std::string batchLabel(const markers::Marker& marker) {
    return "epoch " + std::to_string(marker.epoch) + " batch " + std::to_string(marker.batch);
}

} // namespace starscope::viewer
