#include "viewer/core/lane_layout.hpp"

#include <gtest/gtest.h>

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
