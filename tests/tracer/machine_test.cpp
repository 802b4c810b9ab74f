// The figures of a machine with GPUs on hand-built traces: the area bound by kind of worker
// (GLPK's linear program) against figures worked out by hand, the homogeneous bound it becomes
// on a CPU-only machine, per-kind times and idleness, and the transfers per link.

#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/machine.hpp"

#include <gtest/gtest.h>

namespace starscope::tracer {
namespace {

using testing::LaneSpec;
using testing::makeTrace;

constexpr TimeNs kMs = 1'000'000;

// Two CPUs that ran 7 tasks of 10 ms, one GPU that ran 3 of the same kind in 1 ms each.
Trace cpusAndAGpu() {
    std::vector<testing::SpanSpec> gpu;
    for (TimeNs i = 0; i < 3; ++i) {
        gpu.push_back({"Executing", i * kMs, (i + 1) * kMs});
    }
    gpu.push_back({"FetchingInput", 3 * kMs, 5 * kMs});
    std::vector<testing::SpanSpec> cpu0;
    std::vector<testing::SpanSpec> cpu1;
    for (TimeNs i = 0; i < 4; ++i) {
        cpu0.push_back({"Executing", i * 10 * kMs, (i + 1) * 10 * kMs});
    }
    for (TimeNs i = 0; i < 3; ++i) {
        cpu1.push_back({"Executing", i * 10 * kMs, (i + 1) * 10 * kMs});
    }
    auto trace = makeTrace({{"CPU 0", LaneKind::CpuWorker, cpu0},
                            {"CPU 1", LaneKind::CpuWorker, cpu1},
                            {"CUDA 0", LaneKind::CudaWorker, gpu}},
                           40 * kMs);
    const NameId gemm = trace.names.intern("GEMM");
    for (auto& task : trace.tasks.edit()) {
        trace.setCodelet(task, gemm, 0x1234);
    }
    trace.indexTasks();
    return trace;
}

TEST(AreaBound, SharesTheTasksBetweenKindsByTheirSpeed) {
    const auto trace = cpusAndAGpu();
    const auto bound = heterogeneousAreaBound(trace);
    ASSERT_TRUE(bound.value) << bound.reason;
    // The GPU runs n tasks in n ms, the CPUs the 10 - n others in 10 ms each on two:
    // T = n = (10 - n) * 10 / 2, so n = T = 100/12 ms.
    EXPECT_NEAR(static_cast<double>(bound.value->bound), 100.0 / 12.0 * kMs, 1.0);
    ASSERT_EQ(bound.value->shares.size(), 2U);
    for (const auto& share : bound.value->shares) {
        const bool gpu = share.kind == LaneKind::CudaWorker;
        EXPECT_EQ(share.meanDuration, gpu ? kMs : 10 * kMs);
        EXPECT_NEAR(share.tasks, gpu ? 100.0 / 12.0 : 10.0 - 100.0 / 12.0, 1e-9);
    }
}

TEST(AreaBound, OnOneKindOfWorkerIsTheHomogeneousBound) {
    auto trace = makeTrace({{"CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 3 * kMs}, {"Executing", 3 * kMs, 4 * kMs}}},
                            {"CPU 1", LaneKind::CpuWorker, {{"Executing", 0, 2 * kMs}}}},
                           4 * kMs);
    const auto bound = heterogeneousAreaBound(trace);
    ASSERT_TRUE(bound.value) << bound.reason;
    EXPECT_EQ(bound.value->bound, summarize(trace).areaBound);
    EXPECT_EQ(bound.value->bound, 3 * kMs);
    EXPECT_FALSE(machineFigures(trace, computeStats(trace)).heterogeneous());
    EXPECT_FALSE(heterogeneousMachine(trace));
}

TEST(AreaBound, IsUnavailableWithoutATask) {
    const auto trace = makeTrace({{"CPU 0", LaneKind::CpuWorker, {{"Sleeping", 0, kMs}}}}, kMs);
    EXPECT_EQ(heterogeneousAreaBound(trace).reason, "no executed task in the trace");
}

TEST(MachineFigures, GiveEachKindOfWorkerItsTimeIdlenessAndWaitForData) {
    const auto trace = cpusAndAGpu();
    const auto m = machineFigures(trace, computeStats(trace));
    ASSERT_TRUE(m.heterogeneous());
    EXPECT_TRUE(heterogeneousMachine(trace));
    ASSERT_EQ(m.kinds.size(), 2U);
    EXPECT_EQ(m.kinds[0].kind, LaneKind::CpuWorker);
    EXPECT_EQ(m.kinds[0].workers, 2U);
    EXPECT_EQ(m.kinds[0].tasks, 7U);
    EXPECT_EQ(m.kinds[0].times.executing, 70 * kMs);
    // Tasks run from 0 to 40 ms: the CPUs had 80 ms, the GPU 40.
    EXPECT_DOUBLE_EQ(*m.kinds[0].idleness, 1.0 - 70.0 / 80.0);
    EXPECT_EQ(m.kinds[1].kind, LaneKind::CudaWorker);
    EXPECT_EQ(m.kinds[1].tasks, 3U);
    EXPECT_DOUBLE_EQ(*m.kinds[1].idleness, 1.0 - 3.0 / 40.0);
    EXPECT_EQ(m.kinds[1].waitingForData, 2 * kMs);
    EXPECT_EQ(m.waitingForData, 2 * kMs);
    EXPECT_TRUE(m.links.empty());
}

// StarPU's sgemm example stops profiling while its tasks run: its CPUs (which ran none) have no
// recorded time there, and were shown 0 % idle, as if busy.
TEST(MachineFigures, AKindOfWorkerNotRecordedWhileTasksRanHasNoIdleness) {
    const auto trace = makeTrace({{"CPU 0", LaneKind::CpuWorker, {{std::string(kNotProfiledState), 0, 10 * kMs}}},
                                  {"CUDA 0", LaneKind::CudaWorker, {{"Executing", kMs, 9 * kMs}}}},
                                 10 * kMs);
    const auto m = machineFigures(trace, computeStats(trace));
    ASSERT_EQ(m.kinds.size(), 2U);
    EXPECT_FALSE(m.kinds[0].idleness.has_value());
    ASSERT_TRUE(m.kinds[1].idleness.has_value());
    EXPECT_DOUBLE_EQ(*m.kinds[1].idleness, 0.0);
}

TEST(MachineFigures, CountEachLinksTransfersAndItsBusyTimeOnce) {
    auto trace = makeTrace({{"CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 10 * kMs}}}}, 10 * kMs);
    // Two overlapping copies RAM -> GPU (busy 3 ms in all), one back.
    trace.transfers = {Transfer{-1, 0, 1, TransferKind::Fetch, 0, 2 * kMs, 1'000'000, 0},
                       Transfer{-1, 0, 1, TransferKind::Prefetch, kMs, 3 * kMs, 2'000'000, 0},
                       Transfer{-1, 1, 0, TransferKind::Fetch, 5 * kMs, 6 * kMs, 500'000, 0}};
    EXPECT_FALSE(heterogeneousMachine(makeTrace({{"CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 10 * kMs}}}}, 10 * kMs)));
    const auto m = machineFigures(trace, computeStats(trace));
    ASSERT_TRUE(m.heterogeneous());
    EXPECT_TRUE(heterogeneousMachine(trace));
    ASSERT_EQ(m.links.size(), 2U);
    EXPECT_EQ(m.links[0], (LinkFigures{-1, 0, 1, 2, 3'000'000, 3 * kMs, 1e9}));
    EXPECT_EQ(m.links[1], (LinkFigures{-1, 1, 0, 1, 500'000, kMs, 5e8}));
}

} // namespace
} // namespace starscope::tracer
