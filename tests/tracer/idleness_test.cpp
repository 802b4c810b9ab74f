// The one idleness formula: worked out by hand, and the same figure as each place that shows
// an idleness (the summary's, its value without trace flushes, each worker's share, each kind
// of worker's) on the golden traces, one of them with batches not recorded.

#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/idleness.hpp"
#include "tracer/analysis/machine.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/analysis/worker_shares.hpp"
#include "tracer/model/starpu_tasks.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

namespace starscope::tracer {
namespace {

using testing::makeTrace;

constexpr TimeNs kMs = 1'000'000;

TEST(Idleness, IsTheShareOfTheCapacityNotExecuting) {
    ASSERT_TRUE(idleness(20 * kMs, 30 * kMs, 1, 0));
    EXPECT_DOUBLE_EQ(*idleness(20 * kMs, 30 * kMs, 1, 0), 1.0 - 20.0 / 30.0);
    // Three lanes share the window: 90 ms of capacity.
    EXPECT_DOUBLE_EQ(*idleness(60 * kMs, 30 * kMs, 3, 0), 1.0 - 60.0 / 90.0);
    EXPECT_DOUBLE_EQ(*idleness(0, 30 * kMs, 2, 0), 1.0);
}

TEST(Idleness, LeavesTheUnrecordedTimeOutOfTheCapacity) {
    // 10 ms of the 30 were not recorded: 10 ms executing of 20 known.
    EXPECT_DOUBLE_EQ(*idleness(10 * kMs, 30 * kMs, 1, 10 * kMs), 0.5);
}

TEST(Idleness, IsUnknownWithoutCapacity) {
    EXPECT_FALSE(idleness(0, 0, 4, 0));               // no task ran: no window
    EXPECT_FALSE(idleness(0, 30 * kMs, 0, 0));        // no worker
    EXPECT_FALSE(idleness(0, 30 * kMs, 1, 30 * kMs)); // nothing of the window recorded
}

// Every place that shows an idleness gives the function's figure for its lanes and window.
void expectEveryIdlenessIsTheFunctions(const Trace& trace) {
    const auto window = executionWindow(trace);
    ASSERT_FALSE(window.empty());
    const auto whole = computeStats(trace);
    const auto inWindow = computeRangeStats(trace, window.first, window.last);
    const auto summary = summarize(trace);
    EXPECT_GT(summary.idleness, 0.0);
    EXPECT_EQ(summary.idleness, idleness(whole.workers.executing, window.length(), summary.workers,
                                         inWindow.workers.notProfiled));
    // Without flushes the figure without them is the same.
    EXPECT_EQ(summary.traceFlushes, 0U);
    EXPECT_EQ(summary.withoutTracing.idleness, summary.idleness);

    TimeNs executing = 0;
    TimeNs unrecorded = 0;
    const auto shares = workerShares(trace);
    ASSERT_EQ(shares.size(), summary.workers);
    for (const auto& share : shares) {
        const auto& lane = inWindow.lanes[static_cast<std::size_t>(share.lane)].classes;
        EXPECT_EQ(share.idleness, idleness(lane.executing, window.length(), 1, lane.notProfiled));
        executing += share.executing;
        unrecorded += lane.notProfiled;
    }
    // The workers' shares add up to the summary's idleness.
    EXPECT_EQ(idleness(executing, window.length(), shares.size(), unrecorded), summary.idleness);
}

TEST(Idleness, IsWhatEveryFigureShowsOnTheGoldenTrace) {
    const auto trace = readTrace(testing::smallProfFile());
    ASSERT_TRUE(trace) << trace.error().describe();
    expectEveryIdlenessIsTheFunctions(*trace);
}

TEST(Idleness, IsWhatEveryFigureShowsWithBatchesNotRecorded) {
    const auto trace = readTrace(testing::goldenRun("masked13"));
    ASSERT_TRUE(trace) << trace.error().describe();
    const auto window = executionWindow(*trace);
    ASSERT_GT(computeRangeStats(*trace, window.first, window.last).workers.notProfiled, 0);
    expectEveryIdlenessIsTheFunctions(*trace);
}

TEST(Idleness, IsEachKindOfWorkersOnAMachineWithAGpu) {
    // The window is 0 .. 40 ms; the CPUs executed 70 ms of their 80, the GPU 3 ms of its 40
    // less the 10 ms it was not recorded.
    const auto trace =
        makeTrace({{"CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 40 * kMs}}},
                   {"CPU 1", LaneKind::CpuWorker, {{"Executing", 0, 30 * kMs}}},
                   {"CUDA 0",
                    LaneKind::CudaWorker,
                    {{"Executing", 0, 3 * kMs}, {"Not profiled", 20 * kMs, 30 * kMs}}}},
                  40 * kMs);
    const auto m = machineFigures(trace, computeStats(trace));
    ASSERT_EQ(m.kinds.size(), 2U);
    EXPECT_EQ(m.kinds[0].idleness, idleness(70 * kMs, 40 * kMs, 2, 0));
    EXPECT_DOUBLE_EQ(*m.kinds[0].idleness, 1.0 - 70.0 / 80.0);
    EXPECT_EQ(m.kinds[1].idleness, idleness(3 * kMs, 40 * kMs, 1, 10 * kMs));
    EXPECT_DOUBLE_EQ(*m.kinds[1].idleness, 1.0 - 3.0 / 30.0);
}

} // namespace
} // namespace starscope::tracer
