#include "viewer/core/layout/lane_layout.hpp"

#include "common/text.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

namespace starscope::viewer {

namespace {

using tracer::Lane;
using tracer::LaneKind;

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

LaneGroup laneGroupOf(const Lane& lane) {
    switch (lane.kind) {
    case LaneKind::MainThread: return LaneGroup::MainThread;
    case LaneKind::CpuWorker: return LaneGroup::CpuWorkers;
    case LaneKind::CudaWorker: return LaneGroup::CudaWorkers;
    case LaneKind::OtherWorker: return LaneGroup::OtherWorkers;
    case LaneKind::MemoryNode: return LaneGroup::MemoryNodes;
    case LaneKind::MpiThread: return LaneGroup::MpiThread;
    }
    return LaneGroup::OtherWorkers;
}

std::vector<Row> layoutRows(const tracer::Trace& trace) {
    std::vector<std::int32_t> order(trace.lanes.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = static_cast<std::int32_t>(i);
    }
    // Each kind of lanes together (CPUs, then CUDA devices..., then the memory nodes), so a kind
    // folds into one header row; the memory nodes side by side carry the transfers between them.
    const auto key = [&](std::int32_t index) {
        const Lane& lane = trace.lanes[static_cast<std::size_t>(index)];
        return std::make_tuple(lane.rank, laneGroupOf(lane), lane.memoryNode, lane.workerId, index);
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
        row.laneGroup = laneGroupOf(lane);
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

namespace {

bool isWorkerGroup(LaneGroup group) {
    return group == LaneGroup::CpuWorkers || group == LaneGroup::CudaWorkers || group == LaneGroup::OtherWorkers;
}

std::string kindName(LaneGroup group) {
    switch (group) {
    case LaneGroup::Rank: return "rank";
    case LaneGroup::MainThread: return "main thread";
    case LaneGroup::CpuWorkers: return "CPU workers";
    case LaneGroup::CudaWorkers: return "CUDA workers";
    case LaneGroup::OtherWorkers: return "other workers";
    case LaneGroup::MemoryNodes: return "memory nodes";
    case LaneGroup::MpiThread: return "MPI threads";
    }
    return "lanes";
}

// U+25B8 (folded, points at the hidden rows' place) and U+25BE (unfolded, points down).
std::string foldSign(bool folded) { return folded ? "\u25B8 " : "\u25BE "; }

} // namespace

std::string rankHeaderLabel(std::int32_t rank, bool collapsed) { return foldSign(collapsed) + "rank " + std::to_string(rank); }

std::string groupHeaderLabel(const Row& header, std::size_t lanes, bool folded) {
    if (header.kind == RowKind::RankHeader) {
        return rankHeaderLabel(header.rank, folded);
    }
    return foldSign(folded) + kindName(header.laneGroup) + " (" + std::to_string(lanes) + ")";
}

bool kindHeaderHelps(std::size_t lanes, std::size_t workerKinds) {
    return lanes >= 2 && (workerKinds >= 2 || lanes >= kManyLanes);
}

std::vector<std::int32_t> lanesUnder(const std::vector<Row>& laneRows, const Row& header) {
    std::vector<std::int32_t> lanes;
    for (const Row& row : laneRows) {
        if (row.kind != RowKind::Lane || row.rank != header.rank) {
            continue;
        }
        // A rank's header shows its workers, as the overview does the trace's.
        if (header.laneGroup == LaneGroup::Rank ? isWorkerGroup(row.laneGroup) : row.laneGroup == header.laneGroup) {
            lanes.push_back(row.lane);
        }
    }
    return lanes;
}

std::vector<Row> chartRows(const std::vector<Row>& laneRows, const std::set<GroupId>& folded) {
    const bool ranked = !laneRanks(laneRows).empty();
    std::map<GroupId, std::size_t> sizes;
    for (const Row& row : laneRows) {
        ++sizes[row.groupId()];
    }
    std::map<std::int32_t, std::size_t> workerKinds;
    for (const auto& [id, lanes] : sizes) {
        workerKinds[id.rank] += isWorkerGroup(id.kind) ? 1U : 0U;
    }
    std::vector<Row> rows;
    rows.reserve(laneRows.size() + 16);
    std::optional<std::int32_t> rank;
    std::optional<GroupId> group;
    bool groupFolded = false;
    for (const Row& row : laneRows) {
        if (ranked && row.rank >= 0 && row.rank != rank) {
            rank = row.rank;
            Row header;
            header.kind = RowKind::RankHeader;
            header.rank = row.rank;
            header.laneGroup = LaneGroup::Rank;
            header.label = rankHeaderLabel(row.rank, folded.contains(header.groupId()));
            header.group = "rank " + std::to_string(row.rank);
            rows.push_back(std::move(header));
        }
        if (ranked && row.rank >= 0 && folded.contains(GroupId{row.rank, LaneGroup::Rank})) {
            continue;
        }
        if (const GroupId id = row.groupId(); id != group) {
            group = id;
            groupFolded = false;
            const std::size_t lanes = sizes[id];
            if (kindHeaderHelps(lanes, workerKinds[id.rank])) {
                groupFolded = folded.contains(id);
                Row header;
                header.kind = RowKind::KindHeader;
                header.rank = id.rank;
                header.laneGroup = id.kind;
                header.label = groupHeaderLabel(header, lanes, groupFolded);
                // Its lanes' group: no separator between the header and the lanes it heads.
                header.group = row.group;
                rows.push_back(std::move(header));
            }
        }
        if (!groupFolded) {
            rows.push_back(row);
        }
    }
    return rows;
}

std::set<GroupId> foldedBy(const std::vector<Row>& laneRows, const FoldRequest& request) {
    std::set<GroupId> out;
    for (const Row& row : chartRows(laneRows, {})) {
        if (row.kind == RowKind::KindHeader ? request.kinds.contains(row.laneGroup)
                                            : row.kind == RowKind::RankHeader && request.ranks.contains(row.rank)) {
            out.insert(row.groupId());
        }
    }
    return out;
}

std::vector<std::int32_t> rowOfLanes(const std::vector<Row>& rows, const tracer::Trace& trace) {
    std::vector<std::int32_t> out(trace.lanes.size(), -1);
    std::map<GroupId, std::int32_t> headers;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const Row& row = rows[r];
        if (row.kind != RowKind::Lane) {
            headers[row.groupId()] = static_cast<std::int32_t>(r);
        } else if (row.lane >= 0 && static_cast<std::size_t>(row.lane) < out.size()) {
            out[static_cast<std::size_t>(row.lane)] = static_cast<std::int32_t>(r);
        }
    }
    // A folded group's lanes have no row of their own: its header shows them, or its rank's.
    for (std::size_t lane = 0; lane < out.size(); ++lane) {
        if (out[lane] >= 0) {
            continue;
        }
        const Lane& l = trace.lanes[lane];
        if (const auto kind = headers.find(GroupId{l.rank, laneGroupOf(l)}); kind != headers.end()) {
            out[lane] = kind->second;
        } else if (const auto rank = headers.find(GroupId{l.rank, LaneGroup::Rank}); rank != headers.end()) {
            out[lane] = rank->second;
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

std::string rowRangeLabel(const std::string& first, const std::string& last) {
    const auto numberStart = [](const std::string& label) {
        std::size_t at = label.size();
        while (at > 0 && label[at - 1] >= '0' && label[at - 1] <= '9') {
            --at;
        }
        return at;
    };
    const std::size_t a = numberStart(first);
    const std::size_t b = numberStart(last);
    if (a < first.size() && b < last.size() && first.compare(0, a, last, 0, b) == 0) {
        return first + "-" + last.substr(b);
    }
    return first + " - " + last;
}

} // namespace starscope::viewer
