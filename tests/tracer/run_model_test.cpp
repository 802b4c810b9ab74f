// The run model (tracer/run/): the metric table and measureRun, pooling, and which runs may be
// compared (run.json and sweep.json themselves: run_folder_test.cpp).

#include "tests/support/test_support.hpp"
#include "tests/tracer/run_record_sample.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/run/run_comparison.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <set>

namespace starscope::tracer::run {
namespace {

namespace fs = std::filesystem;
using starscope::testing::TempDir;
using starscope::tracer::run::testing::commandRecord;
using starscope::tracer::run::testing::sampleRecord;
using starscope::tracer::testing::smallProfFile;

TEST(Metrics, TableIsCompleteAndKeysAreUnique) {
    std::set<std::string_view> keys;
    for (const auto& m : metrics()) {
        EXPECT_TRUE(keys.insert(m.key).second) << m.key;
        EXPECT_FALSE(m.label.empty());
        EXPECT_FALSE(m.computed.empty());
        EXPECT_EQ(findMetric(m.key), &m);
    }
    EXPECT_EQ(findMetric("nope"), nullptr);
}

TEST(Aggregation, MedianMinMaxAndDelta) {
    EXPECT_EQ(aggregate({3, 1, 2}), (Aggregate{2, 1, 3, 3}));
    EXPECT_EQ(aggregate({4, 1, 2, 3}), (Aggregate{2.5, 1, 4, 4}));
    EXPECT_EQ(aggregate({}).n, 0U);
    EXPECT_EQ(delta(150, 100), 0.5);
    EXPECT_FALSE(delta(1, 0));
}

// Run folders over the small test trace with the run.json given.
class RunFolders : public ::testing::Test {
protected:
    fs::path make(const std::string& name, const RunRecord& record) {
        const auto dir = makeFolder(name, record.ranks);
        EXPECT_TRUE(writeRunRecord(dir / kRunJsonName, record));
        return dir;
    }
    // One prof file per rank (the small trace each time: ranks of a job without messages).
    fs::path makeFolder(const std::string& name, std::uint64_t ranks = 1) {
        const auto dir = m_dir / name;
        fs::create_directories(dir);
        for (std::uint64_t rank = 0; rank < ranks; ++rank) {
            fs::copy_file(smallProfFile(), dir / ("prof_file__" + std::to_string(rank)),
                          fs::copy_options::overwrite_existing);
        }
        return dir;
    }
    CompareInput input(const fs::path& folder, bool named = true) {
        auto measured = measureRun(folder, 100'000);
        EXPECT_TRUE(measured) << measured.error().describe();
        return {*measured, named};
    }
    static RunRecord completed(const std::string& arenas, const std::string& loader,
                               std::uint64_t batches) {
        RunRecord r = sampleRecord();
        r.status = RunStatus::Completed;
        r.strategy = {arenas, 1, loader, ""};
        r.batchesPerEpoch = batches;
        return r;
    }
    TempDir m_dir;
};

TEST_F(RunFolders, MeasureRunReadsTheTraceAndTheRecord) {
    const auto folder = make("a", completed("single", "naive", 10));
    const auto f = input(folder).figures;
    EXPECT_EQ(f.strategy, "single+naive");
    ASSERT_TRUE(f.makespanNs.value);
    EXPECT_GT(*f.makespanNs.value, 0.0);
    EXPECT_EQ(f.wallTimeS.value, 2.5);
    EXPECT_EQ(f.peakMemoryBytes.value, static_cast<double>(1 << 20));
    EXPECT_EQ(f.ipc.reason, "no PMU");
    EXPECT_EQ(f.powerW.reason, "no RAPL");
    // IPC from the two events when the recorder wrote no ratio.
    RunRecord withEvents = completed("single", "naive", 10);
    withEvents.papi.availability = {true, true, ""};
    withEvents.papi.events = {{"PAPI_TOT_INS", true, "", 300, {}},
                              {"PAPI_TOT_CYC", true, "", 200, {}}};
    EXPECT_EQ(input(make("b", withEvents)).figures.ipc.value, 1.5);

    const auto bare = makeFolder("bare");
    const auto noRecord = input(bare).figures;
    EXPECT_EQ(noRecord.strategy, "bare");
    EXPECT_NE(noRecord.wallTimeS.reason.find("no run.json"), std::string::npos)
        << noRecord.wallTimeS.reason;
}

// A run folder without prof files: recorded --no-trace, the readers say there is no trace
// (not that the folder is empty); without a run.json saying so, the readers' own error.
TEST_F(RunFolders, AnUntracedRunSaysItHasNoTrace) {
    RunRecord untraced = completed("double", "advanced", 10);
    untraced.traced = false;
    const auto dir = m_dir / "untraced";
    fs::create_directories(dir);
    ASSERT_TRUE(writeRunRecord(dir / kRunJsonName, untraced));
    auto trace = readTrace(dir);
    ASSERT_FALSE(trace);
    EXPECT_EQ(trace.error().code, ErrorCode::Unsupported);
    EXPECT_EQ(trace.error().file, dir.string());
    EXPECT_NE(trace.error().message.find(
                  "no trace: this run was recorded without tracing (record --no-trace"),
              std::string::npos)
        << trace.error().message;
    auto measured = measureRun(dir, 100'000);
    ASSERT_FALSE(measured);
    EXPECT_EQ(measured.error().code, ErrorCode::Unsupported);

    const auto empty = m_dir / "empty";
    fs::create_directories(empty);
    auto none = readTrace(empty);
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find("no prof_file_*"), std::string::npos)
        << none.error().message;
    // A traced run is read as readTrace reads it.
    EXPECT_TRUE(readTrace(make("traced", completed("single", "naive", 10))));
}

TEST_F(RunFolders, MixedWorkloadsAreRefusedNamingTheDifferenceOrLabelledWhenAllowed) {
    const auto a = make("a", completed("single", "naive", 2));
    const auto b = make("b", completed("double", "advanced", 10));
    const auto c = make("c", completed("double", "advanced", 2));
    auto refused = compareRuns({input(a), input(b), input(c)}, {});
    ASSERT_FALSE(refused);
    EXPECT_NE(
        refused.error().message.find(b.string() + " has batches 10 (2 in " + a.string() + ")"),
        std::string::npos)
        << refused.error().message;
    EXPECT_NE(refused.error().message.find("--allow-mixed"), std::string::npos);

    CompareOptions allow;
    allow.allowMixed = true;
    auto mixed = compareRuns({input(a), input(b), input(c)}, allow);
    ASSERT_TRUE(mixed) << mixed.error().message;
    // The 10-batch run is not pooled with the 2-batch run of the same strategy.
    ASSERT_EQ(mixed->groups.size(), 3U);
    EXPECT_EQ(mixed->groups[1].name, "double+advanced [batches 10]");
    ASSERT_EQ(mixed->groups[1].differences.size(), 1U);
    EXPECT_EQ(mixed->groups[2].name, "double+advanced");
    EXPECT_TRUE(mixed->groups[2].differences.empty());
    EXPECT_EQ(mixed->baseline, "single+naive");
}

// Runs of one program are one workload, its argument sets and StarPU variables the columns;
// another program, or the CNN, is another workload.
TEST_F(RunFolders, CommandRunsAreGroupedByCommandAndOtherProgramsRefused) {
    const auto small = make("small", commandRecord({"prog", "-n", "3"}));
    // A second run of it (one that took longer: not a copy of the first).
    RunRecord again = commandRecord({"prog", "-n", "3"});
    again.wallTimeS = 9.5;
    const auto small2 = make("small2", again);
    RunRecord bigRecord = commandRecord({"prog", "-n", "30"});
    const auto big = make("big", bigRecord);
    RunRecord dmdaRecord = commandRecord({"prog", "-n", "3"});
    dmdaRecord.environment.push_back({"STARPU_SCHED", "dmda", "environment"});
    const auto dmda = make("dmda", dmdaRecord);
    auto compared = compareRuns({input(small), input(big), input(small2), input(dmda)}, {});
    ASSERT_TRUE(compared) << compared.error().message;
    ASSERT_EQ(compared->groups.size(), 3U);
    EXPECT_EQ(compared->groups[0].name, "prog -n 3 STARPU_NCPU=2");
    EXPECT_EQ(compared->groups[0].runs.size(), 2U);
    EXPECT_EQ(compared->groups[1].name, "prog -n 30 STARPU_NCPU=2");
    EXPECT_EQ(compared->groups[2].name, "prog -n 3 STARPU_NCPU=2 STARPU_SCHED=dmda");
    EXPECT_EQ(compared->baseline, "prog -n 3 STARPU_NCPU=2");

    const auto other = make("other", commandRecord({"other", "-n", "3"}));
    auto refused = compareRuns({input(small), input(other)}, {});
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find(other.string()
                                           + " has program /opt/bin/other (/opt/bin/prog in "
                                           + small.string() + ")"),
              std::string::npos)
        << refused.error().message;
    const auto cnn = make("cnn", completed("single", "naive", 10));
    auto mixed = compareRuns({input(cnn), input(small)}, {});
    ASSERT_FALSE(mixed);
    EXPECT_NE(mixed.error().message.find(small.string() + " has workload command (cnn in "
                                         + cnn.string() + ")"),
              std::string::npos)
        << mixed.error().message;
}

// Runs that differ only by rank count are compared without --allow-mixed, one column per rank
// count, with speedup and scaling efficiency against the 1-rank run's train time.
TEST_F(RunFolders, RankCountsAreComparedNotAWorkloadDifference) {
    RunRecord one = completed("single", "naive", 10);
    one.trainTimeS = 4.0;
    RunRecord two = one;
    two.ranks = 2;
    two.trainTimeS = 2.5;
    const auto a = make("two", two);
    const auto b = make("one", one);
    EXPECT_TRUE(parameterDifferences(two, one, "one").empty());
    auto c = compareRuns({input(a), input(b)}, {});
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_TRUE(c->scaling);
    ASSERT_EQ(c->groups.size(), 2U);
    // The 1-rank column first, whatever the order given: it is the default baseline.
    EXPECT_EQ(c->groups[0].name, "single+naive (1 rank)");
    EXPECT_EQ(c->groups[0].ranks, 1U);
    EXPECT_EQ(c->groups[1].name, "single+naive (2 ranks)");
    EXPECT_EQ(c->groups[1].ranks, 2U);
    EXPECT_EQ(c->baseline, "single+naive (1 rank)");
    EXPECT_EQ(c->groups[1].aggregates.at("ranks").median, 2.0);
    EXPECT_DOUBLE_EQ(c->groups[1].aggregates.at("speedup").median, 4.0 / 2.5);
    EXPECT_DOUBLE_EQ(c->groups[1].aggregates.at("scaling_efficiency").median, 4.0 / 2.5 / 2);
    EXPECT_DOUBLE_EQ(c->groups[0].aggregates.at("speedup").median, 1.0);
    // The test trace is one process: no message between ranks, but its barriers have a share;
    // the 2-rank run's two copies of it send none to each other.
    EXPECT_EQ(c->groups[0].reasons.at("communication_share"), "one rank: no message between ranks");
    EXPECT_EQ(c->groups[1].aggregates.at("communication_share").median, 0.0);
    // A CPU-only run: none of the figures of a machine with GPUs.
    EXPECT_EQ(c->groups[1].reasons.at("cuda_idleness"), "no CUDA worker in the trace");
    EXPECT_EQ(c->groups[1].reasons.at("transfer_bytes"), "one kind of worker and no transfer");
    const auto& share = c->groups[0].aggregates.at("barrier_share").median;
    EXPECT_DOUBLE_EQ(share, c->groups[0].aggregates.at("barrier_total_ns").median
                                / c->groups[0].aggregates.at("makespan_ns").median);

    // Without a 1-rank run there is nothing to scale against, and the reason says so.
    auto alone = compareRuns({input(a)}, {});
    ASSERT_TRUE(alone) << alone.error().message;
    EXPECT_FALSE(alone->scaling);
    EXPECT_EQ(alone->groups[0].name, "single+naive");
    EXPECT_EQ(alone->groups[0].reasons.at("speedup"), kNoScalingReference);
}

TEST_F(RunFolders, SameRunTwiceCountsOnceAndABrokenRecordNeverBecomesTheBaseline) {
    const auto a = make("a", completed("single", "naive", 2));
    const auto broken = makeFolder("broken");
    std::ofstream(broken / kRunJsonName) << "{ not json";
    auto c = compareRuns({input(broken), input(a), input(m_dir / "a" / ".." / "a")}, {});
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(c->baseline, "single+naive");
    ASSERT_EQ(c->groups.size(), 2U);
    EXPECT_EQ(c->groups[0].runs.size(), 1U);
    EXPECT_EQ(c->groups[1].name, "broken");
    EXPECT_EQ(c->groups[0].aggregates.at("makespan_ns").n, 1U);
    std::string warnings;
    for (const auto& w : c->warnings) {
        warnings += w + "\n";
    }
    EXPECT_NE(warnings.find("given more than once, counted once"), std::string::npos) << warnings;
    EXPECT_NE(warnings.find(broken.string() + "/run.json: not valid JSON"), std::string::npos)
        << warnings;
    EXPECT_NE(c->groups[1].reasons.at("wall_time_s").find("not valid JSON"), std::string::npos);
}

TEST_F(RunFolders, UnfinishedRunsOfASweepAreSkippedNamedOnesKept) {
    RunRecord interrupted = completed("single", "naive", 2);
    interrupted.status = RunStatus::Interrupted;
    const auto a = make("a", interrupted);
    const auto b = make("b", completed("double", "naive", 2));
    auto c = compareRuns({input(a, false), input(b, false)}, {});
    ASSERT_TRUE(c);
    ASSERT_EQ(c->groups.size(), 1U);
    EXPECT_EQ(c->warnings.front(), "skipping " + a.string() + ": its run is interrupted");
    auto named = compareRuns({input(a, true), input(b, true)}, {});
    ASSERT_TRUE(named);
    EXPECT_EQ(named->groups.size(), 2U);
    auto badBaseline = compareRuns({input(b)}, {"nope", {}, false});
    ASSERT_FALSE(badBaseline);
    EXPECT_NE(badBaseline.error().message.find("--baseline nope"), std::string::npos);
}

} // namespace
} // namespace starscope::tracer::run
