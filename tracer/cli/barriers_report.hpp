#pragma once
// What `starscope barriers` shows, found once (BarriersReport), and its printers for people and
// for scripts.

#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/figure.hpp"
#include "tracer/model/time_unit.hpp"
#include "tracer/model/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace starscope::tracer::cli::detail {

struct BarriersReport {
    // The trace the barriers are of: its ranks, messages and transfers name their causes.
    const Trace* trace = nullptr;
    std::string input;    // the inputs as given, joined
    TimeNs threshold = 0; // ns
    std::int64_t ticksPerSecond = kNsPerSecond;
    Figure<std::size_t> transitionCount; // the batch transitions; n/a without batch markers
    std::vector<Barrier> barriers;       // the job's, then each rank's (findJobAndRankBarriers)
};

BarriersReport makeBarriersReport(const Trace& trace, std::string input, TimeNs threshold);

void printBarriersText(const BarriersReport& report, std::ostream& out);
void printBarriersJson(const BarriersReport& report, std::ostream& out);

} // namespace starscope::tracer::cli::detail
