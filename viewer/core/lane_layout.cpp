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
        return std::make_tuple(kindRank(lane.kind), lane.memoryNode, lane.workerId, index);
    };
    std::sort(order.begin(), order.end(), [&key](std::int32_t a, std::int32_t b) { return key(a) < key(b); });
    std::vector<Row> rows;
    rows.reserve(order.size());
    for (const std::int32_t index : order) {
        const Lane& lane = trace.lanes[static_cast<std::size_t>(index)];
        rows.push_back({index, lane.name.empty() ? "lane " + std::to_string(index) : lane.name, groupName(lane)});
    }
    return rows;
}

} // namespace starscope::viewer
