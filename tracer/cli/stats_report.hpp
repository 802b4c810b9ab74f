#pragma once
// What `starscope stats` shows, computed once (StatsReport), and its two printers: the table for
// people and the JSON for scripts. The report holds the figures; the printers only format them.

#include "tracer/analysis/codelet_stats.hpp"
#include "tracer/analysis/machine.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/model/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace starscope::tracer::cli::detail {

struct StatsReport {
    // The trace the figures are of: its lanes, states, ranks and warnings name them.
    const Trace* trace = nullptr;
    std::string input;                 // the inputs as given, joined
    std::optional<std::string> format; // the reader's "format" metadata
    TimeNs threshold = 0;              // the barriers' threshold, ns
    std::int64_t ticksPerSecond = kNsPerSecond;
    TimeNs from = 0; // the per-lane table's range, in the trace's ticks
    TimeNs to = 0;
    bool whole = false;      // the range is the whole trace
    std::size_t markers = 0; // parsed starscope markers
    RangeStats range;
    std::vector<CodeletStats> codelets; // on the range
    TraceSummary summary;               // on the whole trace
    MachineFigures machine;             // empty for a CPU-only trace
};

// The figures of `stats` for the table's range [from, to) (from <= to, in the trace's ticks).
StatsReport makeStatsReport(const Trace& trace, std::string input, TimeNs threshold, TimeNs from,
                            TimeNs to);

void printStatsText(const StatsReport& report, std::ostream& out);
void printStatsJson(const StatsReport& report, std::ostream& out);

} // namespace starscope::tracer::cli::detail
