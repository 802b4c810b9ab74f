#include "viewer/core/layout/lane_layout.hpp"

#include <gtest/gtest.h>

#include <utility>

using namespace starscope::viewer;
using starscope::tracer::Lane;
using starscope::tracer::LaneKind;

namespace {

Lane lane(std::string name, LaneKind kind, int node, int worker) {
    Lane l;
    l.name = std::move(name);
    l.kind = kind;
    l.memoryNode = node;
    l.workerId = worker;
    return l;
}

} // namespace

TEST(LaneLayout, MainThreadFirstThenWorkersByTypeNodeAndId) {
    starscope::tracer::Trace trace;
    trace.lanes = {lane("CUDA 0", LaneKind::CudaWorker, 1, 4), lane("CPU 2", LaneKind::CpuWorker, 0, 2),
                   lane("main", LaneKind::MainThread, 0, -1), lane("CPU 0", LaneKind::CpuWorker, 0, 0),
                   lane("CPU 1", LaneKind::CpuWorker, 0, 1), lane("", LaneKind::OtherWorker, 2, 5)};
    const auto rows = layoutRows(trace);
    ASSERT_EQ(rows.size(), 6u);
    const std::vector<std::int32_t> lanes{2, 3, 4, 1, 0, 5};
    for (std::size_t i = 0; i < rows.size(); ++i) {
        EXPECT_EQ(rows[i].lane, lanes[i]) << i;
    }
    EXPECT_EQ(rows[0].group, "main thread");
    EXPECT_EQ(rows[1].group, "CPU, node 0");
    EXPECT_EQ(rows[4].group, "CUDA, node 1");
    EXPECT_EQ(rows[4].label, "CUDA 0");
    EXPECT_EQ(rows[5].label, "lane 5");
}

TEST(LaneLayout, EmptyTraceHasNoRows) {
    EXPECT_TRUE(layoutRows({}).empty());
}

namespace {

Lane rankLane(std::string name, LaneKind kind, int rank, int worker) {
    Lane l = lane(std::move(name), kind, 0, worker);
    l.rank = rank;
    return l;
}

// Two ranks, their lanes interleaved as a reader might give them.
starscope::tracer::Trace twoRanks() {
    starscope::tracer::Trace trace;
    trace.lanes = {rankLane("MPI", LaneKind::MpiThread, 1, -1), rankLane("CPU 1", LaneKind::CpuWorker, 0, 1),
                   rankLane("main", LaneKind::MainThread, 1, -1), rankLane("CPU 0", LaneKind::CpuWorker, 1, 0),
                   rankLane("MPI", LaneKind::MpiThread, 0, -1),   rankLane("CPU 0", LaneKind::CpuWorker, 0, 0),
                   rankLane("main", LaneKind::MainThread, 0, -1)};
    return trace;
}

std::set<GroupId> foldedRanks(std::initializer_list<std::int32_t> ranks) {
    std::set<GroupId> out;
    for (const std::int32_t rank : ranks) {
        out.insert({rank, LaneGroup::Rank});
    }
    return out;
}

std::vector<std::int32_t> lanesOf(const std::vector<Row>& rows) {
    std::vector<std::int32_t> out;
    for (const Row& row : rows) {
        out.push_back(row.lane);
    }
    return out;
}

} // namespace

TEST(LaneLayout, RanksGroupTheirLanesMainThreadWorkersThenMpiThread) {
    const auto trace = twoRanks();
    const auto rows = layoutRows(trace);
    EXPECT_EQ(lanesOf(rows), (std::vector<std::int32_t>{6, 5, 1, 4, 2, 3, 0}));
    EXPECT_EQ(rows[0].group, "rank 0: main thread");
    EXPECT_EQ(rows[3].group, "rank 0: MPI communication thread");
    EXPECT_EQ(rows[4].rank, 1);
    EXPECT_EQ(laneRanks(rows), (std::vector<std::int32_t>{0, 1}));
}

TEST(LaneLayout, EachRankGetsAHeaderRowBeforeItsLanes) {
    const auto trace = twoRanks();
    const auto rows = chartRows(layoutRows(trace), {});
    ASSERT_EQ(rows.size(), 9u);
    EXPECT_EQ(lanesOf(rows), (std::vector<std::int32_t>{-1, 6, 5, 1, 4, -1, 2, 3, 0}));
    EXPECT_EQ(rows[0].kind, RowKind::RankHeader);
    EXPECT_EQ(rows[0].rank, 0);
    EXPECT_EQ(rows[0].label, rankHeaderLabel(0, false));
    EXPECT_EQ(rows[5].kind, RowKind::RankHeader);
    EXPECT_EQ(rows[5].rank, 1);
    EXPECT_EQ(rows[1].kind, RowKind::Lane);
    EXPECT_EQ(rowsOfRank(rows, 1), std::make_pair(std::size_t{5}, std::size_t{8}));
    EXPECT_EQ(rowsOfRank(rows, 2), std::nullopt);
    // Every lane has its own row.
    EXPECT_EQ(rowOfLanes(rows, trace), (std::vector<std::int32_t>{8, 3, 6, 7, 4, 2, 1}));
}

TEST(LaneLayout, ACollapsedRankKeepsOnlyItsHeaderWhichShowsItsLanes) {
    const auto trace = twoRanks();
    const auto rows = chartRows(layoutRows(trace), foldedRanks({0}));
    EXPECT_EQ(lanesOf(rows), (std::vector<std::int32_t>{-1, -1, 2, 3, 0}));
    EXPECT_EQ(rows[0].label, rankHeaderLabel(0, true));
    EXPECT_NE(rankHeaderLabel(0, true), rankHeaderLabel(0, false));
    EXPECT_EQ(rows[1].label, rankHeaderLabel(1, false));
    // Rank 0's lanes (1, 4, 5, 6) are drawn in its header, row 0.
    EXPECT_EQ(rowOfLanes(rows, trace), (std::vector<std::int32_t>{4, 0, 2, 3, 0, 0, 0}));
    EXPECT_EQ(rowsOfRank(rows, 0), std::make_pair(std::size_t{0}, std::size_t{0}));
    const auto both = chartRows(layoutRows(trace), foldedRanks({0, 1}));
    EXPECT_EQ(lanesOf(both), (std::vector<std::int32_t>{-1, -1}));
    EXPECT_EQ(rowOfLanes(both, trace), (std::vector<std::int32_t>{1, 0, 1, 1, 0, 0, 0}));
}

TEST(LaneLayout, OneProcessTraceHasNoHeaderRowsAndCollapsingChangesNothing) {
    starscope::tracer::Trace trace;
    trace.lanes = {lane("CPU 0", LaneKind::CpuWorker, 0, 0), lane("main", LaneKind::MainThread, 0, -1)};
    const auto lanes = layoutRows(trace);
    EXPECT_TRUE(laneRanks(lanes).empty());
    EXPECT_EQ(chartRows(lanes, {}), lanes);
    EXPECT_EQ(chartRows(lanes, foldedRanks({0})), lanes);
    EXPECT_EQ(rowOfLanes(lanes, trace), (std::vector<std::int32_t>{1, 0}));
}

// A machine with GPUs: CPUs, then CUDA workers, then the memory nodes, each kind together
// whatever order the reader gave (a kind folds into one header row), named as a user names them.
TEST(LaneLayout, KindsOfLanesComeTogetherMemoryNodesNamedRamAndCudaMemory) {
    starscope::tracer::Trace trace;
    trace.lanes = {lane("Memory node 2", LaneKind::MemoryNode, 2, -1), lane("CUDA 1", LaneKind::CudaWorker, 2, 3),
                   lane("Memory node 0", LaneKind::MemoryNode, 0, -1), lane("CPU 0", LaneKind::CpuWorker, 0, 0),
                   lane("CUDA 0", LaneKind::CudaWorker, 1, 2),         lane("Memory node 1", LaneKind::MemoryNode, 1, -1),
                   lane("CPU 1", LaneKind::CpuWorker, 0, 1),           lane("main", LaneKind::MainThread, -1, -1),
                   lane("CUDA 0_1", LaneKind::CudaWorker, 1, 4)};
    const auto rows = layoutRows(trace);
    std::vector<std::string> labels;
    for (const Row& row : rows) {
        labels.push_back(row.label);
    }
    EXPECT_EQ(labels, (std::vector<std::string>{"main", "CPU 0", "CPU 1", "CUDA 0", "CUDA 0_1", "CUDA 1", "RAM",
                                                "CUDA 0 memory", "CUDA 1 memory"}));
    EXPECT_EQ(rows[6].group, "memory, node 0");
    EXPECT_EQ(rows[7].group, "memory, node 1");
    EXPECT_EQ(rows[6].laneGroup, LaneGroup::MemoryNodes);
    EXPECT_EQ(rows[3].laneGroup, LaneGroup::CudaWorkers);
    EXPECT_EQ(memoryNodeLabel(trace, trace.lanes[5]), "CUDA 0 memory");
}

// A memory node no worker uses (a disk, say) keeps the reader's name, after the workers; a
// rank's lanes keep their rank prefix.
TEST(LaneLayout, AMemoryNodeWithoutWorkersKeepsItsNameAndARankItsPrefix) {
    starscope::tracer::Trace trace;
    trace.lanes = {lane("Memory node 3", LaneKind::MemoryNode, 3, -1), lane("CPU 0", LaneKind::CpuWorker, 0, 0),
                   lane("1: Memory node 0", LaneKind::MemoryNode, 0, -1)};
    trace.lanes[2].rank = 1;
    const auto rows = layoutRows(trace);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].label, "CPU 0");
    EXPECT_EQ(rows[1].label, "Memory node 3");
    EXPECT_EQ(rows[2].label, "1: RAM");
}

TEST(LaneLayout, ARunOfLanesIsNamedByItsFirstAndLastNumbers) {
    EXPECT_EQ(rowRangeLabel("CPU 0", "CPU 10"), "CPU 0-10");
    EXPECT_EQ(rowRangeLabel("1_CPU 4", "1_CPU 9"), "1_CPU 4-9");
    EXPECT_EQ(rowRangeLabel("CUDA 0 memory", "CUDA 3 memory"), "CUDA 0 memory - CUDA 3 memory");
    EXPECT_EQ(rowRangeLabel("CPU 7", "CUDA 0"), "CPU 7 - CUDA 0");
}
