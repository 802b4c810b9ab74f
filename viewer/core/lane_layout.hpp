#pragma once
// Which lane goes on which Gantt row: the main thread on top, then the workers grouped by
// type and memory node, each group ordered by worker id.

#include "tracer/model/trace.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace starscope::viewer {

struct Row {
    std::int32_t lane = -1;   // index into Trace::lanes
    std::string label;        // "CPU 0", "main"
    std::string group;        // "main thread", "CPU, node 0", "CUDA, node 1"

    bool operator==(const Row&) const = default;
};

std::vector<Row> layoutRows(const tracer::Trace& trace);

} // namespace starscope::viewer
