#include "tracer/analysis/machine.hpp"

#include "tracer/analysis/idleness.hpp"
#include "tracer/model/starpu_tasks.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace starscope::tracer {

namespace {

std::vector<LinkFigures> linkFigures(const Trace& trace) {
    // Transfers come sorted by start: each link's busy time is the union of its intervals.
    std::map<std::tuple<std::int32_t, std::int32_t, std::int32_t>, LinkFigures> links;
    std::map<std::tuple<std::int32_t, std::int32_t, std::int32_t>, TimeNs> busyUntil;
    for (const auto& x : trace.transfers) {
        const auto key = std::make_tuple(x.rank, x.fromNode, x.toNode);
        auto& link = links[key];
        link.rank = x.rank;
        link.fromNode = x.fromNode;
        link.toNode = x.toNode;
        ++link.count;
        link.bytes += x.size;
        auto [until, added] = busyUntil.emplace(key, x.start);
        const TimeNs from = std::max(x.start, until->second);
        link.busy += std::max<TimeNs>(0, x.end - from);
        until->second = std::max(until->second, x.end);
    }
    const double tps = static_cast<double>(ticksPerSecond(trace));
    std::vector<LinkFigures> out;
    for (auto& [key, link] : links) {
        link.bandwidth = link.busy > 0 ? static_cast<double>(link.bytes) * tps / static_cast<double>(link.busy) : 0.0;
        out.push_back(link);
    }
    return out;
}

} // namespace

MachineFigures machineFigures(const Trace& trace, const RangeStats& whole) {
    MachineFigures out;
    out.links = linkFigures(trace);
    // One kind of worker and no transfer: the summary says it all, and the passes below (the
    // tasks, the spans of the tasks' window, the tasks again for the bound) are not made (a
    // second of stats at 100 M spans).
    const bool heterogeneous = heterogeneousMachine(trace);
    const auto execution = heterogeneous ? executionWindow(trace) : ExecutionWindow{};
    const TimeNs first = execution.first;
    const TimeNs last = execution.last;
    const auto window = first >= 0 ? computeRangeStats(trace, first, last) : RangeStats{};
    std::uint32_t fetching = kMaxStates;
    for (std::size_t s = 0; s < trace.states.size(); ++s) {
        fetching = trace.states[s].name == kFetchingInputState ? static_cast<std::uint32_t>(s) : fetching;
    }
    std::map<LaneKind, WorkerKindFigures> kinds;
    std::map<LaneKind, TimeNs> unrecorded;
    std::map<LaneKind, TimeNs> executingInWindow;
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        const auto& lane = trace.lanes[l];
        if (!lane.isWorker()) {
            continue;
        }
        auto& k = kinds[lane.kind];
        k.kind = lane.kind;
        ++k.workers;
        k.tasks += whole.lanes[l].tasks;
        k.times += whole.lanes[l].classes;
        if (fetching < whole.lanes[l].perState.size()) {
            k.waitingForData += whole.lanes[l].perState[fetching];
        }
        if (first >= 0) {
            unrecorded[lane.kind] += window.lanes[l].classes.notProfiled;
            executingInWindow[lane.kind] += window.lanes[l].classes.executing;
        }
    }
    for (auto& [kind, k] : kinds) {
        k.idleness = idleness(executingInWindow[kind], execution.length(), k.workers, unrecorded[kind]);
        out.waitingForData += k.waitingForData;
        out.kinds.push_back(k);
    }
    if (heterogeneous) {
        out.areaBound = heterogeneousAreaBound(trace);
    }
    return out;
}

bool heterogeneousMachine(const Trace& trace) {
    // MachineFigures::kinds has a kind per kind of worker lane, links a link per transfer.
    const Lane* first = nullptr;
    for (const auto& lane : trace.lanes) {
        if (lane.isWorker()) {
            if (first != nullptr && lane.kind != first->kind) {
                return true;
            }
            first = first != nullptr ? first : &lane;
        }
    }
    return !trace.transfers.empty();
}

std::string formatBytes(double bytes) {
    char buffer[32];
    if (bytes >= 1e9) {
        std::snprintf(buffer, sizeof buffer, "%.2f GB", bytes / 1e9);
    } else if (bytes >= 1e6) {
        std::snprintf(buffer, sizeof buffer, "%.2f MB", bytes / 1e6);
    } else if (bytes >= 1e3) {
        std::snprintf(buffer, sizeof buffer, "%.2f kB", bytes / 1e3);
    } else {
        std::snprintf(buffer, sizeof buffer, "%.0f B", bytes);
    }
    return buffer;
}

} // namespace starscope::tracer
