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

} // namespace
} // namespace starscope::tracer
