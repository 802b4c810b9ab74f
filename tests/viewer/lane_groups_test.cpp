// Lane groups by kind: a header row before the CPU workers, the CUDA workers and the memory nodes
// where one helps (two kinds of worker, or a wide machine), folded to that row alone, within a
// trace or within each rank; the lanes a header sums up; the rows that show a folded lane.

#include "tests/viewer/lane_support.hpp"
#include "viewer/core/layout/lane_layout.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace starscope::viewer;
using starscope::tracer::Lane;
using starscope::tracer::LaneKind;

namespace {

using starscope::viewer::testing::makeLane;
using starscope::viewer::testing::rowLabels;

// main, 3 CPUs, 2 CUDA workers, RAM and 2 GPU memories (lane indices in brackets below).
starscope::tracer::Trace gpuMachine(int rank = -1) {
    starscope::tracer::Trace trace;
    trace.lanes = {makeLane("main", LaneKind::MainThread, 0, -1, rank),          // 0
                   makeLane("CPU 0", LaneKind::CpuWorker, 0, 0, rank),            // 1
                   makeLane("CPU 1", LaneKind::CpuWorker, 0, 1, rank),            // 2
                   makeLane("CPU 2", LaneKind::CpuWorker, 0, 2, rank),            // 3
                   makeLane("CUDA 0", LaneKind::CudaWorker, 1, 3, rank),          // 4
                   makeLane("CUDA 1", LaneKind::CudaWorker, 2, 4, rank),          // 5
                   makeLane("Memory node 0", LaneKind::MemoryNode, 0, -1, rank),  // 6
                   makeLane("Memory node 1", LaneKind::MemoryNode, 1, -1, rank),  // 7
                   makeLane("Memory node 2", LaneKind::MemoryNode, 2, -1, rank)}; // 8
    return trace;
}

std::string header(const char* name, std::size_t lanes, bool folded) {
    Row row;
    row.kind = RowKind::KindHeader;
    if (std::string_view(name) == "CPU workers") {
        row.laneGroup = LaneGroup::CpuWorkers;
    } else if (std::string_view(name) == "CUDA workers") {
        row.laneGroup = LaneGroup::CudaWorkers;
    } else {
        row.laneGroup = LaneGroup::MemoryNodes;
    }
    return groupHeaderLabel(row, lanes, folded);
}

} // namespace

TEST(LaneGroups, AHeaderHelpsForTwoLanesOrMoreWithTwoKindsOfWorkerOrOnAWideMachine) {
    EXPECT_FALSE(kindHeaderHelps(1, 2)) << "a header for one lane would be that lane again";
    EXPECT_TRUE(kindHeaderHelps(2, 2));
    EXPECT_FALSE(kindHeaderHelps(4, 1)) << "4 CPUs alone: the overview already shows their mix";
    EXPECT_FALSE(kindHeaderHelps(kManyLanes - 1, 1));
    EXPECT_TRUE(kindHeaderHelps(kManyLanes, 1));
}

TEST(LaneGroups, EachKindOfAGpuMachineGetsAHeaderButTheMainThread) {
    const auto trace = gpuMachine();
    const auto rows = chartRows(layoutRows(trace), {});
    EXPECT_EQ(rowLabels(rows), (std::vector<std::string>{"main", header("CPU workers", 3, false), "CPU 0", "CPU 1", "CPU 2",
                                                        header("CUDA workers", 2, false), "CUDA 0", "CUDA 1",
                                                        header("memory nodes", 3, false), "RAM", "CUDA 0 memory",
                                                        "CUDA 1 memory"}));
    EXPECT_EQ(rows[1].kind, RowKind::KindHeader);
    EXPECT_EQ(rows[1].groupId(), (GroupId{-1, LaneGroup::CpuWorkers}));
    EXPECT_EQ(rows[1].group, rows[2].group) << "no separator between a header and its lanes";
    EXPECT_EQ(lanesUnder(layoutRows(trace), rows[5]), (std::vector<std::int32_t>{4, 5}));
    EXPECT_EQ(lanesUnder(layoutRows(trace), rows[8]), (std::vector<std::int32_t>{6, 7, 8}));
    EXPECT_EQ(header("CPU workers", 3, false), "\u25BE CPU workers (3)");
}

TEST(LaneGroups, AFoldedKindKeepsItsHeaderWhichShowsItsLanes) {
    const auto trace = gpuMachine();
    const auto rows = chartRows(layoutRows(trace), {GroupId{-1, LaneGroup::CpuWorkers}, GroupId{-1, LaneGroup::MemoryNodes}});
    EXPECT_EQ(rowLabels(rows), (std::vector<std::string>{"main", header("CPU workers", 3, true), header("CUDA workers", 2, false),
                                                        "CUDA 0", "CUDA 1", header("memory nodes", 3, true)}));
    // CPUs (1-3) on row 1, the memory nodes (6-8) on row 5.
    EXPECT_EQ(rowOfLanes(rows, trace), (std::vector<std::int32_t>{0, 1, 1, 1, 3, 4, 5, 5, 5}));
}

TEST(LaneGroups, OneKindOfFewWorkersHasNoHeadersAndAWideOneHas) {
    starscope::tracer::Trace few;
    few.lanes = {makeLane("CPU 0", LaneKind::CpuWorker, 0, 0), makeLane("CPU 1", LaneKind::CpuWorker, 0, 1),
                 makeLane("Memory node 0", LaneKind::MemoryNode, 0, -1)};
    EXPECT_EQ(chartRows(layoutRows(few), {}), layoutRows(few));
    starscope::tracer::Trace wide;
    for (int w = 0; w < 256; ++w) {
        wide.lanes.push_back(makeLane("CPU " + std::to_string(w), LaneKind::CpuWorker, 0, w));
    }
    wide.lanes.push_back(makeLane("Memory node 0", LaneKind::MemoryNode, 0, -1));
    const auto folded = chartRows(layoutRows(wide), {GroupId{-1, LaneGroup::CpuWorkers}});
    EXPECT_EQ(rowLabels(folded), (std::vector<std::string>{header("CPU workers", 256, true), "RAM"}));
    EXPECT_EQ(chartRows(layoutRows(wide), {}).size(), 258u);
}

// In a StarPU-MPI job the kinds fold within each rank, under its rank header; a folded rank
// hides its kind headers too.
TEST(LaneGroups, KindsFoldWithinEachRank) {
    auto trace = gpuMachine(0);
    for (const Lane& l : gpuMachine(1).lanes) {
        trace.lanes.push_back(l);
    }
    const auto open = chartRows(layoutRows(trace), {GroupId{1, LaneGroup::CudaWorkers}});
    ASSERT_EQ(open.size(), 2u * 12u + 2u - 2u);
    EXPECT_EQ(open[0].kind, RowKind::RankHeader);
    EXPECT_EQ(open[2].kind, RowKind::KindHeader);
    EXPECT_EQ(open[2].rank, 0);
    const auto cuda1 = std::find_if(open.begin(), open.end(), [](const Row& r) {
        return r.kind == RowKind::KindHeader && r.rank == 1 && r.laneGroup == LaneGroup::CudaWorkers;
    });
    ASSERT_NE(cuda1, open.end());
    EXPECT_EQ(cuda1->label, header("CUDA workers", 2, true));
    EXPECT_EQ((cuda1 + 1)->laneGroup, LaneGroup::MemoryNodes) << "its lanes are folded away";
    // Rank 1's CUDA lanes (13, 14) are drawn on its CUDA header.
    const auto rowOf = rowOfLanes(open, trace);
    EXPECT_EQ(rowOf[13], cuda1 - open.begin());
    EXPECT_EQ(rowOf[14], cuda1 - open.begin());
    const auto rank = chartRows(layoutRows(trace), {GroupId{1, LaneGroup::Rank}, GroupId{1, LaneGroup::CudaWorkers}});
    EXPECT_EQ(rank.size(), 14u);
    EXPECT_EQ(rank.back().kind, RowKind::RankHeader);
    EXPECT_EQ(rowOfLanes(rank, trace)[13], 13);
    // A rank's header sums up its workers only.
    EXPECT_EQ(lanesUnder(layoutRows(trace), rank.back()), (std::vector<std::int32_t>{10, 11, 12, 13, 14}));
}

// The lane filter first, then the headers: a kind the filter leaves with one lane loses its header.
TEST(LaneGroups, HeadersFollowTheFilteredLanes) {
    const auto trace = gpuMachine();
    const auto rows = chartRows(filterRows(layoutRows(trace), "cuda 0"), {});
    EXPECT_EQ(rowLabels(rows), (std::vector<std::string>{"CUDA 0", "CUDA 0 memory"}));
}

// --fold's groups: the kinds it names where they have a header, in every rank, and its ranks.
TEST(LaneGroups, AFoldRequestFoldsTheNamedKindsInEveryRankAndItsRanks) {
    auto trace = gpuMachine(0);
    for (const Lane& l : gpuMachine(1).lanes) {
        trace.lanes.push_back(l);
    }
    const auto rows = layoutRows(trace);
    EXPECT_EQ(foldedBy(rows, FoldRequest{{LaneGroup::CudaWorkers, LaneGroup::MainThread}, {1}}),
              (std::set<GroupId>{{0, LaneGroup::CudaWorkers}, {1, LaneGroup::Rank}, {1, LaneGroup::CudaWorkers}}))
        << "the main thread has no header to fold";
}
