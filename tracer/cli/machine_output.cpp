// What `stats` shows of a machine with GPUs (tracer/analysis/machine.hpp): per kind of worker,
// per link between memory nodes, and both area bounds. A CPU-only trace shows none of it.

#include "tracer/analysis/codelet_stats.hpp"
#include "tracer/cli/detail.hpp"

#include <cstdio>
#include <iomanip>

namespace starscope::tracer::cli::detail {

namespace {

std::string kindName(LaneKind kind) { return std::string(workerKindName(workerKindOf(kind))); }

std::string nodePair(const LinkFigures& link) {
    const std::string rank = link.rank >= 0 ? std::to_string(link.rank) + "_" : std::string();
    return rank + std::to_string(link.fromNode) + " -> " + rank + std::to_string(link.toNode);
}

} // namespace

nlohmann::json machineJson(const Trace& trace, const MachineFigures& m) {
    nlohmann::json kinds = nlohmann::json::array();
    for (const auto& k : m.kinds) {
        kinds.push_back({{"kind", kindName(k.kind)},
                         {"workers", k.workers},
                         {"tasks", k.tasks},
                         {"executing_ns", k.times.executing},
                         {"sleeping_ns", k.times.sleeping},
                         {"overhead_ns", k.times.overhead},
                         {"not_profiled_ns", k.times.notProfiled},
                         {"idle_ns", k.times.idle},
                         {"waiting_for_data_ns", k.waitingForData},
                         {"idleness", k.idleness ? nlohmann::json(*k.idleness) : nlohmann::json(nullptr)}});
    }
    nlohmann::json links = nlohmann::json::array();
    for (const auto& l : m.links) {
        links.push_back({{"rank", l.rank},
                         {"from_node", l.fromNode},
                         {"to_node", l.toNode},
                         {"count", l.count},
                         {"bytes", l.bytes},
                         {"busy_ns", l.busy},
                         {"bandwidth_bytes_per_s", l.bandwidth}});
    }
    nlohmann::json bound = unavailableJson(m.areaBound.reason);
    if (m.areaBound.value) {
        nlohmann::json shares = nlohmann::json::array();
        for (const auto& s : m.areaBound.value->shares) {
            const auto& key = trace.codeletKeys.at(s.key);
            shares.push_back({{"codelet", key.codelet == kNoName ? std::string() : trace.names.name(key.codelet)},
                              {"footprint", key.footprint},
                              {"kind", kindName(s.kind)},
                              {"tasks", s.tasks},
                              {"mean_duration_ns", s.meanDuration}});
        }
        bound = {{"value", m.areaBound.value->bound}, {"shares", shares}};
    }
    return {{"kinds", kinds},
            {"links", links},
            {"waiting_for_data_ns", m.waitingForData},
            {"heterogeneous_area_bound_ns", bound}};
}

void printMachine(const Trace& trace, const MachineFigures& m, std::ostream& out) {
    const auto tps = ticksPerSecond(trace);
    const auto duration = [tps](TimeNs ticks) { return formatDuration(ticks, tps); };
    out << "by kind        " << std::right << std::setw(8) << "workers" << std::setw(8) << "tasks" << std::setw(14)
        << "executing" << std::setw(14) << "sleeping" << std::setw(14) << "overhead" << std::setw(18)
        << "waiting for data" << std::setw(10) << "idleness" << "\n";
    for (const auto& k : m.kinds) {
        out << std::left << std::setw(15) << kindName(k.kind) << std::right << std::setw(8) << k.workers
            << std::setw(8) << k.tasks << std::setw(14) << duration(k.times.executing) << std::setw(14)
            << duration(k.times.sleeping) << std::setw(14) << duration(k.times.overhead) << std::setw(18)
            << duration(k.waitingForData) << std::setw(10) << (k.idleness ? percent(*k.idleness) : std::string("n/a")) << "\n";
    }
    if (!m.links.empty()) {
        out << "\ntransfers      " << std::right << std::setw(8) << "count" << std::setw(12) << "bytes"
            << std::setw(14) << "busy" << std::setw(14) << "bandwidth" << "\n";
        for (const auto& l : m.links) {
            out << std::left << std::setw(15) << nodePair(l) << std::right << std::setw(8) << l.count
                << std::setw(12) << formatBytes(static_cast<double>(l.bytes)) << std::setw(14) << duration(l.busy)
                << std::setw(14) << (formatBytes(l.bandwidth) + "/s") << "\n";
        }
    }
    out << "\n";
}

std::string areaBoundText(const TraceSummary& s, const MachineFigures& m, std::int64_t ticksPerSecond) {
    const auto duration = [ticksPerSecond](TimeNs ticks) { return formatDuration(ticks, ticksPerSecond); };
    if (!m.heterogeneous()) {
        return duration(s.areaBound);
    }
    return figureText(m.areaBound, [&](const HeterogeneousBound& b) { return duration(b.bound); })
           + " by kind of worker (linear program, as starpu_bound); " + duration(s.areaBound)
           + " if every worker were alike";
}

} // namespace starscope::tracer::cli::detail
