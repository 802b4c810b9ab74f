// The codelet table (count and durations per codelet and kind of worker) and the duration
// histogram, on traces built by hand; starpu_examples_test.cpp checks the table against
// starpu_fxt_tool's tasks.rec on StarPU's own examples.

#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/codelet_stats.hpp"
#include "tracer/exporters/exporters.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <sstream>

namespace starscope::tracer {
namespace {

using namespace testing;

// Tasks of `gemm` (10, 30, 20, 40 on a CPU; 5 on a CUDA worker), `potrf` (100) and StarPU's
// `_starpu_data_acquire_post` (300, the longest).
Trace sample() {
    auto trace = makeTrace({{"CPU 0", LaneKind::CpuWorker,
                             {{"Executing", 0, 10}, {"Executing", 20, 50}, {"Executing", 60, 80}, {"Executing", 100, 140}}},
                            {"CPU 1", LaneKind::CpuWorker, {{"Executing", 0, 100}, {"Executing", 200, 500}}},
                            {"CUDA 0", LaneKind::CudaWorker, {{"Executing", 10, 15}}},
                            {"main", LaneKind::MainThread, {{"Submitting task", 0, 300}}}},
                           600);
    const auto gemm = trace.names.intern("gemm");
    const auto potrf = trace.names.intern("potrf");
    const auto internal = trace.names.intern("_starpu_data_acquire_post");
    for (auto& task : trace.tasks) {
        const auto lane = trace.lanes[static_cast<std::size_t>(task.lane)].name;
        const TimeNs start = task.start;
        const auto codelet = lane == "CPU 1" ? (start == 0 ? potrf : internal) : gemm;
        trace.setCodelet(task, codelet, static_cast<std::uint32_t>(start));   // footprints differ: merged
    }
    return trace;
}

TEST(CodeletStats, PerCodeletAndKindOfWorker) {
    const auto table = computeCodeletStats(sample());
    ASSERT_EQ(table.size(), 3U);
    // The program's codelets by total time, then StarPU's own however long.
    EXPECT_EQ(table[0].codelet, "gemm");
    EXPECT_EQ(table[1].codelet, "potrf");
    EXPECT_EQ(table[2].codelet, "_starpu_data_acquire_post");
    EXPECT_FALSE(table[0].internal);
    EXPECT_TRUE(table[2].internal);

    const auto& gemm = table[0];
    EXPECT_EQ(gemm.all, (DurationSummary{5, 105, 5, 40, 21, 20}));
    ASSERT_EQ(gemm.perKind.size(), 2U);
    EXPECT_EQ(gemm.perKind[0].kind, WorkerKind::Cpu);
    EXPECT_EQ(gemm.perKind[0].durations, (DurationSummary{4, 100, 10, 40, 25, 20}));
    EXPECT_EQ(gemm.perKind[1].kind, WorkerKind::Cuda);
    EXPECT_EQ(gemm.perKind[1].durations, (DurationSummary{1, 5, 5, 5, 5, 5}));
    EXPECT_EQ(table[1].all, (DurationSummary{1, 100, 100, 100, 100, 100}));
}

// A range keeps the tasks whose execution starts in it, whole.
TEST(CodeletStats, ARangeKeepsTheTasksStartingInIt) {
    const auto table = computeCodeletStats(sample(), 15, 100);
    ASSERT_EQ(table.size(), 1U);
    EXPECT_EQ(table[0].codelet, "gemm");
    EXPECT_EQ(table[0].all, (DurationSummary{2, 50, 20, 30, 25, 20}));
    EXPECT_TRUE(computeCodeletStats(sample(), 600, 700).empty());
}

TEST(CodeletStats, CsvHasARowPerCodeletAndKind) {
    std::ostringstream csv;
    writeCodeletsCsv(computeCodeletStats(sample()), csv);
    EXPECT_EQ(csv.str(),
              "codelet,internal,kind,tasks,total_ns,mean_ns,median_ns,min_ns,max_ns\n"
              "gemm,0,all,5,105,21,20,5,40\n"
              "gemm,0,CPU,4,100,25,20,10,40\n"
              "gemm,0,CUDA,1,5,5,5,5,5\n"
              "potrf,0,all,1,100,100,100,100,100\n"
              "potrf,0,CPU,1,100,100,100,100,100\n"
              "_starpu_data_acquire_post,1,all,1,300,300,300,300,300\n"
              "_starpu_data_acquire_post,1,CPU,1,300,300,300,300,300\n");
}

TEST(CodeletStats, InternalCodeletsAreStarpusUnderscoredOnes) {
    EXPECT_TRUE(isStarpuInternalCodelet("_starpu_data_acquire_post"));
    EXPECT_TRUE(isStarpuInternalCodelet("_starpu_mpi_redux_data_dummy"));
    EXPECT_TRUE(isStarpuInternalCodelet("starpu_data_unregister"));   // its synchronisation task
    EXPECT_TRUE(isStarpuInternalCodelet("data_cpy"));
    EXPECT_FALSE(isStarpuInternalCodelet("starpu_data_unregister_2"));
    EXPECT_FALSE(isStarpuInternalCodelet("starpu_slu_lu_model_22"));   // an example's own, named so
    EXPECT_FALSE(isStarpuInternalCodelet("gemm"));
    EXPECT_FALSE(isStarpuInternalCodelet(""));
}

// Log-spaced buckets from the shortest to the longest task: every task in one bucket.
TEST(CodeletDurationHistogram, LogBucketsFromShortestToLongest) {
    const auto h = codeletDurationHistogram(sample(), "gemm", 0, 600, 3);
    ASSERT_EQ(h.edges.size(), 4U);
    ASSERT_EQ(h.counts.size(), 3U);
    EXPECT_EQ(h.edges.front(), 5);
    EXPECT_EQ(h.edges.back(), 40);
    EXPECT_EQ(h.edges[1], 10);   // 5 * 8^(1/3)
    EXPECT_EQ(h.edges[2], 20);
    // 5 | 10 | 20, 30, 40 (the longest in the last bucket)
    EXPECT_EQ(h.counts, (std::vector<std::uint64_t>{1, 1, 3}));
    EXPECT_EQ(std::accumulate(h.counts.begin(), h.counts.end(), std::uint64_t{0}), 5U);
    EXPECT_TRUE(codeletDurationHistogram(sample(), "nothing", 0, 600, 3).edges.empty());
    const auto one = codeletDurationHistogram(sample(), "potrf", 0, 600, 4);
    EXPECT_EQ(one.counts, (std::vector<std::uint64_t>{0, 0, 0, 1}));
}

} // namespace
} // namespace starscope::tracer
