// The critical path across the ranks of a StarPU-MPI job (tracer/analysis/critical_path.hpp):
// a chain goes from a rank's task through the message it fed to the task of the other rank
// that waited for it, on a job built by hand and on the recorded 2-rank run of tests/data.
// Its chains within one process: stats_test.cpp.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/critical_path.hpp"
#include "tracer/readers/read_trace.hpp"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <set>
#include <vector>

namespace starscope::tracer {
namespace {

using namespace testing;

constexpr std::uint64_t kRankBase = std::uint64_t{1} << 48; // the FxT reader's job ids of rank 1

// Rank 0 runs A (0-100), rank 1 runs B (300-500). StarPU-MPI's job around the send, J1 (rank 0,
// never runs), waits for A; its job around the receive, J2 (rank 1), is what B waits for; the
// message of J1 to J2 is in flight from 120 to 250. C (rank 1, 0-150) is B's other dependency.
Trace twoRanks() {
    auto trace = makeTrace(
        {{"0_CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 100}}},
         {"1_CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 150}, {"Executing", 300, 500}}}},
        600);
    trace.lanes[0].rank = 0;
    trace.lanes[1].rank = 1;
    trace.ranks = {RankInfo{0, 2, "prof_file__0"}, RankInfo{1, 2, "prof_file__1"}};
    auto& tasks = trace.tasks.edit();
    tasks[0].jobId = 5;             // A
    tasks[1].jobId = kRankBase + 3; // C
    tasks[2].jobId = kRankBase + 9; // B
    Task j1;
    j1.jobId = 7;
    Task j2;
    j2.jobId = kRankBase + 8;
    tasks.push_back(j1);
    tasks.push_back(j2);
    std::sort(tasks.begin(), tasks.end(),
              [](const Task& a, const Task& b) { return a.jobId < b.jobId; });
    trace.indexTasks();
    // By job id: A, J1, C, J2, B.
    trace.setDependencies(1, {5});
    trace.setDependencies(4, {kRankBase + 3, kRankBase + 8});
    trace.metadata[std::string(kDependenciesMetadata)] = "recorded";
    Message m;
    m.fromRank = 0;
    m.toRank = 1;
    m.start = 120;
    m.end = 250;
    m.sendJob = 7;
    m.recvJob = kRankBase + 8;
    trace.messages.push_back(m);
    return trace;
}

TEST(CriticalPath, FollowsAMessageToTheOtherRank) {
    auto trace = twoRanks();
    // A, the message's flight, B: 100 + 130 + 200.
    EXPECT_EQ(criticalPathLength(trace), 430);
    EXPECT_EQ(criticalPath(trace), (std::vector<TaskIndex>{0, 1, 3, 4}));

    // Without the message, B's longest chain is C's, within rank 1.
    trace.messages.clear();
    EXPECT_EQ(criticalPathLength(trace), 350);
    EXPECT_EQ(criticalPath(trace), (std::vector<TaskIndex>{2, 4}));
}

TEST(CriticalPath, AMessageWhoseJobsTheTraceLacksIsNoEdge) {
    auto trace = twoRanks();
    trace.messages[0].sendJob = 0; // StarPU-MPI named no job
    EXPECT_EQ(criticalPathLength(trace), 350);
    trace.messages[0].sendJob = 11; // a job the trace does not hold
    EXPECT_EQ(criticalPathLength(trace), 350);
}

TEST(CriticalPath, AMessageBackToItsSenderIsACycleThatEnds) {
    auto trace = twoRanks();
    Message back = trace.messages[0]; // B's job answered by J1: damaged input, a cycle
    back.sendJob = kRankBase + 9;
    back.recvJob = 7;
    trace.messages.push_back(back);
    EXPECT_GE(criticalPathLength(trace), 350);
    const auto path = criticalPath(trace);
    EXPECT_FALSE(path.empty());
}

// The recorded 2-rank CNN run (1.3.10): its chain crosses from one rank to the other through a
// message, and is longer than any chain within one rank.
TEST(CriticalPath, CrossesTheRanksOfARecordedJob) {
    const auto trace = readTrace(starscope::testing::testDataDir() / "tracer" / "ranks13");
    ASSERT_TRUE(trace) << trace.error().describe();
    ASSERT_EQ(trace->ranks.size(), 2U);
    ASSERT_FALSE(trace->messages.empty());
    const auto path = criticalPath(*trace);
    std::set<std::int32_t> ranks;
    for (const auto task : path) {
        if (const Lane* lane = trace->laneAt(trace->tasks[task].lane)) {
            ranks.insert(lane->rank);
        }
    }
    EXPECT_EQ(ranks, (std::set<std::int32_t>{0, 1}));
    std::size_t crossings = 0;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        const auto from = trace->tasks[path[i]].jobId;
        const auto to = trace->tasks[path[i + 1]].jobId;
        crossings +=
            std::any_of(trace->messages.begin(), trace->messages.end(),
                        [&](const Message& m) { return m.sendJob == from && m.recvJob == to; })
                ? 1U
                : 0U;
    }
    EXPECT_GE(crossings, 1U);

    auto withinRanks = *trace;
    withinRanks.messages.clear();
    const auto length = criticalPathLength(*trace);
    const auto within = criticalPathLength(withinRanks);
    std::printf("critical path of ranks13: %lld ns over %zu tasks, %zu messages crossed; %lld ns "
                "within one rank\n",
                static_cast<long long>(length), path.size(), crossings,
                static_cast<long long>(within));
    EXPECT_GT(length, within);
}

} // namespace
} // namespace starscope::tracer
