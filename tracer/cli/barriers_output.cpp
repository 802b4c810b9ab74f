// `starscope barriers`: the job's barriers and each rank's with their transitions, found once
// (BarriersReport), and its printers: a table for people and JSON for scripts (CSV is the
// exporters' writeBarriersCsv).

#include "common/json_text.hpp"
#include "tracer/cli/barriers_report.hpp"
#include "tracer/cli/detail.hpp"

#include <iomanip>
#include <utility>

namespace starscope::tracer::cli::detail {

BarriersReport makeBarriersReport(const Trace& trace, std::string input, TimeNs threshold) {
    BarriersReport report;
    report.trace = &trace;
    report.input = std::move(input);
    report.threshold = threshold;
    report.ticksPerSecond = ticksPerSecond(trace);
    BarrierOptions options;
    options.threshold = threshold;
    const auto transitions = findTransitions(trace);
    report.barriers = findJobAndRankBarriers(trace, transitions, options);
    const auto why = transitionsUnavailable(trace, transitions);
    report.transitionCount = why ? Figure<std::size_t>::unavailable(*why)
                                 : Figure<std::size_t>::known(transitions.size());
    return report;
}

void printBarriersJson(const BarriersReport& report, std::ostream& out) {
    const Trace& trace = *report.trace;
    nlohmann::json list = nlohmann::json::array();
    for (const auto& b : report.barriers) {
        nlohmann::json item = {{"start_ns", b.start},
                               {"end_ns", b.end},
                               {"duration_ns", b.duration()},
                               {"transition", b.transition},
                               {"transition_label", b.transitionLabel},
                               {"main_thread_state", b.mainThreadState},
                               {"rank", b.rank},
                               {"cause", causeName(b.cause)}};
        if (b.cause == BarrierCause::DataFromRank) {
            const auto& m = trace.messages[static_cast<std::size_t>(b.message)];
            item["from_rank"] = b.fromRank;
            item["message"] = {{"index", b.message},
                               {"tag", m.tag},
                               {"size", m.size},
                               {"start_ns", m.start},
                               {"end_ns", m.end}};
        }
        if (b.cause == BarrierCause::ArenaReset) {
            item["arena"] = b.arena;
        }
        if (b.cause == BarrierCause::DataTransfer) {
            const auto& x = trace.transfers[static_cast<std::size_t>(b.transfer)];
            item["transfer"] = {{"index", b.transfer},    {"from_node", x.fromNode},
                                {"to_node", x.toNode},    {"size", x.size},
                                {"kind", nameOf(x.kind)}, {"start_ns", x.start},
                                {"end_ns", x.end},        {"job", x.job}};
        }
        list.push_back(std::move(item));
    }
    out << jsonText(nlohmann::json{{"input", report.input},
                                   {"threshold_ns", report.threshold},
                                   {"ticks_per_second", report.ticksPerSecond},
                                   {"transitions", figureJson(report.transitionCount)},
                                   {"barriers", list}},
                    2)
        << "\n";
}

void printBarriersText(const BarriersReport& report, std::ostream& out) {
    const Trace& trace = *report.trace;
    const auto tps = report.ticksPerSecond;
    if (!trace.ranks.empty()) {
        out << trace.ranks.size() << " ranks, " << trace.messages.size()
            << " messages between them\n";
    }
    const auto& transitions = report.transitionCount;
    out << report.barriers.size() << " barriers longer than " << formatDuration(report.threshold)
        << " ("
        << (transitions.value
                ? std::to_string(*transitions.value) + " batch transitions"
                : "batch transitions "
                      + figureText(transitions, [](std::size_t n) { return std::to_string(n); }))
        << ")\n";
    // Several ranks: the job's barriers, then each rank's, with a rank column.
    const bool ranks = !trace.ranks.empty();
    out << std::right << std::setw(14) << "start" << std::setw(14) << "duration"
        << "  " << std::left;
    if (ranks) {
        out << std::setw(6) << "rank";
    }
    out << std::setw(36) << "transition" << std::setw(24) << "main thread"
        << "cause\n";
    for (const auto& b : report.barriers) {
        out << std::right << std::setw(14) << formatDuration(b.start, tps) << std::setw(14)
            << formatDuration(b.duration(), tps) << "  " << std::left;
        if (ranks) {
            out << std::setw(6) << (b.rank < 0 ? std::string("job") : std::to_string(b.rank));
        }
        out << std::setw(36) << (b.transitionLabel.empty() ? "-" : b.transitionLabel)
            << std::setw(24) << b.mainThreadState << describeCause(trace, b) << "\n";
    }
}

} // namespace starscope::tracer::cli::detail
