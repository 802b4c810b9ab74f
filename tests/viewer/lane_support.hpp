#pragma once
// Lanes and rows as the lane layout tests write them: a lane from its name, kind, memory node,
// worker id and rank, and the labels of a list of rows.

#include "tracer/model/trace.hpp"
#include "viewer/core/layout/lane_layout.hpp"

#include <string>
#include <utility>
#include <vector>

namespace starscope::viewer::testing {

inline tracer::Lane makeLane(std::string name, tracer::LaneKind kind, int node, int worker, int rank = -1) {
    tracer::Lane lane;
    lane.name = std::move(name);
    lane.kind = kind;
    lane.memoryNode = node;
    lane.workerId = worker;
    lane.rank = rank;
    return lane;
}

inline std::vector<std::string> rowLabels(const std::vector<Row>& rows) {
    std::vector<std::string> out;
    out.reserve(rows.size());
    for (const Row& row : rows) {
        out.push_back(row.label);
    }
    return out;
}

} // namespace starscope::viewer::testing
