// Predecessors and successors as the viewer walks them: by job id in either direction,
// dependencies on jobs the trace does not hold left out, and on a recorded run every edge
// seen from both of its ends.
#include "tests/support/test_support.hpp"
#include "viewer/core/task_graph.hpp"
#include "viewer/core/trace_document.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace starscope::viewer;
using starscope::tracer::TaskIndex;

namespace {

starscope::tracer::Trace diamond() {
    // Jobs listed out of id order on purpose: lookups go by id, not by position.
    starscope::tracer::Trace trace;
    const auto add = [&](std::uint64_t job, std::vector<std::uint64_t> dependencies) {
        starscope::tracer::Task task;
        task.jobId = job;
        task.dependencies = std::move(dependencies);
        trace.tasks.push_back(task);
    };
    add(10, {});           // 0
    add(30, {10});         // 1
    add(20, {10});         // 2
    add(40, {20, 30, 99}); // 3: job 99 is not in the trace
    return trace;
}

std::vector<TaskIndex> sorted(std::span<const TaskIndex> tasks) {
    std::vector<TaskIndex> out(tasks.begin(), tasks.end());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST(TaskGraph, PredecessorsAndSuccessorsByJobId) {
    const auto trace = diamond();
    const TaskGraph graph(trace);
    EXPECT_EQ(graph.taskOfJob(20), TaskIndex{2});
    EXPECT_EQ(graph.taskOfJob(40), TaskIndex{3});
    EXPECT_FALSE(graph.taskOfJob(99));
    EXPECT_TRUE(graph.predecessors(trace, 0).empty());
    EXPECT_EQ(graph.predecessors(trace, 3), (std::vector<TaskIndex>{2, 1}));
    EXPECT_EQ(sorted(graph.successors(0)), (std::vector<TaskIndex>{1, 2}));
    EXPECT_EQ(sorted(graph.successors(1)), (std::vector<TaskIndex>{3}));
    EXPECT_EQ(sorted(graph.successors(2)), (std::vector<TaskIndex>{3}));
    EXPECT_TRUE(graph.successors(3).empty());
    // Out of range: nothing, never a read past the tables.
    EXPECT_TRUE(graph.successors(4).empty());
    EXPECT_TRUE(graph.predecessors(trace, 4).empty());
    EXPECT_TRUE(TaskGraph().successors(0).empty());
}

TEST(TaskGraph, EveryEdgeOfARecordedRunIsSeenFromBothEnds) {
    const auto document = loadDocument(starscope::testing::testDataDir() / "viewer" / "single_naive");
    ASSERT_TRUE(document) << document.error().describe();
    const auto& trace = (*document)->trace;
    const TaskGraph& graph = (*document)->taskGraph;
    std::size_t edges = 0;
    for (std::size_t i = 0; i < trace.tasks.size(); ++i) {
        const auto task = static_cast<TaskIndex>(i);
        for (const TaskIndex from : graph.predecessors(trace, task)) {
            const auto successors = graph.successors(from);
            EXPECT_NE(std::find(successors.begin(), successors.end(), task), successors.end());
            ++edges;
        }
    }
    EXPECT_GT(edges, trace.tasks.size() / 4) << "a CNN's tasks depend on each other";
}

TEST(TaskGraph, EveryTaskThatRanIsFoundOnItsLane) {
    const auto document = loadDocument(starscope::testing::testDataDir() / "viewer" / "single_naive");
    ASSERT_TRUE(document) << document.error().describe();
    const auto& trace = (*document)->trace;
    std::size_t ran = 0;
    for (std::size_t i = 0; i < trace.tasks.size(); ++i) {
        const auto task = static_cast<TaskIndex>(i);
        const auto ref = findTaskSpan(trace, task);
        if (trace.tasks[i].start < 0) {
            EXPECT_FALSE(ref);
            continue;
        }
        ++ran;
        ASSERT_TRUE(ref) << "job " << trace.tasks[i].jobId;
        EXPECT_EQ(ref->lane, static_cast<std::size_t>(trace.tasks[i].lane));
        EXPECT_EQ(trace.lanes[ref->lane].levels[ref->level][ref->span].task, task);
    }
    EXPECT_EQ(ran, (*document)->executedTasks);
    EXPECT_FALSE(findTaskSpan(trace, static_cast<TaskIndex>(trace.tasks.size())));
}
