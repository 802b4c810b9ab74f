// The codelet table (count and durations per codelet and kind of worker) and the duration
// histogram, on traces built by hand; starpu_examples_test.cpp checks the table against
// starpu_fxt_tool's tasks.rec on StarPU's own examples.

#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/codelet_stats.hpp"
#include "tracer/exporters/exporters.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
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
    for (auto& task : trace.tasks.edit()) {
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

// The table equals one built the plain way (durations gathered per codelet name and kind, sorted
// for the median) on random traces: several kinds of worker, codelets named alike under other
// footprints, tasks of no codelet or of an empty name, tasks outside the range, that never ran
// or ran on no lane.
TEST(CodeletStats, EqualsAPlainTableOnRandomTraces) {
    const auto plain = [](std::vector<TimeNs> d) {
        DurationSummary s;
        if (d.empty()) {
            return s;
        }
        std::sort(d.begin(), d.end());
        s.count = d.size();
        s.total = std::accumulate(d.begin(), d.end(), TimeNs{0});
        s.min = d.front();
        s.max = d.back();
        s.mean = s.total / static_cast<TimeNs>(s.count);
        s.median = d[(d.size() - 1) / 2];
        return s;
    };
    for (std::uint32_t seed = 1; seed <= 30; ++seed) {
        std::mt19937 random(seed);
        std::vector<LaneSpec> lanes;
        const LaneKind kinds[] = {LaneKind::CpuWorker, LaneKind::CudaWorker, LaneKind::OtherWorker};
        for (int l = 0; l < 6; ++l) {
            LaneSpec lane{"w" + std::to_string(l), kinds[random() % 3], {}};
            TimeNs t = 0;
            for (int i = 0; i < 150; ++i) {
                const auto length = static_cast<TimeNs>(random() % 1000);
                lane.spans.push_back({"Executing", t, t + length});
                t += length + static_cast<TimeNs>(random() % 50);
            }
            lanes.push_back(std::move(lane));
        }
        auto trace = makeTrace(lanes, 200'000);
        const NameId names[] = {trace.names.intern("gemm"), trace.names.intern("potrf"),
                                trace.names.intern("_starpu_data_acquire_post"), trace.names.intern(""), kNoName};
        for (auto& task : trace.tasks.edit()) {
            trace.setCodelet(task, names[random() % std::size(names)], static_cast<std::uint32_t>(random() % 3));
            if (random() % 20 == 0) {
                task.start = -1;   // never ran
            } else if (random() % 20 == 0) {
                task.lane = -1;    // on no lane
            }
        }
        // Some traces' durations spread over many decades, some cluster, some are all alike.
        if (seed % 3 == 1) {
            for (auto& task : trace.tasks.edit()) {
                const TimeNs start = task.start;
                const int decades = static_cast<int>(random() % 14);
                const auto wide = static_cast<TimeNs>(std::pow(10.0, decades)) * static_cast<TimeNs>(1 + random() % 9)
                                  + static_cast<TimeNs>(random() % 1000);
                task.end = start + (seed % 2 == 0 ? wide : (TimeNs{1} << 40) + static_cast<TimeNs>(random() % 5) * 65'537);
            }
        } else if (seed % 3 == 2 && seed % 2 == 0) {
            for (auto& task : trace.tasks.edit()) {
                task.end = static_cast<TimeNs>(task.start) + 77;
            }
        }
        const TimeNs from = static_cast<TimeNs>(random() % 20'000);
        const TimeNs to = from + static_cast<TimeNs>(random() % 150'000);
        std::map<std::string, std::array<std::vector<TimeNs>, 3>> byName;
        for (const auto& task : trace.tasks) {
            const TimeNs start = task.start;
            if (task.lane < 0 || start < 0 || start < from || start >= to) {
                continue;
            }
            const auto kind = workerKindOf(trace.lanes[static_cast<std::size_t>(task.lane)].kind);
            byName[std::string(trace.codeletOf(task))][static_cast<std::size_t>(kind)].push_back(task.end - start);
        }
        std::vector<CodeletStats> expected;
        for (const auto& [name, perKind] : byName) {
            CodeletStats row{name, isStarpuInternalCodelet(name), {}, {}};
            std::vector<TimeNs> all;
            for (std::size_t k = 0; k < 3; ++k) {
                if (!perKind[k].empty()) {
                    row.perKind.push_back({static_cast<WorkerKind>(k), plain(perKind[k])});
                    all.insert(all.end(), perKind[k].begin(), perKind[k].end());
                }
            }
            row.all = plain(all);
            expected.push_back(row);
        }
        std::stable_sort(expected.begin(), expected.end(), [](const CodeletStats& a, const CodeletStats& b) {
            return std::pair(a.internal, -a.all.total) < std::pair(b.internal, -b.all.total);
        });
        EXPECT_EQ(computeCodeletStats(trace, from, to), expected) << "seed " << seed;
        // Cut into stretches read on threads of their own, as a large trace's tasks are.
        EXPECT_EQ(detail::computeCodeletStats(trace, from, to, 1 + seed % 4), expected) << "seed " << seed;
        EXPECT_FALSE(expected.empty());
    }
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
