#include "viewer/core/comparison.hpp"

#include "common/input_file.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/readers/run_json_fields.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>

namespace starscope::viewer {

namespace fs = std::filesystem;
using nlohmann::json;
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
    return fail(ViewerError{std::string(flag) + ": '" + std::string(text)
                            + "' is not an alignment (expected start, marker:K with K >= 0, or normalized)"});
}

std::string describeAlignment(const Alignment& alignment) {
    switch (alignment.mode) {
    case AlignMode::Start: return "time since first task";
    case AlignMode::Marker: return "time since batch marker " + std::to_string(alignment.marker);
    case AlignMode::Normalized: return "share of makespan";
    }
    return {};
}

namespace {

Figure known(double value) { return Figure::known(value); }
Figure missing(std::string reason) { return Figure::unavailable(std::move(reason)); }

// The analysis decided whether the trace supports the figure; this only converts its unit.
Figure fromSummary(const tracer::Figure<TimeNs>& figure) {
    return figure.value ? known(static_cast<double>(*figure.value)) : missing(figure.reason);
}

std::optional<double> number(const json& node, const char* key) {
    if (node.is_object()) {
        if (const auto it = node.find(key); it != node.end() && it->is_number()) {
            return it->get<double>();
        }
    }
    return std::nullopt;
}

Figure ratio(const json& papi, std::string_view misses, std::string_view accesses, const std::string& reason) {
    const auto m = tracer::papiEventTotal(papi, misses);
    const auto a = tracer::papiEventTotal(papi, accesses);
    if (m && a && *a > 0) {
        return known(*m / *a);
    }
    return missing(m || a ? std::string(misses) + " or " + std::string(accesses) + " not recorded" : reason);
}

void readRunJson(const fs::path& folder, RunFigures& r) {
    json run = json::object();
    std::string problem;
    const fs::path path = folder / "run.json";
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) {
        problem = "not a run folder (no run.json)";
    } else if (const auto why = files::notRegularFile(path)) {
        problem = path.string() + " " + *why;
    } else if (std::ifstream in(path); !in) {
        problem = "no run.json in " + folder.string();
    } else {
        run = json::parse(in, nullptr, false);
        if (run.is_discarded() || !run.is_object()) {
            problem = path.string() + " is not valid JSON";
            run = json::object();
        }
    }
    r.strategy = tracer::strategyOf(run, folder);
    const auto orMissing = [&](std::optional<double> v, const std::string& why) {
        return v ? known(*v) : missing(problem.empty() ? why : problem);
    };
    const auto wall = number(run, "wall_time_s");
    r.runtimeS = orMissing(wall, "run.json has no wall_time_s");

    const json empty = json::object();
    const json& counters = run.contains("counters") && run["counters"].is_object() ? run["counters"] : empty;
    const json& papi = counters.contains("papi") && counters["papi"].is_object() ? counters["papi"] : empty;
    const std::string papiReason =
        !problem.empty() ? problem : tracer::reasonOf(papi, counters.contains("papi") ? "PAPI counters not recorded" : "run.json has no counters");
    if (const auto i = papi.find("ipc"); i != papi.end() && i->is_number()) {
        r.ipc = known(i->get<double>());
    } else {
        r.ipc = missing(i != papi.end() ? tracer::reasonOf(*i, papiReason) : papiReason);
    }
    r.llcLoadMissRatio = ratio(papi, "perf::LLC-load-misses", "perf::LLC-loads", papiReason);
    r.llcStoreMissRatio = ratio(papi, "perf::LLC-store-misses", "perf::LLC-stores", papiReason);

    const json& energy = counters.contains("energy") && counters["energy"].is_object() ? counters["energy"] : empty;
    const auto joules = number(energy, "joules");
    if (joules && wall && *wall > 0) {
        r.powerW = known(*joules / *wall);
    } else {
        r.powerW = missing(!problem.empty() ? problem : tracer::reasonOf(energy, "energy not recorded"));
    }

    if (const auto sum = tracer::peakArenaBytes(run)) {
        r.peakMemoryBytes = known(*sum);
    } else {
        r.peakMemoryBytes = missing(problem.empty() ? "run.json has no peak_arena_bytes" : problem);
    }
}

// t -> (t - origin) * scale, rounded: the one mapping applied to every time of a run.
struct TimeMap {
    double origin = 0.0;
    double scale = 1.0;

    TimeNs operator()(TimeNs t) const {
        return static_cast<TimeNs>(std::llround((static_cast<double>(t) - origin) * scale));
    }
};

tracer::Trace mapTrace(tracer::Trace trace, const TimeMap& map) {
    for (auto& lane : trace.lanes) {
        for (auto& level : lane.levels) {
            for (auto& span : level) {
                span.start = map(span.start);
                span.end = map(span.end);
            }
        }
    }
    for (auto& task : trace.tasks) {
        for (TimeNs* t : {&task.submit, &task.start, &task.end}) {
            *t = *t < 0 ? *t : map(*t);
        }
    }
    for (auto& marker : trace.markers) {
        marker.time = map(marker.time);
    }
    trace.begin = map(trace.begin);
    trace.end = map(trace.end);
    return trace;
}

} // namespace

RunFigures measureRun(const TraceDocument& document, const fs::path& runFolder, TimeNs thresholdNs) {
    RunFigures r;
    r.source = document.source;
    tracer::BarrierOptions options;
    options.threshold = thresholdNs;
    const auto s = tracer::summarize(document.trace, options);
    r.makespanNs = known(static_cast<double>(s.makespan));
    r.idleness = known(s.idleness);
    r.barrierCount = known(static_cast<double>(s.barrierCount));
    r.barrierTotalNs = known(static_cast<double>(s.barrierTotal));
    r.barrierMaxNs = known(static_cast<double>(s.barrierMax));
    r.meanTransitionStallNs = fromSummary(s.meanTransitionStall);
    r.criticalPathNs = fromSummary(s.criticalPath);
    readRunJson(runFolder, r);
    return r;
}

ViewerResult<std::vector<ComparedRun>> alignRuns(const std::vector<ComparedRun>& runs, const Alignment& alignment) {
    std::vector<TimeMap> maps;
    for (const auto& run : runs) {
        const TraceDocument& d = *run.document;
        TimeMap map;
        map.origin = static_cast<double>(d.activityBegin);
        if (alignment.mode == AlignMode::Marker) {
            if (alignment.marker >= d.batchMarkers.size()) {
                return fail(ViewerError{"--align marker:" + std::to_string(alignment.marker) + ": " + d.source + " has "
                                        + std::to_string(d.batchMarkers.size()) + " batch_begin markers"});
            }
            map.origin = static_cast<double>(d.trace.markers[d.batchMarkers[alignment.marker]].time);
        } else if (alignment.mode == AlignMode::Normalized) {
            const double span = static_cast<double>(d.activityEnd - d.activityBegin);
            map.scale = kNormalizedSpanNs / std::max(span, 1.0);
        }
        maps.push_back(map);
    }
    std::vector<tracer::Trace> traces;
    TimeNs begin = std::numeric_limits<TimeNs>::max();
    TimeNs end = std::numeric_limits<TimeNs>::min();
    for (std::size_t i = 0; i < runs.size(); ++i) {
        traces.push_back(mapTrace(runs[i].document->trace, maps[i]));
        begin = std::min(begin, traces.back().begin);
        end = std::max(end, traces.back().end);
    }
    std::vector<ComparedRun> out;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        traces[i].begin = begin;
        traces[i].end = end;
        auto barriers = std::make_shared<Barriers>();
        if (runs[i].barriers) {
            for (tracer::Barrier b : *runs[i].barriers) {
                b.start = maps[i](b.start);
                b.end = maps[i](b.end);
                barriers->push_back(std::move(b));
            }
        }
        out.push_back({prepareDocument(std::move(traces[i]), runs[i].document->source), std::move(barriers)});
    }
    return out;
}

ViewerResult<LoadedComparison> loadComparison(const std::vector<fs::path>& inputs, TimeNs thresholdNs) {
    if (inputs.empty()) {
        return fail(ViewerError{"--compare needs at least one run folder"});
    }
    LoadedComparison out;
    for (const auto& input : inputs) {
        auto document = loadDocument(input);
        if (!document) {
            return fail(ViewerError{document.error().describe()});
        }
        auto barriers = std::make_shared<const Barriers>(computeBarriers(**document, thresholdNs));
        out.figures.push_back(measureRun(**document, input, thresholdNs));
        out.runs.push_back({std::move(*document), std::move(barriers)});
    }
    return out;
}

} // namespace starscope::viewer
