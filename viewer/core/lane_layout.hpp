#pragma once
// Which lane goes on which Gantt row: the main thread on top, then the workers grouped by
// type and memory node, each group ordered by worker id and followed by its memory node's row
// (named as users name it: "RAM", "CUDA 0 memory"), then the MPI communication thread.
// A trace of several StarPU-MPI ranks groups its lanes by rank first; on the chart each rank
// gets a header row (the mix of its workers' states) and can be collapsed to that row alone.

#include "tracer/model/trace.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::viewer {

enum class RowKind : std::uint8_t {
    Lane,        // one lane's spans
    RankHeader,  // a rank's header: the mix of its workers' states, click to collapse
};

struct Row {
    std::int32_t lane = -1;   // index into Trace::lanes; -1 for a rank header
    std::string label;        // "CPU 0", "main", "rank 1"
    std::string group;        // "main thread", "CPU, node 0", "rank 1: CUDA, node 1"
    RowKind kind = RowKind::Lane;
    std::int32_t rank = -1;   // the lane's StarPU-MPI rank; -1 in a one-process trace

    bool operator==(const Row&) const = default;
};

// A memory node lane's row label: "RAM" for node 0, "CUDA 0 memory" for the node of the CUDA
// worker "CUDA 0", "NUMA 1 RAM" for another node of CPU workers, the lane's name otherwise;
// a rank's lane keeps the reader's rank prefix.
std::string memoryNodeLabel(const tracer::Trace& trace, const tracer::Lane& lane);

// One row per lane, in display order (by rank first when the lanes carry ranks).
std::vector<Row> layoutRows(const tracer::Trace& trace);

// The lane rows a lane filter keeps: those whose label or group contains one of the filter's
// comma-separated terms, ignoring case ("cuda, ram" keeps the CUDA workers and RAM, "rank 1"
// one rank's lanes); an empty filter keeps every row.
std::vector<Row> filterRows(const std::vector<Row>& laneRows, std::string_view filter);

// The ranks the lanes belong to, ascending; empty for a one-process trace.
std::vector<std::int32_t> laneRanks(const std::vector<Row>& laneRows);

// The chart's rows: laneRows (from layoutRows) with a header row before each rank's lanes;
// a collapsed rank keeps its header only. Lanes without a rank (-1) come first, headerless.
// Without ranks the rows are laneRows unchanged.
std::vector<Row> chartRows(const std::vector<Row>& laneRows, const std::set<std::int32_t>& collapsedRanks);

// For each lane of trace, the chart row that shows it: its own row, or its rank's header when
// the rank is collapsed; -1 when no row shows it.
std::vector<std::int32_t> rowOfLanes(const std::vector<Row>& rows, const tracer::Trace& trace);

// The rows [first, last] of a rank (its header and its lanes); nullopt when none shows it.
std::optional<std::pair<std::size_t, std::size_t>> rowsOfRank(const std::vector<Row>& rows, std::int32_t rank);

// The header label: "rank 1" with a collapsed/expanded sign.
std::string rankHeaderLabel(std::int32_t rank, bool collapsed);

} // namespace starscope::viewer
