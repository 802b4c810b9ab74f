// The lanes in the user's order: a lane moves among its kind's lanes, a kind among its rank's
// groups, a rank among the ranks, past the neighbour the chart shows (a filter and folds applied);
// groups stay whole; a reset gives layoutRows' order back.

#include "tests/viewer/lane_support.hpp"
#include "viewer/core/layout/lane_order.hpp"

#include <gtest/gtest.h>

using namespace starscope::viewer;
using starscope::tracer::Lane;
using starscope::tracer::LaneKind;

namespace {

using starscope::viewer::testing::makeLane;

starscope::tracer::Trace machine(int rank = -1) {
    starscope::tracer::Trace trace;
    trace.lanes = {makeLane("main", LaneKind::MainThread, 0, -1, rank),         makeLane("CPU 0", LaneKind::CpuWorker, 0, 0, rank),
                   makeLane("CPU 1", LaneKind::CpuWorker, 0, 1, rank),           makeLane("CPU 2", LaneKind::CpuWorker, 0, 2, rank),
                   makeLane("CUDA 0", LaneKind::CudaWorker, 1, 3, rank),         makeLane("CUDA 1", LaneKind::CudaWorker, 2, 4, rank),
                   makeLane("Memory node 0", LaneKind::MemoryNode, 0, -1, rank), makeLane("Memory node 1", LaneKind::MemoryNode, 1, -1, rank)};
    return trace;
}

std::vector<std::string> labelsOf(const std::vector<Row>& rows) {
    std::vector<std::string> out;
    for (const Row& row : rows) {
        out.push_back(row.kind == RowKind::Lane ? row.label : "[" + row.label.substr(4) + "]");
    }
    return out;
}

std::size_t rowLabelled(const std::vector<Row>& rows, const std::string& label) {
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].label == label || (rows[r].kind != RowKind::Lane && rows[r].label.substr(4) == label)) {
            return r;
        }
    }
    ADD_FAILURE() << label;
    return rows.size();
}

} // namespace

TEST(LaneOrder, ALaneMovesAmongItsKindsLanesOnly) {
    const auto trace = machine();
    LaneOrder order(layoutRows(trace));
    EXPECT_TRUE(order.isDefault());
    auto rows = chartRows(order.rows(), {});
    ASSERT_EQ(labelsOf(rows), (std::vector<std::string>{"main", "[CPU workers (3)]", "CPU 0", "CPU 1", "CPU 2",
                                                        "[CUDA workers (2)]", "CUDA 0", "CUDA 1", "[memory nodes (2)]",
                                                        "RAM", "CUDA 0 memory"}));
    EXPECT_TRUE(order.move(rows, rowLabelled(rows, "CPU 2"), LaneMove::Up));
    rows = chartRows(order.rows(), {});
    EXPECT_EQ(labelsOf(rows)[3], "CPU 2");
    EXPECT_EQ(labelsOf(rows)[4], "CPU 1");
    EXPECT_FALSE(order.isDefault());
    // The first CPU goes no higher: it stays among the CPUs.
    EXPECT_FALSE(order.canMove(rows, rowLabelled(rows, "CPU 0"), LaneMove::Up));
    EXPECT_TRUE(order.move(rows, rowLabelled(rows, "CUDA 1"), LaneMove::ToTop));
    rows = chartRows(order.rows(), {});
    EXPECT_EQ(labelsOf(rows)[6], "CUDA 1");
    EXPECT_TRUE(order.move(rows, rowLabelled(rows, "CPU 0"), LaneMove::Down));
    const auto labels = labelsOf(chartRows(order.rows(), {}));
    EXPECT_EQ((std::vector<std::string>(labels.begin() + 2, labels.begin() + 5)),
              (std::vector<std::string>{"CPU 2", "CPU 0", "CPU 1"}));
    order.reset();
    EXPECT_TRUE(order.isDefault());
    EXPECT_EQ(order.rows(), layoutRows(trace));
}

TEST(LaneOrder, AGroupMovesWholeAmongItsRanksGroupsAndALoneLaneAsItsGroup) {
    const auto trace = machine();
    LaneOrder order(layoutRows(trace));
    auto rows = chartRows(order.rows(), {});
    EXPECT_TRUE(order.move(rows, rowLabelled(rows, "memory nodes (2)"), LaneMove::ToTop));
    rows = chartRows(order.rows(), {});
    EXPECT_EQ(labelsOf(rows), (std::vector<std::string>{"[memory nodes (2)]", "RAM", "CUDA 0 memory", "main",
                                                        "[CPU workers (3)]", "CPU 0", "CPU 1", "CPU 2",
                                                        "[CUDA workers (2)]", "CUDA 0", "CUDA 1"}));
    // The main thread is a group of one: it moves past the next group, here the CPUs.
    EXPECT_TRUE(order.move(rows, rowLabelled(rows, "main"), LaneMove::Down));
    rows = chartRows(order.rows(), {});
    EXPECT_EQ(labelsOf(rows)[3], "[CPU workers (3)]");
    EXPECT_EQ(labelsOf(rows)[7], "main");
    EXPECT_FALSE(order.canMove(rows, rowLabelled(rows, "memory nodes (2)"), LaneMove::Up));
    EXPECT_FALSE(order.canMove(rows, rowLabelled(rows, "CUDA workers (2)"), LaneMove::Down));
}

// Folded groups and a filter: the move goes past the neighbour in view, and the order stays
// when the filter and the folds go.
TEST(LaneOrder, MovesPastWhatTheChartShowsAndOutlivesFiltersAndFolds) {
    const auto trace = machine();
    LaneOrder order(layoutRows(trace));
    const std::set<GroupId> folded{GroupId{-1, LaneGroup::CpuWorkers}};
    auto rows = chartRows(order.rows(), folded);
    EXPECT_TRUE(order.move(rows, rowLabelled(rows, "CUDA workers (2)"), LaneMove::Up));
    rows = chartRows(order.rows(), folded);
    EXPECT_EQ(labelsOf(rows), (std::vector<std::string>{"main", "[CUDA workers (2)]", "CUDA 0", "CUDA 1", "[CPU workers (3)]",
                                                        "[memory nodes (2)]", "RAM", "CUDA 0 memory"}));
    // Only CPU 0 and CPU 2 shown: CPU 2 moves above CPU 0, past the hidden CPU 1.
    auto filtered = chartRows(filterRows(order.rows(), "cpu 0, cpu 2"), {});
    ASSERT_EQ(labelsOf(filtered), (std::vector<std::string>{"CPU 0", "CPU 2"}));
    EXPECT_TRUE(order.move(filtered, 1, LaneMove::Up));
    EXPECT_EQ(labelsOf(chartRows(filterRows(order.rows(), "cpu"), {})),
              (std::vector<std::string>{"CPU 2", "CPU 0", "CPU 1"}));
    rows = chartRows(order.rows(), {});
    EXPECT_EQ(labelsOf(rows)[1], "[CUDA workers (2)]") << "the earlier move stays";
    EXPECT_EQ(labelsOf(rows)[5], "CPU 2");
}

TEST(LaneOrder, RanksMoveAmongRanks) {
    auto trace = machine(0);
    for (const Lane& l : machine(1).lanes) {
        trace.lanes.push_back(l);
    }
    LaneOrder order(layoutRows(trace));
    auto rows = chartRows(order.rows(), {});
    ASSERT_EQ(rows.front().label, rankHeaderLabel(0, false));
    const std::size_t rank1 = rowLabelled(rows, "rank 1");
    EXPECT_FALSE(order.canMove(rows, rank1, LaneMove::Down));
    EXPECT_TRUE(order.move(rows, rank1, LaneMove::Up));
    rows = chartRows(order.rows(), {});
    EXPECT_EQ(rows.front().label, rankHeaderLabel(1, false));
    EXPECT_EQ(rows[1].rank, 1);
    EXPECT_EQ(rows[rowLabelled(rows, "rank 0") + 1].rank, 0);
    // A kind group moves within its rank only.
    const std::size_t mem = rowLabelled(rows, "memory nodes (2)");
    EXPECT_EQ(rows[mem].rank, 1);
    EXPECT_FALSE(order.canMove(rows, mem, LaneMove::Down)) << "the last group of rank 1 stays in rank 1";
    EXPECT_FALSE(order.canMove(rows, rows.size(), LaneMove::Up));
}
