// Each worker's share of the makespan's window (the figure StarVZ labels lanes with) on
// hand-built traces whose shares are worked out by hand, and its agreement with the summary's
// idleness of all workers together.

#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/analysis/worker_shares.hpp"

#include <gtest/gtest.h>

namespace starscope::tracer {
namespace {

using testing::makeTrace;

constexpr TimeNs kMs = 1'000'000;

// The window is 5 .. 35 ms (first task start, last task end). CPU 0 executes 20 ms of it,
// CPU 1 10 ms; CPU 2 was not recorded for 10 ms of it and executed 10 ms of the 20 left.
Trace threeWorkers() {
    return makeTrace({{"main", LaneKind::MainThread, {{"Waiting all tasks", 0, 40 * kMs}}},
                      {"CPU 0",
                       LaneKind::CpuWorker,
                       {{"Executing", 5 * kMs, 15 * kMs},
                        {"Sleeping", 15 * kMs, 25 * kMs},
                        {"Executing", 25 * kMs, 35 * kMs}}},
                      {"CPU 1",
                       LaneKind::CpuWorker,
                       {{"Sleeping", 0, 15 * kMs}, {"Executing", 15 * kMs, 25 * kMs}}},
                      {"CPU 2",
                       LaneKind::CpuWorker,
                       {{"Not profiled", 0, 15 * kMs}, {"Executing", 20 * kMs, 30 * kMs}}}},
                     40 * kMs);
}

TEST(WorkerShares, AreEachWorkersExecutingShareOfTheMakespansWindow) {
    const auto shares = workerShares(threeWorkers());
    ASSERT_EQ(shares.size(), 3U); // the main thread is no worker
    EXPECT_EQ(shares[0].lane, 1);
    EXPECT_EQ(shares[0].executing, 20 * kMs);
    EXPECT_EQ(shares[0].capacity, 30 * kMs);
    ASSERT_TRUE(shares[0].idleness);
    EXPECT_NEAR(*shares[0].idleness, 1.0 / 3.0, 1e-12);
    EXPECT_EQ(shares[1].lane, 2);
    ASSERT_TRUE(shares[1].idleness);
    EXPECT_NEAR(*shares[1].idleness, 2.0 / 3.0, 1e-12);
    // Its unrecorded 10 ms are no capacity: 10 ms executing of 20 recorded.
    EXPECT_EQ(shares[2].capacity, 20 * kMs);
    ASSERT_TRUE(shares[2].idleness);
    EXPECT_NEAR(*shares[2].idleness, 0.5, 1e-12);
}

TEST(WorkerShares, TogetherAreTheSummarysIdleness) {
    const auto trace = threeWorkers();
    TimeNs executing = 0;
    TimeNs capacity = 0;
    for (const auto& share : workerShares(trace)) {
        executing += share.executing;
        capacity += share.capacity;
    }
    EXPECT_NEAR(1.0 - static_cast<double>(executing) / static_cast<double>(capacity),
                summarize(trace).idleness, 1e-12);
}

TEST(WorkerShares, AreUnknownForAWorkerNotRecordedAndForARunWithoutTasks) {
    const auto unrecorded =
        workerShares(makeTrace({{"CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 10 * kMs}}},
                                {"CPU 1", LaneKind::CpuWorker, {{"Not profiled", 0, 10 * kMs}}}},
                               10 * kMs));
    ASSERT_EQ(unrecorded.size(), 2U);
    ASSERT_TRUE(unrecorded[0].idleness);
    EXPECT_EQ(*unrecorded[0].idleness, 0.0);
    EXPECT_FALSE(unrecorded[1].idleness);
    const auto idle = workerShares(
        makeTrace({{"CPU 0", LaneKind::CpuWorker, {{"Sleeping", 0, 10 * kMs}}}}, 10 * kMs));
    ASSERT_EQ(idle.size(), 1U);
    EXPECT_FALSE(idle[0].idleness);
    EXPECT_EQ(idle[0].executing, 0);
}

} // namespace
} // namespace starscope::tracer
