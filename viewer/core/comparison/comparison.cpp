#include "viewer/core/comparison/comparison.hpp"

#include "tracer/run/run_comparison.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace starscope::viewer {

namespace fs = std::filesystem;
using tracer::TimeNs;

ViewerResult<Alignment> parseAlignment(std::string_view text, std::string_view flag) {
    if (text == "start") {
        return Alignment{AlignMode::Start, 0};
    }
    if (text == "normalized") {
        return Alignment{AlignMode::Normalized, 0};
    }
    if (text.starts_with("marker:")) {
        const std::string_view k = text.substr(7);
        std::size_t value = 0;
        const auto [ptr, ec] = std::from_chars(k.data(), k.data() + k.size(), value);
        if (!k.empty() && ec == std::errc{} && ptr == k.data() + k.size()) {
            return Alignment{AlignMode::Marker, value};
        }
    }
    return fail(ViewerError{ViewerErrorCode::InvalidArgument,
                            std::string(flag) + ": '" + std::string(text)
                                + "' is not an alignment (expected start, marker:K with K counted from 0 as the "
                                  "batch numbers, or normalized)"});
}

std::string describeAlignment(const Alignment& alignment, const TraceDocument* run) {
    switch (alignment.mode) {
    case AlignMode::Start: return "time since first task";
    case AlignMode::Marker: {
        std::string text = "time since batch marker " + std::to_string(alignment.marker);
        if (run != nullptr && alignment.marker < run->batchMarkers.size()) {
            const auto& marker = run->trace.markers[run->batchMarkers[alignment.marker]];
            text += " (" + batchLabel(run->trace.markerOf(marker)) + ")";
        }
        return text;
    }
    case AlignMode::Normalized: return "share of makespan";
    }
    return {};
}

namespace {

// t -> (t - origin) * scale + zero, rounded: the one mapping applied to every time of a run.
struct TimeMap {
    double origin = 0.0;
    double scale = 1.0;
    double zero = 0.0;

    TimeNs operator()(TimeNs t) const {
        return static_cast<TimeNs>(std::llround((static_cast<double>(t) - origin) * scale + zero));
    }
};

tracer::Trace mapTrace(tracer::Trace trace, const TimeMap& map) {
    for (auto& lane : trace.lanes) {
        for (auto& level : lane.levels) {
            for (auto& span : level.edit()) {
                span = tracer::Span{map(span.start), map(span.end), span.state, span.runsTask != 0};
            }
        }
    }
    for (auto& task : trace.tasks.edit()) {
        for (tracer::PackedTime* t : {&task.submit, &task.start, &task.end}) {
            *t = *t < 0 ? TimeNs{*t} : map(*t);
        }
    }
    for (auto& marker : trace.markers) {
        marker.time = map(marker.time);
    }
    for (auto& message : trace.messages) {
        message.start = map(message.start);
        message.end = map(message.end);
    }
    trace.begin = map(trace.begin);
    trace.end = map(trace.end);
    return trace;
}

} // namespace

RunFigures runFiguresOf(const TraceDocument& document, const fs::path& runFolder, TimeNs thresholdNs) {
    RunFigures r = tracer::run::measureRun(document.trace, document.transitions, runFolder, thresholdNs);
    r.source = document.source;
    return r;
}

ViewerResult<std::vector<ComparedRun>> alignRuns(const std::vector<ComparedRun>& runs, const Alignment& alignment) {
    std::vector<TimeMap> maps;
    // Every run's origin lands on one shared tick, late enough that no run's time becomes
    // negative: the model reads a negative start as a task that never ran (it then fell out of
    // the task count and lost its arrows), and its times are ticks from the trace's start.
    double zero = 0.0;
    for (const auto& run : runs) {
        const TraceDocument& d = *run.document;
        // The program's first task is 0 and its makespan the normalized axis's 100 %, as the
        // table's makespan; a trace without a task of the program falls back on its spans.
        const bool tasks = !d.execution.empty();
        const TimeNs first = tasks ? d.execution.first : d.activityBegin;
        const TimeNs last = tasks ? d.execution.last : d.activityEnd;
        TimeMap map;
        map.origin = static_cast<double>(first);
        if (alignment.mode == AlignMode::Marker) {
            if (alignment.marker >= d.batchMarkers.size()) {
                return fail(ViewerError{ViewerErrorCode::InvalidArgument,
                                        "--align marker:" + std::to_string(alignment.marker) + ": " + d.source
                                            + " has " + std::to_string(d.batchMarkers.size()) + " batch_begin markers"});
            }
            map.origin = static_cast<double>(d.trace.markers[d.batchMarkers[alignment.marker]].time);
        } else if (alignment.mode == AlignMode::Normalized) {
            const double span = static_cast<double>(last - first);
            map.scale = kNormalizedSpanNs / std::max(span, 1.0);
        }
        zero = std::max(zero, (map.origin - static_cast<double>(d.trace.begin)) * map.scale);
        maps.push_back(map);
    }
    zero = std::ceil(zero);
    for (TimeMap& map : maps) {
        map.zero = zero;
    }
    std::vector<tracer::Trace> traces;
    TimeNs begin = std::numeric_limits<TimeNs>::max();
    TimeNs end = std::numeric_limits<TimeNs>::min();
    for (std::size_t i = 0; i < runs.size(); ++i) {
        traces.push_back(mapTrace(runs[i].document->trace, maps[i]));
        begin = std::min(begin, traces.back().begin);
        end = std::max(end, traces.back().end);
    }
    // One codelet, one colour in every panel: the shades are chosen once for all runs' codelets.
    std::vector<std::string> codelets;
    for (const auto& trace : traces) {
        const auto mine = programCodelets(trace);
        codelets.insert(codelets.end(), mine.begin(), mine.end());
    }
    const CodeletShades shades(std::move(codelets));
    std::vector<ComparedRun> out;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        traces[i].begin = begin;
        traces[i].end = end;
        const auto mapped = [&map = maps[i]](const std::shared_ptr<const Barriers>& from) {
            auto to = std::make_shared<Barriers>();
            if (from) {
                for (tracer::Barrier b : *from) {
                    b.start = map(b.start);
                    b.end = map(b.end);
                    to->push_back(std::move(b));
                }
            }
            return to;
        };
        // A normalized run's ticks are stretched: its durations still read in real time.
        const TimeScale time{runs[i].document->time.nsPerTick / maps[i].scale, static_cast<TimeNs>(zero)};
        const auto length = static_cast<TimeNs>(std::llround(static_cast<double>(runs[i].document->length) * maps[i].scale));
        out.push_back({prepareDocument(std::move(traces[i]), runs[i].document->source, length, time, shades),
                       mapped(runs[i].barriers), mapped(runs[i].rankBarriers)});
    }
    return out;
}

std::vector<std::string> chartRunLabels(const std::vector<RunFigures>& runs) {
    const auto ranksOf = [](const RunFigures& run) { return run.ranks.value.value_or(1.0); };
    const bool byRanks = std::any_of(runs.begin(), runs.end(),
                                     [&](const RunFigures& run) { return ranksOf(run) != ranksOf(runs.front()); });
    std::vector<std::string> labels;
    for (const auto& run : runs) {
        std::string label = run.strategy.empty() ? std::string("run") : run.strategy;
        if (byRanks) {
            const auto ranks = static_cast<long>(ranksOf(run));
            label += ", " + std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks");
        }
        labels.push_back(std::move(label));
    }
    std::vector<std::string> out = labels;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (std::count(labels.begin(), labels.end(), labels[i]) > 1) {
            out[i] += " #" + std::to_string(i + 1);
        }
    }
    return out;
}

ViewerResult<LoadedComparison> loadComparison(const std::vector<fs::path>& inputs, TimeNs thresholdNs,
                                              bool allowMixed) {
    if (inputs.empty()) {
        return fail(ViewerError{ViewerErrorCode::InvalidArgument, "--compare needs at least one run folder"});
    }
    LoadedComparison out;
    for (const auto& input : inputs) {
        auto document = loadDocument(input, viewerReadOptions());
        if (!document) {
            return fail(ViewerError{ViewerErrorCode::Input, document.error().describe()});
        }
        auto barriers = computeJobAndRankBarriers(**document, thresholdNs);
        out.figures.push_back(runFiguresOf(**document, input, thresholdNs));
        out.runs.push_back({std::move(*document), std::make_shared<const Barriers>(std::move(barriers.job)),
                            std::make_shared<const Barriers>(std::move(barriers.ranks))});
    }
    // What `starscope compare` refuses to put side by side, the viewer does not show either.
    std::vector<tracer::run::CompareInput> compared;
    for (const auto& figures : out.figures) {
        compared.push_back({figures, true});
    }
    tracer::run::CompareOptions options;
    options.allowMixed = allowMixed;
    if (auto comparable = tracer::run::compareRuns(std::move(compared), options); !comparable) {
        return fail(ViewerError{ViewerErrorCode::Input, comparable.error().message});
    }
    return out;
}

} // namespace starscope::viewer
