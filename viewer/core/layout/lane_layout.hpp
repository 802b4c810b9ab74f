#pragma once
// Which lane goes on which Gantt row: the main thread on top, then the workers grouped by kind
// (CPUs, CUDA devices, others), each by memory node and worker id, then the memory nodes (named
// as users name them: "RAM", "CUDA 0 memory"), then the MPI communication thread.
// A trace of several StarPU-MPI ranks groups its lanes by rank first; on the chart each rank
// gets a header row (the mix of its workers' states) and can be folded to that row alone, and so
// can a kind of lanes within a trace or a rank (kindHeaderHelps says where such a header helps).

#include "tracer/model/trace.hpp"

#include <compare>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::viewer {

enum class RowKind : std::uint8_t {
    Lane,        // one lane's spans
    RankHeader,  // a rank's header: the mix of its workers' states, click to fold
    KindHeader,  // a kind of lanes' header (CPU workers, memory nodes...): their mix, click to fold
};

// The groups lanes fold into: a whole rank, or one kind of lanes within a rank (or within a
// one-process trace), in their default order on the chart.
enum class LaneGroup : std::uint8_t { Rank, MainThread, CpuWorkers, CudaWorkers, OtherWorkers, MemoryNodes, MpiThread };

// A foldable (and movable) group: {rank, LaneGroup::Rank} is a whole rank, {rank, kind} that
// rank's lanes of a kind (rank -1 in a one-process trace).
struct GroupId {
    std::int32_t rank = -1;
    LaneGroup kind = LaneGroup::Rank;

    auto operator<=>(const GroupId&) const = default;
};

struct Row {
    std::int32_t lane = -1;   // index into Trace::lanes; -1 for a header
    std::string label;        // "CPU 0", "main", "rank 1"
    std::string group;        // "main thread", "CPU, node 0", "rank 1: CUDA, node 1"
    RowKind kind = RowKind::Lane;
    std::int32_t rank = -1;   // the lane's StarPU-MPI rank; -1 in a one-process trace
    // The lane's kind group; for a header, the group it heads (Rank for a rank's header).
    LaneGroup laneGroup = LaneGroup::Rank;

    // The group this row belongs to (a lane) or heads (a header).
    GroupId groupId() const { return {rank, laneGroup}; }
    bool operator==(const Row&) const = default;
};

// The kind group a lane belongs to.
LaneGroup laneGroupOf(const tracer::Lane& lane);

// A memory node lane's row label: "RAM" for node 0, "CUDA 0 memory" for the node of the CUDA
// worker "CUDA 0", "NUMA 1 RAM" for another node of CPU workers, the lane's name otherwise;
// a rank's lane keeps the reader's rank prefix.
std::string memoryNodeLabel(const tracer::Trace& trace, const tracer::Lane& lane);

// The label of the lanes first .. last together, where a chart has room for one label for
// them: "CPU 0-5" when both end in a number after the same name, "RAM - NUMA 1 RAM" otherwise.
std::string rowRangeLabel(const std::string& first, const std::string& last);

// One row per lane, in display order (by rank first when the lanes carry ranks).
std::vector<Row> layoutRows(const tracer::Trace& trace);

// The lane rows a lane filter keeps: those whose label or group contains one of the filter's
// comma-separated terms, ignoring case ("cuda, ram" keeps the CUDA workers and RAM, "rank 1"
// one rank's lanes); an empty filter keeps every row.
std::vector<Row> filterRows(const std::vector<Row>& laneRows, std::string_view filter);

// The ranks the lanes belong to, ascending; empty for a one-process trace.
std::vector<std::int32_t> laneRanks(const std::vector<Row>& laneRows);

// Whether a kind group of `lanes` lanes gets a header row, in a rank (or trace) whose lanes
// come in `workerKinds` kinds of worker. A header costs a row: it pays when folding leaves
// something else in view (CPUs folded, the GPUs stay; two or more kinds of worker), or on a
// wide machine (kManyLanes lanes of one kind), never for one lane (its header would be it).
inline constexpr std::size_t kManyLanes = 12;
bool kindHeaderHelps(std::size_t lanes, std::size_t workerKinds);

// The chart's rows: laneRows (from layoutRows, each group's lanes together) with a header row
// before each rank's lanes and before each kind group where kindHeaderHelps; a folded group
// keeps its header only. Lanes without a rank (-1) in a multi-rank trace come first, without a
// rank header.
std::vector<Row> chartRows(const std::vector<Row>& laneRows, const std::set<GroupId>& folded);

// The header's label: "rank 1" or "CPU workers (4)", with a folded/unfolded sign.
std::string groupHeaderLabel(const Row& header, std::size_t lanes, bool folded);

// What to fold (--fold): kinds of lanes in every rank (their headers, where they have one) and
// whole ranks.
struct FoldRequest {
    std::set<LaneGroup> kinds;
    std::set<std::int32_t> ranks;

    bool operator==(const FoldRequest&) const = default;
};
// The groups of laneRows a request folds: each kind group it names that has a header, each rank.
std::set<GroupId> foldedBy(const std::vector<Row>& laneRows, const FoldRequest& request);

// The lanes a header row sums up, from the rows it heads in laneRows: a rank's workers, or
// every lane of a kind group.
std::vector<std::int32_t> lanesUnder(const std::vector<Row>& laneRows, const Row& header);

// For each lane of trace, the chart row that shows it: its own row, or the header of its folded
// kind group or rank; -1 when no row shows it.
std::vector<std::int32_t> rowOfLanes(const std::vector<Row>& rows, const tracer::Trace& trace);

// The rows [first, last] of a rank (its header and its lanes); nullopt when none shows it.
std::optional<std::pair<std::size_t, std::size_t>> rowsOfRank(const std::vector<Row>& rows, std::int32_t rank);

// The rank header's label: "rank 1" with a folded/unfolded sign.
std::string rankHeaderLabel(std::int32_t rank, bool collapsed);

} // namespace starscope::viewer
