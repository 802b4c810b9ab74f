#include "tracer/cli/stats_report.hpp"

#include "tracer/analysis/barriers.hpp"
#include "tracer/model/time_unit.hpp"

#include <algorithm>
#include <utility>

namespace starscope::tracer::cli::detail {

StatsReport makeStatsReport(const Trace& trace, std::string input, TimeNs threshold, TimeNs from,
                            TimeNs to) {
    StatsReport r;
    r.trace = &trace;
    r.input = std::move(input);
    const auto format = trace.metadata.find("format");
    if (format != trace.metadata.end()) {
        r.format = format->second;
    }
    r.threshold = threshold;
    r.ticksPerSecond = ticksPerSecond(trace);
    r.from = from;
    r.to = to;
    for (const auto& m : trace.markers) {
        r.markers += m.parsed ? 1 : 0;
    }
    r.range = computeRangeStats(trace, from, to);
    r.codelets = computeCodeletStats(trace, from, to);
    // The table of the whole trace is the summary's too.
    r.whole = from == trace.begin && r.range.to == std::max(trace.begin, trace.end);
    const auto whole = r.whole ? RangeStats{} : computeStats(trace);
    const RangeStats& wholeStats = r.whole ? r.range : whole;
    BarrierOptions options;
    options.threshold = threshold;
    r.summary = summarize(trace, options, wholeStats, findTransitions(trace));
    // A CPU-only trace shows none of the machine's figures (its area bound is the summary's).
    if (heterogeneousMachine(trace)) {
        r.machine = machineFigures(trace, wholeStats);
    }
    return r;
}

} // namespace starscope::tracer::cli::detail
