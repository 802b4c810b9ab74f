// `starscope stats` and `starscope barriers`, plus what every tracer command shares.

#include "tracer/cli/commands.hpp"

#include "common/json_text.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/codelet_stats.hpp"
#include "tracer/cli/detail.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/readers/read_trace.hpp"

#include <atomic>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sstream>

namespace starscope::tracer::cli {

namespace detail {

int exitCodeFor(const TraceError& error) { return error.code == ErrorCode::InvalidArgument ? 2 : 1; }

void keepUntilExit(std::optional<Trace>&& trace) {
    // Never deleted but by the next call: the pointer keeps it reachable (leak checkers stay
    // quiet) and the process's end returns its memory at once.
    static std::atomic<Trace*> kept{nullptr};
    delete kept.exchange(trace ? new Trace(std::move(*trace)) : nullptr);
    trace.reset();
}

int reportError(const std::string& command, const TraceError& error, const Io& io) {
    *io.err << "starscope " << command << ": " << error.describe() << "\n";
    return exitCodeFor(error);
}

// STARSCOPE_READ_THREADS=N (1 to 64) sets how many threads the readers use (the benchmarks compare
// them: 1 reads a job's prof files one after another, N decodes up to N at once); unset or
// anything else, each reader chooses. Where verified native files are remembered
// (verifiedFilesFolder: STARSCOPE_VERIFIED_FILES, the user's cache). Read here, at the front,
// so that the readers read no environment.
ReadOptions readOptions() {
    ReadOptions options;
    const char* threads = std::getenv("STARSCOPE_READ_THREADS");
    const std::string_view chosen = threads != nullptr ? threads : "";
    unsigned count = 0;
    const auto [end, ec] = std::from_chars(chosen.data(), chosen.data() + chosen.size(), count);
    if (!chosen.empty() && ec == std::errc{} && end == chosen.data() + chosen.size() && count >= 1 && count <= 64) {
        options.threads = count;
    }
    options.verifiedFiles = verifiedFilesFolder();
    return options;
}

std::optional<Trace> load(const std::string& command, const std::filesystem::path& input, const Io& io) {
    return load(command, std::vector<std::string>{input.string()}, io);
}

std::optional<Trace> load(const std::string& command, const std::vector<std::string>& inputs, const Io& io) {
    auto trace = readTrace(std::vector<std::filesystem::path>(inputs.begin(), inputs.end()), readOptions());
    if (!trace) {
        reportError(command, trace.error(), io);
        return std::nullopt;
    }
    // One input: the warning names it; several: each warning names its file.
    const std::string where = inputs.size() == 1 ? inputs.front() + ": " : std::string();
    for (const auto& warning : trace->warnings) {
        *io.err << "starscope " << command << ": warning: " << where << warning << "\n";
    }
    return std::move(trace).value();
}

std::string joined(const std::vector<std::string>& inputs) {
    std::string out;
    for (const auto& input : inputs) {
        out += (out.empty() ? "" : " ") + input;
    }
    return out;
}

std::string percent(double fraction) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f %%", fraction * 100.0);
    return buffer;
}

nlohmann::json unavailableJson(const std::string& reason) { return {{"value", nullptr}, {"reason", reason}}; }

namespace {

// The workers' time per class, but the tracing's, which only a trace with flushes shows.
nlohmann::json workerTimesJson(const ClassTimes& w) {
    return {{"executing", w.executing},
            {"sleeping", w.sleeping},
            {"overhead", w.overhead},
            {"not_profiled", w.notProfiled},
            {"idle", w.idle}};
}

} // namespace

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
            perRank.push_back({{"rank", r.rank}, {"workers", r.workers}, {"area_bound_ns", r.bound}});
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

} // namespace detail

namespace {

using detail::Io;

std::string laneKindName(LaneKind kind) {
    switch (kind) {
    case LaneKind::CpuWorker: return "cpu";
    case LaneKind::CudaWorker: return "cuda";
    case LaneKind::OtherWorker: return "other";
    case LaneKind::MainThread: return "main";
    case LaneKind::MpiThread: return "mpi";
    case LaneKind::MemoryNode: return "memory node";
    }
    return "unknown";
}

struct StatsArgs {
    std::vector<std::string> inputs;
    bool json = false;
    double thresholdUs = detail::defaultThresholdUs();
    double fromMs = -1;
    double toMs = -1;
};

TimeNs toNs(double value, double scale) { return static_cast<TimeNs>(value * scale + (value >= 0 ? 0.5 : -0.5)); }
// Milliseconds given on the command line in the trace's ticks (time_unit.hpp).
TimeNs msToTicks(double ms, std::int64_t ticksPerSecond) { return toNs(ms, static_cast<double>(ticksPerSecond) / 1e3); }

nlohmann::json durationsJson(const DurationSummary& d) {
    return {{"tasks", d.count}, {"total_ns", d.total}, {"mean_ns", d.mean}, {"median_ns", d.median},
            {"min_ns", d.min}, {"max_ns", d.max}};
}

// The codelet table: a row per codelet, and one per kind of worker under it when several kinds
// ran it; StarPU's own codelets after the program's, marked.
template <typename Duration>
void printCodelets(const std::vector<CodeletStats>& codelets, const Duration& duration, std::ostream& out) {
    if (codelets.empty()) {
        return;
    }
    std::size_t width = std::string_view("codelet").size();
    for (const auto& c : codelets) {
        width = std::max(width, std::min<std::size_t>(c.codelet.size() + (c.internal ? 10 : 0), 48));
    }
    width += 2;
    out << "\n" << std::left << std::setw(static_cast<int>(width)) << "codelet" << std::setw(7) << "kind" << std::right
        << std::setw(8) << "tasks" << std::setw(14) << "total" << std::setw(14) << "mean" << std::setw(14) << "median"
        << std::setw(14) << "min" << std::setw(14) << "max" << "\n";
    const auto row = [&](const std::string& name, std::string_view kind, const DurationSummary& d) {
        out << std::left << std::setw(static_cast<int>(width)) << name << std::setw(7) << kind << std::right
            << std::setw(8) << d.count << std::setw(14) << duration(d.total) << std::setw(14) << duration(d.mean)
            << std::setw(14) << duration(d.median) << std::setw(14) << duration(d.min) << std::setw(14)
            << duration(d.max) << "\n";
    };
    for (const auto& c : codelets) {
        const std::string name = (c.codelet.empty() ? std::string("(no codelet)") : c.codelet)
                                 + (c.internal ? " (StarPU)" : "");
        if (c.perKind.size() == 1) {
            row(name, workerKindName(c.perKind.front().kind), c.all);
            continue;
        }
        row(name, "all", c.all);
        for (const auto& k : c.perKind) {
            row("", workerKindName(k.kind), k.durations);
        }
    }
}

int printStats(const StatsArgs& args, const std::optional<Trace>& trace, const Io& io) {
    BarrierOptions options;
    options.threshold = toNs(args.thresholdUs, 1e3);
    // Durations are shown in the trace's own unit: a Paje trace read finer than nanoseconds
    // shows its sub-nanosecond states as such.
    const auto tps = ticksPerSecond(*trace);
    const auto duration = [tps](TimeNs ticks) { return formatDuration(ticks, tps); };
    const TimeNs from = args.fromMs >= 0 ? msToTicks(args.fromMs, tps) : trace->begin;
    const TimeNs to = args.toMs >= 0 ? msToTicks(args.toMs, tps) : trace->end;
    if (to < from) {
        // Without --to-ms the range ends where the trace does: the start given is what is wrong.
        if (args.toMs < 0) {
            *io.err << "starscope stats: --from-ms " << args.fromMs
                    << " is after the end of the trace, at " << duration(trace->end) << "\n";
        } else {
            *io.err << "starscope stats: --to-ms is before --from-ms\n";
        }
        return 2;
    }
    const auto range = computeRangeStats(*trace, from, to);
    const auto codelets = computeCodeletStats(*trace, from, to);
    // The table of the whole trace is the summary's too.
    const bool whole = from == trace->begin && range.to == std::max(trace->begin, trace->end);
    const auto summary = whole ? summarize(*trace, options, range) : summarize(*trace, options);
    // A CPU-only trace shows none of the machine's figures (its area bound is the summary's).
    const auto machine = heterogeneousMachine(*trace) ? machineFigures(*trace, whole ? range : computeStats(*trace))
                                                      : MachineFigures{};
    auto& out = *io.out;
    if (args.json) {
        nlohmann::json lanes = nlohmann::json::array();
        for (const auto& l : range.lanes) {
            const auto& lane = trace->lanes[static_cast<std::size_t>(l.lane)];
            nlohmann::json states = nlohmann::json::object();
            for (std::size_t s = 0; s < l.perState.size(); ++s) {
                if (l.perState[s] > 0) {
                    states[trace->states[s].name] = l.perState[s];
                }
            }
            lanes.push_back({{"name", lane.name}, {"kind", laneKindName(lane.kind)}, {"worker_id", lane.workerId}, {"rank", lane.rank},
                             {"executing_ns", l.classes.executing}, {"sleeping_ns", l.classes.sleeping},
                             {"overhead_ns", l.classes.overhead}, {"user_ns", l.classes.user},
                             {"not_profiled_ns", l.classes.notProfiled}, {"idle_ns", l.classes.idle}, {"tasks", l.tasks}, {"states_ns", states}});
            if (summary.traceFlushes > 0) {
                lanes.back()["tracing_ns"] = l.classes.tracing;
            }
        }
        nlohmann::json ranks = nlohmann::json::array();
        for (const auto& r : trace->ranks) {
            ranks.push_back({{"rank", r.rank}, {"source", r.source}, {"world_size", r.worldSize},
                             {"sync_points", r.syncPoints}, {"clock_offset_ns", r.clockOffset},
                             {"clock_offset_end_ns", r.clockOffsetEnd}});
        }
        nlohmann::json codeletRows = nlohmann::json::array();
        for (const auto& c : codelets) {
            nlohmann::json kinds = nlohmann::json::object();
            for (const auto& k : c.perKind) {
                kinds[std::string(workerKindName(k.kind))] = durationsJson(k.durations);
            }
            codeletRows.push_back({{"codelet", c.codelet}, {"internal", c.internal}, {"all", durationsJson(c.all)},
                                   {"per_kind", kinds}});
        }
        nlohmann::json doc = {
            {"input", detail::joined(args.inputs)},
            {"ranks", ranks},
            {"messages", trace->messages.size()},
            {"format", trace->metadata.contains("format") ? trace->metadata.at("format") : ""},
            {"range_ns", {from, to}},
            {"summary", detail::summaryJson(summary)},
            {"lanes", lanes},
            {"codelets", codeletRows},
            {"warnings", trace->warnings},
            {"barrier_threshold_ns", options.threshold},
            // The *_ns times but the threshold are trace ticks: ns unless this says finer.
            {"ticks_per_second", tps},
        };
        // Only a machine with GPUs or transfers has these: a CPU-only trace's output is as it was.
        if (machine.heterogeneous()) {
            doc["machine"] = detail::machineJson(*trace, machine);
        }
        out << jsonText(doc, 2) << "\n";
        return 0;
    }
    std::size_t markerCount = 0;
    for (const auto& m : trace->markers) {
        markerCount += m.parsed ? 1 : 0;
    }
    out << "trace          " << detail::joined(args.inputs) << " ("
        << (trace->metadata.contains("format") ? trace->metadata.at("format") : "?") << ")\n";
    out << "lanes          " << trace->lanes.size() << " (" << summary.workers << " workers), tasks " << summary.tasks
        << ", markers " << markerCount << "\n";
    if (!trace->ranks.empty()) {
        // Where each rank's clock sits on the job's: what was subtracted from its FxT times.
        out << "ranks          " << trace->ranks.size() << ", messages " << trace->messages.size() << ", clock offsets";
        for (const auto& r : trace->ranks) {
            out << " " << r.rank << ":" << (r.syncPoints == 0 ? "unaligned" : formatDuration(r.clockOffset - trace->ranks.front().clockOffset));
        }
        out << "\n";
    }
    out << "makespan       " << duration(summary.makespan) << "\n";
    out << "area bound     " << detail::areaBoundText(summary, machine, tps) << "\n";
    if (!summary.rankAreaBounds.empty()) {
        out << "  per rank    ";
        for (const auto& r : summary.rankAreaBounds) {
            out << (&r == &summary.rankAreaBounds.front() ? " " : ", ") << "rank " << r.rank << " " << duration(r.bound)
                << " (" << r.workers << (r.workers == 1 ? " worker)" : " workers)");
        }
        out << "\n";
    }
    out << "critical path  " << detail::figureText(summary.criticalPath, duration) << "\n";
    out << "idleness       " << detail::percent(summary.idleness) << "\n";
    out << "barriers       " << summary.barrierCount << " (total " << duration(summary.barrierTotal) << ", mean "
        << duration(summary.barrierMean) << ", max " << duration(summary.barrierMax) << ", threshold "
        << formatDuration(options.threshold) << ")\n";
    if (summary.barrierTraceFlush > 0) {
        out << "               of which " << duration(summary.barrierTraceFlush)
            << " while FxT wrote its full buffer (trace flush: tracing's cost; STARPU_TRACE_BUFFER_SIZE)\n";
    }
    if (summary.traceFlushes > 0) {
        const auto& o = summary.withoutTracing;
        out << "trace flushes  " << summary.traceFlushes << " (total "
            << duration(summary.traceFlushTotal) << ", longest " << duration(summary.traceFlushMax)
            << "): threads writing FxT's full buffer to the trace file "
               "(STARPU_TRACE_BUFFER_SIZE)\n";
        out << "without them   makespan " << duration(o.makespan) << ", idleness "
            << detail::percent(o.idleness) << ", barriers " << o.barrierCount << " (total "
            << duration(o.barrierTotal) << ", max " << duration(o.barrierMax) << ", "
            << detail::percent(o.barrierShare) << " of the makespan instead of "
            << detail::percent(summary.barrierShare) << ")\n";
    }
    out << "transitions    "
        << detail::figureText(summary.meanTransitionStall,
                              [&](TimeNs stall) {
                                  return std::to_string(summary.transitions.size()) + ", mean stall "
                                         + duration(stall);
                              })
        << "\n";
    const auto& e = summary.efficiencies;
    char eff[160];
    std::snprintf(eff, sizeof eff, "parallel %.3f  task %.3f  runtime %.3f  scheduling %.3f  pipeline %.3f",
                  e.parallel, e.task, e.runtime, e.scheduling, e.pipeline);
    out << "efficiency     " << eff << "\n\n";
    if (machine.heterogeneous()) {
        detail::printMachine(*trace, machine, out);
    }
    out << "range " << duration(from) << " .. " << duration(to) << "\n";
    // The columns appear only when profiling was stopped, or the trace written, somewhere: most
    // traces never are.
    bool masked = false;
    bool tracing = false;
    for (const auto& l : range.lanes) {
        masked = masked || l.classes.notProfiled > 0;
        tracing = tracing || l.classes.tracing > 0;
    }
    out << std::left << std::setw(16) << "lane" << std::right << std::setw(14) << "executing" << std::setw(14)
        << "sleeping" << std::setw(14) << "overhead" << std::setw(14) << "user" << std::setw(14) << "idle";
    if (masked) {
        out << std::setw(14) << "not profiled";
    }
    if (tracing) {
        out << std::setw(14) << "trace flush";
    }
    out << std::setw(8) << "tasks" << "\n";
    const auto row = [&](const std::string& name, const ClassTimes& c, std::uint64_t tasks) {
        out << std::left << std::setw(16) << name << std::right << std::setw(14) << duration(c.executing)
            << std::setw(14) << duration(c.sleeping) << std::setw(14) << duration(c.overhead)
            << std::setw(14) << duration(c.user) << std::setw(14) << duration(c.idle);
        if (masked) {
            out << std::setw(14) << duration(c.notProfiled);
        }
        if (tracing) {
            out << std::setw(14) << duration(c.tracing);
        }
        out << std::setw(8) << tasks << "\n";
    };
    std::uint64_t workerTasks = 0;
    for (const auto& l : range.lanes) {
        row(trace->lanes[static_cast<std::size_t>(l.lane)].name, l.classes, l.tasks);
        workerTasks += trace->lanes[static_cast<std::size_t>(l.lane)].isWorker() ? l.tasks : 0;
    }
    row("all workers", range.workers, workerTasks);
    if (whole && summary.traceFlushes > 0) {
        row("outside flushes", summary.withoutTracing.workerTotals, workerTasks);
    }
    printCodelets(codelets, duration, out);
    return 0;
}

// A command that reads one big trace and exits: glibc's heap grows 64 MB at a time and keeps
// that much when blocks are freed, instead of being trimmed back to the system and grown again
// page by page as the reader's tables come and go (stats on a 390 MB trace, one reading thread:
// 292.3 -> 283.6 ms of CPU, medians of 7 alternating runs). The whole process is concerned, so
// only the command sets it.
void padHeapGrowth() {
#ifdef __GLIBC__
    mallopt(M_TOP_PAD, 64 << 20);
#endif
}

int runStats(const StatsArgs& args, const Io& io) {
    padHeapGrowth();
    auto trace = detail::load("stats", args.inputs, io);
    if (!trace) {
        return 1;
    }
    const int code = printStats(args, trace, io);
    detail::keepUntilExit(std::move(trace));
    return code;
}

struct BarriersArgs {
    std::vector<std::string> inputs;
    bool json = false;
    bool csv = false;
    double thresholdUs = detail::defaultThresholdUs();
};

int runBarriers(const BarriersArgs& args, const Io& io) {
    const auto trace = detail::load("barriers", args.inputs, io);
    if (!trace) {
        return 1;
    }
    BarrierOptions options;
    options.threshold = toNs(args.thresholdUs, 1e3);
    const auto transitions = findTransitions(*trace);
    const auto barriers = findJobAndRankBarriers(*trace, transitions, options);
    const auto why = transitionsUnavailable(*trace, transitions);
    const auto transitionCount =
        why ? Figure<std::size_t>::unavailable(*why) : Figure<std::size_t>::known(transitions.size());
    auto& out = *io.out;
    const auto tps = ticksPerSecond(*trace);
    if (args.csv) {
        writeBarriersCsv(barriers, out, tps);
        return 0;
    }
    if (args.json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& b : barriers) {
            nlohmann::json item = {{"start_ns", b.start}, {"end_ns", b.end}, {"duration_ns", b.duration()},
                                   {"transition", b.transition}, {"transition_label", b.transitionLabel},
                                   {"main_thread_state", b.mainThreadState}, {"rank", b.rank},
                                   {"cause", causeName(b.cause)}};
            if (b.cause == BarrierCause::DataFromRank) {
                const auto& m = trace->messages[static_cast<std::size_t>(b.message)];
                item["from_rank"] = b.fromRank;
                item["message"] = {{"index", b.message}, {"tag", m.tag}, {"size", m.size},
                                   {"start_ns", m.start}, {"end_ns", m.end}};
            }
            if (b.cause == BarrierCause::ArenaReset) {
                item["arena"] = b.arena;
            }
            if (b.cause == BarrierCause::DataTransfer) {
                const auto& x = trace->transfers[static_cast<std::size_t>(b.transfer)];
                item["transfer"] = {{"index", b.transfer}, {"from_node", x.fromNode}, {"to_node", x.toNode},
                                    {"size", x.size}, {"kind", nameOf(x.kind)}, {"start_ns", x.start},
                                    {"end_ns", x.end}, {"job", x.job}};
            }
            list.push_back(std::move(item));
        }
        out << jsonText(nlohmann::json{{"input", detail::joined(args.inputs)},
                                       {"threshold_ns", options.threshold},
                                       {"ticks_per_second", tps},
                                       {"transitions", detail::figureJson(transitionCount)},
                                       {"barriers", list}},
                        2)
            << "\n";
        return 0;
    }
    if (!trace->ranks.empty()) {
        out << trace->ranks.size() << " ranks, " << trace->messages.size() << " messages between them\n";
    }
    out << barriers.size() << " barriers longer than " << formatDuration(options.threshold) << " ("
        << (transitionCount.value ? std::to_string(transitions.size()) + " batch transitions"
                                  : "batch transitions " + detail::figureText(transitionCount, [](std::size_t n) {
                                        return std::to_string(n);
                                    }))
        << ")\n";
    // Several ranks: the job's barriers, then each rank's, with a rank column.
    const bool ranks = !trace->ranks.empty();
    out << std::right << std::setw(14) << "start" << std::setw(14) << "duration" << "  " << std::left;
    if (ranks) {
        out << std::setw(6) << "rank";
    }
    out << std::setw(36) << "transition" << std::setw(24) << "main thread" << "cause\n";
    for (const auto& b : barriers) {
        out << std::right << std::setw(14) << formatDuration(b.start, tps) << std::setw(14) << formatDuration(b.duration(), tps)
            << "  " << std::left;
        if (ranks) {
            out << std::setw(6) << (b.rank < 0 ? std::string("job") : std::to_string(b.rank));
        }
        out << std::setw(36) << (b.transitionLabel.empty() ? "-" : b.transitionLabel) << std::setw(24)
            << b.mainThreadState << describeCause(*trace, b) << "\n";
    }
    return 0;
}

} // namespace

void addCommands(CLI::App& app) { addCommands(app, std::cout, std::cerr); }

void addCommands(CLI::App& app, std::ostream& out, std::ostream& err) {
    const Io io{&out, &err};
    {
        auto args = std::make_shared<StatsArgs>();
        auto* sub = app.add_subcommand("stats", "Time per state class per worker, barriers, efficiencies of a trace");
        sub->add_option("input", args->inputs, detail::kInputHelp)->required();
        sub->add_flag("--json", args->json, "Print JSON for scripts");
        sub->add_option("--threshold-us", args->thresholdUs, "Shortest barrier, in microseconds")
            ->check(detail::thresholdUsRange());
        sub->add_option("--from-ms", args->fromMs, "Per-lane table from this time (ms from trace start)")
            ->check(detail::timeMsRange());
        sub->add_option("--to-ms", args->toMs, "Per-lane table up to this time (ms)")->check(detail::timeMsRange());
        detail::onRun(sub, [args, io] { return runStats(*args, io); });
    }
    {
        auto args = std::make_shared<BarriersArgs>();
        auto* sub = app.add_subcommand("barriers", "List the barriers (no worker executing) and their batch transitions");
        sub->add_option("input", args->inputs, detail::kInputHelp)->required();
        auto* json = sub->add_flag("--json", args->json, "Print JSON for scripts");
        // One output format: with both, one of them used to win silently.
        sub->add_flag("--csv", args->csv, "Print CSV")->excludes(json);
        sub->add_option("--threshold-us", args->thresholdUs, "Shortest barrier, in microseconds")
            ->check(detail::thresholdUsRange());
        detail::onRun(sub, [args, io] { return runBarriers(*args, io); });
    }
    detail::addExportCommands(app, io);
    detail::addCompareCommand(app, io);
}

} // namespace starscope::tracer::cli
