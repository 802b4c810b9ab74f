// The readers' shared builder: a span running a task finds its task, unless the task ran again
// later (it keeps the times of its last run).

#include "tracer/readers/trace_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace starscope::tracer {
namespace {

using detail::TraceBuilder;

bool hasWarning(const Trace& trace, std::string_view part) {
    return std::any_of(trace.warnings.begin(), trace.warnings.end(),
                       [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

// One worker executing [10,20) and [30,40): job 1 then job 2, or job 1 twice.
Trace twoRuns(bool sameTask) {
    TraceBuilder b;
    const auto lane = b.addLane("CPU 0", LaneKind::CpuWorker, 0, 0);
    const auto executing = b.state(detail::kExecutingState, LaneKind::CpuWorker);
    const auto idle = b.state("Idle", LaneKind::CpuWorker);
    const auto first = b.task(1);
    const auto second = sameTask ? first : b.task(2);
    b.setState(lane, 10, executing, first);
    b.setState(lane, 20, idle);
    b.setState(lane, 30, executing, second);
    b.setState(lane, 40, idle);
    return b.finish(50);
}

TEST(TraceBuilder, TasksRunOnceKeepTheirSpans) {
    const auto trace = twoRuns(false);
    const auto& spans = trace.lanes[0].spans();
    ASSERT_EQ(spans.size(), 4U);
    ASSERT_NE(trace.taskOf(trace.lanes[0], spans[0]), nullptr);
    ASSERT_NE(trace.taskOf(trace.lanes[0], spans[2]), nullptr);
    EXPECT_EQ(trace.taskOf(trace.lanes[0], spans[0])->jobId, 1U);
    EXPECT_EQ(trace.taskOf(trace.lanes[0], spans[2])->jobId, 2U);
    EXPECT_FALSE(hasWarning(trace, "ran again later"));
}

TEST(TraceBuilder, ATaskRunTwiceKeepsItsLastSpan) {
    const auto trace = twoRuns(true);
    const auto& spans = trace.lanes[0].spans();
    ASSERT_EQ(spans.size(), 4U);
    // The first run's span no longer says it runs a task: its times are not the task's.
    EXPECT_EQ(spans[0].runsTask, 0U);
    EXPECT_EQ(trace.stateOf(spans[0]).name, detail::kExecutingState);
    ASSERT_NE(trace.taskOf(trace.lanes[0], spans[2]), nullptr);
    EXPECT_EQ(trace.taskOf(trace.lanes[0], spans[2])->start, 30);
    EXPECT_TRUE(hasWarning(trace, "ran again later"));
}

// A marker the model cannot hold as fields (a slot beyond kMaxMarkerSlot) is kept as its text,
// and the reader says so; a task's codelet and footprint, set apart, are one key once finished.
TEST(TraceBuilder, AMarkerBeyondTheModelIsTextWithAWarning) {
    TraceBuilder b;
    const auto lane = b.addLane("main", LaneKind::MainThread, 0, -1);
    b.addMarker(5, lane, "ss1:batch_begin epoch=0 batch=1 slot=0");
    b.addMarker(6, lane, "ss1:batch_begin epoch=0 batch=2 slot=999");
    const auto job = b.task(1);
    b.setFootprint(job, 0xabc);
    b.setCodelet(job, b.intern("conv_fwd"));
    const auto trace = b.finish(10);
    ASSERT_EQ(trace.markers.size(), 2U);
    EXPECT_TRUE(trace.markers[0].parsed);
    EXPECT_EQ(trace.markers[0].lane, lane);
    EXPECT_FALSE(trace.markers[1].parsed);
    EXPECT_EQ(trace.textOf(trace.markers[1]), "ss1:batch_begin epoch=0 batch=2 slot=999");
    EXPECT_TRUE(hasWarning(trace, "kept as plain text: \"ss1:batch_begin epoch=0 batch=2 slot=999\""));
    EXPECT_EQ(trace.codeletOf(trace.tasks[0]), "conv_fwd");
    EXPECT_EQ(trace.footprintOf(trace.tasks[0]), 0xabcU);
    EXPECT_EQ(trace.codeletKeys.size(), 1U);
}

} // namespace
} // namespace starscope::tracer
