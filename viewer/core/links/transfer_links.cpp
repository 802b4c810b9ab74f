#include "viewer/core/links/transfer_links.hpp"

#include "tracer/analysis/machine.hpp"
#include "tracer/model/names.hpp"
#include "viewer/core/format/time_format.hpp"

#include <algorithm>
#include <map>

namespace starscope::viewer {

namespace {

const tracer::Lane* memoryNodeLane(const tracer::Trace& trace, std::int32_t rank, std::int32_t node,
                                   std::int32_t* index = nullptr) {
    for (std::size_t i = 0; i < trace.lanes.size(); ++i) {
        const auto& lane = trace.lanes[i];
        if (lane.kind == tracer::LaneKind::MemoryNode && lane.rank == rank && lane.memoryNode == node) {
            if (index != nullptr) {
                *index = static_cast<std::int32_t>(i);
            }
            return &lane;
        }
    }
    return nullptr;
}

bool inView(const tracer::Transfer& x, const TimeView& view) {
    return static_cast<double>(x.end) >= view.startNs && static_cast<double>(x.start) <= view.endNs;
}

} // namespace

std::int32_t memoryNodeRow(const tracer::Trace& trace, const std::vector<std::int32_t>& laneRows, std::int32_t rank,
                           std::int32_t node) {
    std::int32_t lane = -1;
    if (memoryNodeLane(trace, rank, node, &lane) == nullptr || static_cast<std::size_t>(lane) >= laneRows.size()) {
        return -1;
    }
    return laneRows[static_cast<std::size_t>(lane)];
}

std::vector<TransferArrow> visibleTransfers(const tracer::Trace& trace, const std::vector<std::int32_t>& laneRows,
                                            const TimeView& view, const LinkBundling& options) {
    // The rows of the nodes, looked up once per (rank, node) rather than per transfer.
    std::map<std::pair<std::int32_t, std::int32_t>, std::int32_t> rowOfNode;
    const auto rowOf = [&](std::int32_t rank, std::int32_t node) {
        const auto [it, added] = rowOfNode.try_emplace({rank, node}, -1);
        if (added) {
            it->second = memoryNodeRow(trace, laneRows, rank, node);
        }
        return it->second;
    };
    // A bundle's colour says its transfers' kind: kinds are never bundled together.
    LinkBundler arrows(view, options);
    for (std::size_t i = 0; i < trace.transfers.size(); ++i) {
        const auto& x = trace.transfers[i];
        if (static_cast<double>(x.start) > view.endNs) {
            break;   // sorted by start: none later is in view
        }
        if (!inView(x, view)) {
            continue;
        }
        const std::int32_t from = rowOf(x.rank, x.fromNode);
        const std::int32_t to = rowOf(x.rank, x.toNode);
        // Both nodes on one row (their group folded): an arrow along a row says nothing.
        if (from < 0 || to < 0 || from == to) {
            continue;
        }
        arrows.add({i, 1, x.size, x.start, x.end, static_cast<double>(from), static_cast<double>(to),
                    static_cast<std::uint32_t>(x.kind)});
    }
    return std::move(arrows).take();
}

std::string memoryNodeName(const tracer::Trace& trace, std::int32_t rank, std::int32_t node) {
    if (const auto* lane = memoryNodeLane(trace, rank, node)) {
        return memoryNodeLabel(trace, *lane);
    }
    return "node " + std::to_string(node);
}

double transferBandwidth(std::uint64_t bytes, double seconds) {
    return seconds > 0.0 ? static_cast<double>(bytes) / seconds : 0.0;
}

std::vector<std::string> describeTransferArrow(const tracer::Trace& trace, const TransferArrow& arrow,
                                               const TimeScale& scale) {
    std::vector<std::string> lines;
    if (arrow.first >= trace.transfers.size()) {
        return lines;
    }
    const auto& x = trace.transfers[arrow.first];
    const std::string link = memoryNodeName(trace, x.rank, x.fromNode) + " -> " + memoryNodeName(trace, x.rank, x.toNode);
    const auto at = [&scale](tracer::TimeNs t) { return formatDuration(scale.timeNs(static_cast<double>(t))); };
    if (arrow.count > 1) {
        return describeBundle(arrow, "transfers (" + std::string(tracer::nameOf(x.kind)) + ") " + link, scale);
    }
    lines.push_back(std::string(tracer::nameOf(x.kind)) + " " + link);
    const double ns = scale.durationNs(static_cast<double>(x.duration()));
    std::string amount = tracer::formatBytes(static_cast<double>(x.size)) + " in " + formatDuration(ns);
    if (ns > 0.0) {
        amount += ": " + tracer::formatBytes(transferBandwidth(x.size, ns * 1e-9)) + "/s";
    }
    lines.push_back(amount + ", from " + at(x.start));
    if (x.job != 0) {
        std::string task = "for " + tracer::jobName(trace, x.job);
        const auto it = std::lower_bound(trace.tasks.begin(), trace.tasks.end(), x.job,
                                         [](const tracer::Task& t, std::uint64_t job) { return t.jobId < job; });
        if (it != trace.tasks.end() && it->jobId == x.job && !trace.codeletOf(*it).empty()) {
            task += " (" + std::string(trace.codeletOf(*it)) + ")";
        }
        lines.push_back(task);
    } else {
        lines.push_back("no task known to need it");
    }
    return lines;
}

} // namespace starscope::viewer
