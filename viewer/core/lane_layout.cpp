#include "viewer/core/lane_layout.hpp"

#include <algorithm>
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
    case LaneKind::MpiThread: return 4;
    case LaneKind::MemoryNode: return 5;
    }
    return 3;
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

} // namespace

std::vector<Row> layoutRows(const tracer::Trace& trace) {
    std::vector<std::int32_t> order(trace.lanes.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = static_cast<std::int32_t>(i);
    }
    const auto key = [&trace](std::int32_t index) {
        const Lane& lane = trace.lanes[static_cast<std::size_t>(index)];
        return std::make_tuple(lane.rank, kindRank(lane.kind), lane.memoryNode, lane.workerId, index);
    };
    std::sort(order.begin(), order.end(), [&key](std::int32_t a, std::int32_t b) { return key(a) < key(b); });
    std::vector<Row> rows;
    rows.reserve(order.size());
    for (const std::int32_t index : order) {
        const Lane& lane = trace.lanes[static_cast<std::size_t>(index)];
        Row row;
        row.lane = index;
        row.label = lane.name.empty() ? "lane " + std::to_string(index) : lane.name;
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
