// `starscope stats --json`: the StatsReport for scripts. Times are the trace's ticks (ns unless
// ticks_per_second says finer); a figure that may be n/a is {"value": v} or {"value": null,
// "reason": why}.

#include "common/json_text.hpp"
#include "tracer/cli/detail.hpp"
#include "tracer/cli/stats_report.hpp"

namespace starscope::tracer::cli::detail {

namespace {

// The workers' time per class, but the tracing's, which only a trace with flushes shows.
nlohmann::json workerTimesJson(const ClassTimes& w) {
    return {{"executing", w.executing},
            {"sleeping", w.sleeping},
            {"overhead", w.overhead},
            {"not_profiled", w.notProfiled},
            {"idle", w.idle}};
}

nlohmann::json summaryJson(const TraceSummary& s) {
    nlohmann::json transitions = nlohmann::json::array();
    for (const auto& t : s.transitions) {
        transitions.push_back({{"index", t.transition}, {"label", t.label}, {"stall_ns", t.stall}});
    }
    const auto& w = s.workerTotals;
    nlohmann::json out = {
        {"makespan_ns", s.makespan},
        {"workers", s.workers},
        {"tasks", s.tasks},
        {"worker_time_ns", workerTimesJson(w)},
        {"idleness", s.idleness},
        {"barriers",
         {{"count", s.barrierCount},
          {"total_ns", s.barrierTotal},
          {"mean_ns", s.barrierMean},
          {"max_ns", s.barrierMax},
          {"trace_flush_ns", s.barrierTraceFlush}}},
        {"transitions", transitions},
        {"mean_transition_stall_ns", figureJson(s.meanTransitionStall)},
        {"efficiencies",
         {{"parallel", s.efficiencies.parallel},
          {"task", s.efficiencies.task},
          {"runtime", s.efficiencies.runtime},
          {"scheduling", s.efficiencies.scheduling},
          {"pipeline", s.efficiencies.pipeline}}},
        {"area_bound_ns", s.areaBound},
        {"critical_path_ns", figureJson(s.criticalPath)},
    };
    // Only a job of several ranks has it: a one-process trace's output is as it was.
    if (!s.rankAreaBounds.empty()) {
        nlohmann::json perRank = nlohmann::json::array();
        for (const auto& r : s.rankAreaBounds) {
            perRank.push_back(
                {{"rank", r.rank}, {"workers", r.workers}, {"area_bound_ns", r.bound}});
        }
        out["area_bound_per_rank"] = perRank;
    }
    // Only a trace with flushes has these (and the tracing time): the others' output is as it was.
    if (s.traceFlushes > 0) {
        out["worker_time_ns"]["tracing"] = w.tracing;
        out["trace_flushes"] = {{"count", s.traceFlushes},
                                {"total_ns", s.traceFlushTotal},
                                {"max_ns", s.traceFlushMax}};
        const auto& o = s.withoutTracing;
        out["without_tracing"] = {
            {"makespan_ns", o.makespan},
            {"idleness", o.idleness},
            {"barriers",
             {{"count", o.barrierCount},
              {"total_ns", o.barrierTotal},
              {"mean_ns", o.barrierMean},
              {"max_ns", o.barrierMax}}},
            {"barrier_share", o.barrierShare},
            {"worker_time_ns", workerTimesJson(o.workerTotals)},
        };
    }
    return out;
}

std::string laneKindName(LaneKind kind) {
    switch (kind) {
    case LaneKind::CpuWorker:
        return "cpu";
    case LaneKind::CudaWorker:
        return "cuda";
    case LaneKind::OtherWorker:
        return "other";
    case LaneKind::MainThread:
        return "main";
    case LaneKind::MpiThread:
        return "mpi";
    case LaneKind::MemoryNode:
        return "memory node";
    }
    return "unknown";
}

nlohmann::json durationsJson(const DurationSummary& d) {
    return {{"tasks", d.count},      {"total_ns", d.total}, {"mean_ns", d.mean},
            {"median_ns", d.median}, {"min_ns", d.min},     {"max_ns", d.max}};
}

} // namespace

void printStatsJson(const StatsReport& report, std::ostream& out) {
    const Trace& trace = *report.trace;
    const auto& summary = report.summary;
    const auto& range = report.range;
    const auto& codelets = report.codelets;
    nlohmann::json lanes = nlohmann::json::array();
    for (const auto& l : range.lanes) {
        const auto& lane = trace.lanes[static_cast<std::size_t>(l.lane)];
        nlohmann::json states = nlohmann::json::object();
        for (std::size_t s = 0; s < l.perState.size(); ++s) {
            if (l.perState[s] > 0) {
                states[trace.states[s].name] = l.perState[s];
            }
        }
        lanes.push_back({{"name", lane.name},
                         {"kind", laneKindName(lane.kind)},
                         {"worker_id", lane.workerId},
                         {"rank", lane.rank},
                         {"executing_ns", l.classes.executing},
                         {"sleeping_ns", l.classes.sleeping},
                         {"overhead_ns", l.classes.overhead},
                         {"user_ns", l.classes.user},
                         {"not_profiled_ns", l.classes.notProfiled},
                         {"idle_ns", l.classes.idle},
                         {"tasks", l.tasks},
                         {"states_ns", states}});
        if (summary.traceFlushes > 0) {
            lanes.back()["tracing_ns"] = l.classes.tracing;
        }
    }
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto& rank : trace.ranks) {
        ranks.push_back({{"rank", rank.rank},
                         {"source", rank.source},
                         {"world_size", rank.worldSize},
                         {"sync_points", rank.syncPoints},
                         {"clock_offset_ns", rank.clockOffset},
                         {"clock_offset_end_ns", rank.clockOffsetEnd}});
    }
    nlohmann::json codeletRows = nlohmann::json::array();
    for (const auto& c : codelets) {
        nlohmann::json kinds = nlohmann::json::object();
        for (const auto& k : c.perKind) {
            kinds[std::string(workerKindName(k.kind))] = durationsJson(k.durations);
        }
        codeletRows.push_back({{"codelet", c.codelet},
                               {"internal", c.internal},
                               {"all", durationsJson(c.all)},
                               {"per_kind", kinds}});
    }
    nlohmann::json doc = {
        {"input", report.input},
        {"ranks", ranks},
        {"messages", trace.messages.size()},
        {"format", report.format.value_or("")},
        {"range_ns", {report.from, report.to}},
        {"summary", summaryJson(summary)},
        {"lanes", lanes},
        {"codelets", codeletRows},
        {"warnings", trace.warnings},
        {"barrier_threshold_ns", report.threshold},
        // The *_ns times but the threshold are trace ticks: ns unless this says finer.
        {"ticks_per_second", report.ticksPerSecond},
    };
    // Only a machine with GPUs or transfers has these: a CPU-only trace's output is as it was.
    if (report.machine.heterogeneous()) {
        doc["machine"] = machineJson(trace, report.machine);
    }
    out << jsonText(doc, 2) << "\n";
}

} // namespace starscope::tracer::cli::detail
