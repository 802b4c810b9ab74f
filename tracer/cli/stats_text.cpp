// `starscope stats`: the StatsReport as tables for people, durations in the trace's own unit (a
// Paje trace read finer than nanoseconds shows its sub-nanosecond states as such).

#include "tracer/cli/detail.hpp"
#include "tracer/cli/stats_report.hpp"

#include <cstdio>
#include <iomanip>
#include <string_view>

namespace starscope::tracer::cli::detail {

namespace {

// The codelet table: a row per codelet, and one per kind of worker under it when several kinds
// ran it; StarPU's own codelets after the program's, marked.
template <typename Duration>
void printCodelets(const std::vector<CodeletStats>& codelets, const Duration& duration,
                   std::ostream& out) {
    if (codelets.empty()) {
        return;
    }
    std::size_t width = std::string_view("codelet").size();
    for (const auto& c : codelets) {
        width =
            std::max(width, std::min<std::size_t>(c.codelet.size() + (c.internal ? 10 : 0), 48));
    }
    width += 2;
    out << "\n"
        << std::left << std::setw(static_cast<int>(width)) << "codelet" << std::setw(7) << "kind"
        << std::right << std::setw(8) << "tasks" << std::setw(14) << "total" << std::setw(14)
        << "mean" << std::setw(14) << "median" << std::setw(14) << "min" << std::setw(14) << "max"
        << "\n";
    const auto row = [&](const std::string& name, std::string_view kind, const DurationSummary& d) {
        out << std::left << std::setw(static_cast<int>(width)) << name << std::setw(7) << kind
            << std::right << std::setw(8) << d.count << std::setw(14) << duration(d.total)
            << std::setw(14) << duration(d.mean) << std::setw(14) << duration(d.median)
            << std::setw(14) << duration(d.min) << std::setw(14) << duration(d.max) << "\n";
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

} // namespace

void printStatsText(const StatsReport& report, std::ostream& out) {
    const Trace& trace = *report.trace;
    const auto& summary = report.summary;
    const auto& range = report.range;
    const auto& machine = report.machine;
    const auto tps = report.ticksPerSecond;
    const auto duration = [tps](TimeNs ticks) { return formatDuration(ticks, tps); };
    out << "trace          " << report.input << " (" << report.format.value_or("?") << ")\n";
    out << "lanes          " << trace.lanes.size() << " (" << summary.workers << " workers), tasks "
        << summary.tasks << ", markers " << report.markers << "\n";
    if (!trace.ranks.empty()) {
        // Where each rank's clock sits on the job's: what was subtracted from its FxT times.
        out << "ranks          " << trace.ranks.size() << ", messages " << trace.messages.size()
            << ", clock offsets";
        for (const auto& r : trace.ranks) {
            out << " " << r.rank << ":"
                << (r.syncPoints == 0
                        ? "unaligned"
                        : formatDuration(r.clockOffset - trace.ranks.front().clockOffset));
        }
        out << "\n";
    }
    out << "makespan       " << duration(summary.makespan) << "\n";
    out << "area bound     " << areaBoundText(summary, machine, report.ticksPerSecond) << "\n";
    if (!summary.rankAreaBounds.empty()) {
        out << "  per rank    ";
        for (const auto& r : summary.rankAreaBounds) {
            out << (&r == &summary.rankAreaBounds.front() ? " " : ", ") << "rank " << r.rank << " "
                << duration(r.bound) << " (" << r.workers
                << (r.workers == 1 ? " worker)" : " workers)");
        }
        out << "\n";
    }
    out << "critical path  " << figureText(summary.criticalPath, duration) << "\n";
    out << "idleness       " << percent(summary.idleness) << "\n";
    out << "barriers       " << summary.barrierCount << " (total " << duration(summary.barrierTotal)
        << ", mean " << duration(summary.barrierMean) << ", max " << duration(summary.barrierMax)
        << ", threshold " << formatDuration(report.threshold) << ")\n";
    if (summary.barrierTraceFlush > 0) {
        out << "               of which " << duration(summary.barrierTraceFlush)
            << " while FxT wrote its full buffer (trace flush: tracing's cost; "
               "STARPU_TRACE_BUFFER_SIZE)\n";
    }
    if (summary.traceFlushes > 0) {
        const auto& o = summary.withoutTracing;
        out << "trace flushes  " << summary.traceFlushes << " (total "
            << duration(summary.traceFlushTotal) << ", longest " << duration(summary.traceFlushMax)
            << "): threads writing FxT's full buffer to the trace file "
               "(STARPU_TRACE_BUFFER_SIZE)\n";
        out << "without them   makespan " << duration(o.makespan) << ", idleness "
            << percent(o.idleness) << ", barriers " << o.barrierCount << " (total "
            << duration(o.barrierTotal) << ", max " << duration(o.barrierMax) << ", "
            << percent(o.barrierShare) << " of the makespan instead of "
            << percent(summary.barrierShare) << ")\n";
    }
    out << "transitions    " << figureText(summary.meanTransitionStall, [&](TimeNs stall) {
        return std::to_string(summary.transitions.size()) + ", mean stall " + duration(stall);
    }) << "\n";
    const auto& e = summary.efficiencies;
    char eff[160];
    std::snprintf(eff, sizeof eff,
                  "parallel %.3f  task %.3f  runtime %.3f  scheduling %.3f  pipeline %.3f",
                  e.parallel, e.task, e.runtime, e.scheduling, e.pipeline);
    out << "efficiency     " << eff << "\n\n";
    if (machine.heterogeneous()) {
        printMachine(trace, machine, out);
    }
    out << "range " << duration(report.from) << " .. " << duration(report.to) << "\n";
    // The columns appear only when profiling was stopped, or the trace written, somewhere: most
    // traces never are.
    bool masked = false;
    bool tracing = false;
    for (const auto& l : range.lanes) {
        masked = masked || l.classes.notProfiled > 0;
        tracing = tracing || l.classes.tracing > 0;
    }
    out << std::left << std::setw(16) << "lane" << std::right << std::setw(14) << "executing"
        << std::setw(14) << "sleeping" << std::setw(14) << "overhead" << std::setw(14) << "user"
        << std::setw(14) << "idle";
    if (masked) {
        out << std::setw(14) << "not profiled";
    }
    if (tracing) {
        out << std::setw(14) << "trace flush";
    }
    out << std::setw(8) << "tasks"
        << "\n";
    const auto row = [&](const std::string& name, const ClassTimes& c, std::uint64_t tasks) {
        out << std::left << std::setw(16) << name << std::right << std::setw(14)
            << duration(c.executing) << std::setw(14) << duration(c.sleeping) << std::setw(14)
            << duration(c.overhead) << std::setw(14) << duration(c.user) << std::setw(14)
            << duration(c.idle);
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
        row(trace.lanes[static_cast<std::size_t>(l.lane)].name, l.classes, l.tasks);
        workerTasks += trace.lanes[static_cast<std::size_t>(l.lane)].isWorker() ? l.tasks : 0;
    }
    row("all workers", range.workers, workerTasks);
    if (report.whole && summary.traceFlushes > 0) {
        row("outside flushes", summary.withoutTracing.workerTotals, workerTasks);
    }
    printCodelets(report.codelets, duration, out);
}

} // namespace starscope::tracer::cli::detail
