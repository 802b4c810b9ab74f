// Predecessors and successors as the viewer walks them: by job id in either direction,
// dependencies on jobs the trace does not hold left out, and on a recorded run every edge
// seen from both of its ends.
#include "tests/support/test_support.hpp"
#include "viewer/core/document/task_graph.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace starscope::viewer;
using starscope::tracer::TaskIndex;

namespace {

// Jobs 10 <- 20, 30 <- 40, which also waits for job 99, not in the trace. jobsInOrder: the
// task table sorted by job id as readers leave it; otherwise listed out of id order on purpose
// (lookups go by id, not by position): 10, 30, 20, 40.
starscope::tracer::Trace diamond(bool jobsInOrder = false) {
    starscope::tracer::Trace trace;
    const auto add = [&](std::uint64_t job, std::vector<std::uint64_t> dependencies) {
        starscope::tracer::Task task;
        task.jobId = job;
        trace.tasks.push_back(task);
        trace.setDependencies(static_cast<starscope::tracer::TaskIndex>(trace.tasks.size() - 1), std::move(dependencies));
    };
    add(10, {});
    add(jobsInOrder ? 20U : 30U, {10});
    add(jobsInOrder ? 30U : 20U, {10});
    add(40, {20, 30, 99});
    return trace;
}

std::vector<TaskIndex> sorted(std::vector<TaskIndex> tasks) {
    std::sort(tasks.begin(), tasks.end());
    return tasks;
}

} // namespace

TEST(TaskGraph, PredecessorsAndSuccessorsByJobId) {
    const auto trace = diamond();
    const TaskGraph graph(trace);
    EXPECT_EQ(graph.taskOfJob(trace, 20), TaskIndex{2});
    EXPECT_EQ(graph.taskOfJob(trace, 40), TaskIndex{3});
    EXPECT_FALSE(graph.taskOfJob(trace, 99));
    EXPECT_TRUE(graph.predecessors(trace, 0).empty());
    EXPECT_EQ(graph.predecessors(trace, 3), (std::vector<TaskIndex>{2, 1}));
    EXPECT_EQ(sorted(graph.successors(trace, 0)), (std::vector<TaskIndex>{1, 2}));
    EXPECT_EQ(sorted(graph.successors(trace, 1)), (std::vector<TaskIndex>{3}));
    EXPECT_EQ(sorted(graph.successors(trace, 2)), (std::vector<TaskIndex>{3}));
    EXPECT_TRUE(graph.successors(trace, 3).empty());
    // Out of range: nothing, never a read past the tables.
    EXPECT_TRUE(graph.successors(trace, 4).empty());
    EXPECT_TRUE(graph.predecessors(trace, 4).empty());
    EXPECT_TRUE(TaskGraph().successors(starscope::tracer::Trace(), 0).empty());
}

TEST(TaskGraph, TasksInJobIdOrderAreSearchedInPlace) {
    // As readers leave them: the graph bisects the task table itself, with the same answers.
    const auto trace = diamond(true);
    const TaskGraph graph(trace);
    EXPECT_EQ(graph.taskOfJob(trace, 10), TaskIndex{0});
    EXPECT_EQ(graph.taskOfJob(trace, 30), TaskIndex{2});
    EXPECT_EQ(graph.taskOfJob(trace, 40), TaskIndex{3});
    EXPECT_FALSE(graph.taskOfJob(trace, 5));
    EXPECT_FALSE(graph.taskOfJob(trace, 25));
    EXPECT_FALSE(graph.taskOfJob(trace, 99));
    EXPECT_EQ(graph.predecessors(trace, 3), (std::vector<TaskIndex>{1, 2}));
    EXPECT_EQ(graph.successors(trace, 0), (std::vector<TaskIndex>{1, 2}));
    EXPECT_EQ(graph.successors(trace, 1), (std::vector<TaskIndex>{3}));
    EXPECT_TRUE(graph.successors(trace, 3).empty());
}

TEST(TaskGraph, AJobIdListedTwiceHasItsSuccessorsOnce) {
    // Predecessors name the first task of a job id; successors agree, so no edge is seen from
    // one end only.
    starscope::tracer::Trace trace;
    for (const std::uint64_t job : {10U, 10U, 20U}) {
        starscope::tracer::Task task;
        task.jobId = job;
        trace.tasks.push_back(task);
    }
    trace.setDependencies(2, {10});
    const TaskGraph graph(trace);
    EXPECT_EQ(graph.predecessors(trace, 2), (std::vector<TaskIndex>{0}));
    EXPECT_EQ(graph.successors(trace, 0), (std::vector<TaskIndex>{2}));
    EXPECT_TRUE(graph.successors(trace, 1).empty());
}

TEST(TaskGraph, EveryEdgeOfARecordedRunIsSeenFromBothEnds) {
    const auto document = loadDocument(starscope::testing::testDataDir() / "viewer" / "single_naive");
    ASSERT_TRUE(document) << document.error().describe();
    const auto& trace = (*document)->trace;
    const TaskGraph& graph = (*document)->taskGraph;
    // Each predecessor lists the task among its successors and each successor lists it among
    // its predecessors, with as many edges counted from either end.
    std::size_t edges = 0;
    std::size_t successorEdges = 0;
    const auto contains = [](const std::vector<TaskIndex>& tasks, TaskIndex task) {
        return std::find(tasks.begin(), tasks.end(), task) != tasks.end();
    };
    for (std::size_t i = 0; i < trace.tasks.size(); ++i) {
        const auto task = static_cast<TaskIndex>(i);
        for (const TaskIndex from : graph.predecessors(trace, task)) {
            EXPECT_TRUE(contains(graph.successors(trace, from), task)) << "task " << from << " -> " << task;
            ++edges;
        }
        for (const TaskIndex to : graph.successors(trace, task)) {
            EXPECT_TRUE(contains(graph.predecessors(trace, to), task)) << "task " << task << " -> " << to;
            ++successorEdges;
        }
    }
    EXPECT_GT(edges, trace.tasks.size() / 4) << "a CNN's tasks depend on each other";
    EXPECT_EQ(successorEdges, edges);
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
        EXPECT_EQ(trace.taskIndexOf(trace.lanes[ref->lane], trace.lanes[ref->lane].levels[ref->level][ref->span]), task);
    }
    EXPECT_EQ(ran, (*document)->executedTasks);
    EXPECT_FALSE(findTaskSpan(trace, static_cast<TaskIndex>(trace.tasks.size())));
}
