#include "viewer/core/lane_layout.hpp"

#include "common/text.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

namespace starscope::viewer {

namespace {

using tracer::Lane;
using tracer::LaneKind;

int kindRank(LaneKind kind) {
    switch (kind) {
    case LaneKind::MainThread: return 0;
    case LaneKind::CpuWorker: return 1;
    case LaneKind::CudaWorker: return 2;
    case LaneKind::OtherWorker: return 3;
    case LaneKind::MemoryNode: return 4;
    case LaneKind::MpiThread: return 5;
    }
    return 3;
}

// Where a lane goes among its rank's: the main thread, then the workers and memory nodes, then
// the MPI communication thread.
int section(LaneKind kind) {
    switch (kind) {
    case LaneKind::MainThread: return 0;
    case LaneKind::MpiThread: return 2;
    default: return 1;
    }
}

std::string groupName(const Lane& lane) {
    const std::string node = ", node " + std::to_string(lane.memoryNode);
    switch (lane.kind) {
    case LaneKind::MainThread: return "main thread";
    case LaneKind::CpuWorker: return "CPU" + node;
    case LaneKind::CudaWorker: return "CUDA" + node;
    case LaneKind::OtherWorker: return "other" + node;
    case LaneKind::MpiThread: return "MPI communication thread";
    case LaneKind::MemoryNode: return "memory" + node;
    }
    return "other" + node;
}

// The first worker (lowest id) of each (rank, memory node): what its memory is named after and
// where it goes.
std::map<std::pair<std::int32_t, std::int32_t>, const Lane*> firstWorkerOfNodes(const tracer::Trace& trace) {
    std::map<std::pair<std::int32_t, std::int32_t>, const Lane*> out;
    for (const Lane& lane : trace.lanes) {
        if (lane.isWorker()) {
            auto& first = out[{lane.rank, lane.memoryNode}];
            if (first == nullptr || lane.workerId < first->workerId) {
                first = &lane;
            }
        }
    }
    return out;
}

} // namespace

std::string memoryNodeLabel(const tracer::Trace& trace, const Lane& lane) {
    // The reader's name is "<rank prefix>Memory node N": keep its prefix.
    const std::string suffix = "Memory node " + std::to_string(lane.memoryNode);
    const std::string prefix = lane.name.ends_with(suffix) ? lane.name.substr(0, lane.name.size() - suffix.size()) : "";
    const auto workers = firstWorkerOfNodes(trace);
    const auto it = workers.find({lane.rank, lane.memoryNode});
    if (it != workers.end() && it->second->kind == LaneKind::CudaWorker) {
        // "CUDA 0" (a device's other streams are "CUDA 0_1"...): its device's memory.
        std::string device = it->second->name;
        if (const auto stream = device.find('_', device.rfind(' ') == std::string::npos ? 0 : device.rfind(' '));
            stream != std::string::npos) {
            device.resize(stream);
        }
        return device + " memory";
    }
    if (lane.memoryNode == 0) {
        return prefix + "RAM";
    }
    if (it != workers.end() && it->second->kind == LaneKind::CpuWorker) {
        return prefix + "NUMA " + std::to_string(lane.memoryNode) + " RAM";
    }
    return lane.name.empty() ? prefix + suffix : lane.name;
}

std::vector<Row> layoutRows(const tracer::Trace& trace) {
    std::vector<std::int32_t> order(trace.lanes.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = static_cast<std::int32_t>(i);
    }
    // Workers grouped by kind (CPUs, then CUDA devices...), each memory node right after the
    // workers it serves, so a GPU's copies are drawn beside the worker that waits for them.
    const auto workers = firstWorkerOfNodes(trace);
    const auto nodeKind = [&workers](const Lane& lane) {
        const auto it = workers.find({lane.rank, lane.memoryNode});
        return it == workers.end() ? kindRank(LaneKind::MemoryNode) : kindRank(it->second->kind);
    };
    const auto key = [&](std::int32_t index) {
        const Lane& lane = trace.lanes[static_cast<std::size_t>(index)];
        const int s = section(lane.kind);
        return std::make_tuple(lane.rank, s, s == 1 ? nodeKind(lane) : 0, lane.memoryNode, kindRank(lane.kind),
                               lane.workerId, index);
    };
    std::sort(order.begin(), order.end(), [&key](std::int32_t a, std::int32_t b) { return key(a) < key(b); });
    std::vector<Row> rows;
    rows.reserve(order.size());
    for (const std::int32_t index : order) {
        const Lane& lane = trace.lanes[static_cast<std::size_t>(index)];
        Row row;
        row.lane = index;
        if (lane.kind == LaneKind::MemoryNode) {
            row.label = memoryNodeLabel(trace, lane);
        } else {
            row.label = lane.name.empty() ? "lane " + std::to_string(index) : lane.name;
        }
        // Two ranks' "CPU, node 0" are different groups: a separator runs between them.
        row.group = lane.rank >= 0 ? "rank " + std::to_string(lane.rank) + ": " + groupName(lane) : groupName(lane);
        row.rank = lane.rank;
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<std::int32_t> laneRanks(const std::vector<Row>& laneRows) {
    std::vector<std::int32_t> ranks;
    for (const Row& row : laneRows) {
        if (row.rank >= 0 && (ranks.empty() || ranks.back() != row.rank)) {
            ranks.push_back(row.rank);
        }
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
}

std::string rankHeaderLabel(std::int32_t rank, bool collapsed) {
    // U+25B8 (collapsed, points at the hidden rows' place) and U+25BE (expanded, points down).
    return std::string(collapsed ? "\u25B8 " : "\u25BE ") + "rank " + std::to_string(rank);
}

std::vector<Row> filterRows(const std::vector<Row>& laneRows, std::string_view filter) {
    std::vector<std::string> terms;
    for (std::size_t from = 0; from <= filter.size();) {
        const auto comma = std::min(filter.find(',', from), filter.size());
        if (const auto term = trimmed(filter.substr(from, comma - from)); !term.empty()) {
            terms.push_back(lowered(term));
        }
        from = comma + 1;
    }
    if (terms.empty()) {
        return laneRows;
    }
    std::vector<Row> kept;
    for (const Row& row : laneRows) {
        // A rank's lanes answer to "rank N" too, as their header is labelled.
        const std::string text = lowered(row.label + "\n" + row.group
                                         + (row.rank >= 0 ? "\nrank " + std::to_string(row.rank) : std::string()));
        if (std::any_of(terms.begin(), terms.end(), [&](const std::string& term) { return text.find(term) != std::string::npos; })) {
            kept.push_back(row);
        }
    }
    return kept;
}

std::vector<Row> chartRows(const std::vector<Row>& laneRows, const std::set<std::int32_t>& collapsedRanks) {
    if (laneRanks(laneRows).empty()) {
        return laneRows;
    }
    std::vector<Row> rows;
    rows.reserve(laneRows.size() + 8);
    std::int32_t current = -1;
    for (const Row& row : laneRows) {
        if (row.rank >= 0 && row.rank != current) {
            current = row.rank;
            Row header;
            header.kind = RowKind::RankHeader;
            header.rank = row.rank;
            header.label = rankHeaderLabel(row.rank, collapsedRanks.contains(row.rank));
            header.group = "rank " + std::to_string(row.rank);
            rows.push_back(std::move(header));
        }
        if (row.rank < 0 || !collapsedRanks.contains(row.rank)) {
            rows.push_back(row);
        }
    }
    return rows;
}

std::vector<std::int32_t> rowOfLanes(const std::vector<Row>& rows, const tracer::Trace& trace) {
    std::vector<std::int32_t> out(trace.lanes.size(), -1);
    std::vector<std::pair<std::int32_t, std::int32_t>> headers;   // (rank, its header row)
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const Row& row = rows[r];
        if (row.kind == RowKind::RankHeader) {
            headers.emplace_back(row.rank, static_cast<std::int32_t>(r));
        } else if (row.lane >= 0 && static_cast<std::size_t>(row.lane) < out.size()) {
            out[static_cast<std::size_t>(row.lane)] = static_cast<std::int32_t>(r);
        }
    }
    // A collapsed rank's lanes have no row of their own: its header shows them.
    for (std::size_t lane = 0; lane < out.size(); ++lane) {
        if (out[lane] >= 0) {
            continue;
        }
        for (const auto& [rank, row] : headers) {
            if (rank == trace.lanes[lane].rank) {
                out[lane] = row;
            }
        }
    }
    return out;
}

std::optional<std::pair<std::size_t, std::size_t>> rowsOfRank(const std::vector<Row>& rows, std::int32_t rank) {
    std::optional<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].rank == rank) {
            if (!out) {
                out.emplace(r, r);
            }
            out->second = r;
        }
    }
    return out;
}

} // namespace starscope::viewer
