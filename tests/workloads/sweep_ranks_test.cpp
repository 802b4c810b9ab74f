// `starscope sweep --ranks 1,2` and `starscope compare` over it, on real recordings: one run
// per rank count (each `record --ranks N`), sweep.json and the summary saying which ran on how
// many ranks, a rerun skipping both, and compare's scaling table (speedup and efficiency on
// train time, communication and barrier shares) agreeing with the runs' run.json and traces.

#include "tests/support/test_support.hpp"
#include "tests/workloads/run_folder.hpp"
#include "tests/workloads/starpu_mpi.hpp"

#include <cstdlib>
#include <gtest/gtest.h>
#include <sstream>

using starscope::testing::readFile;
using starscope::testing::runCommand;
using starscope::testing::TempDir;
using namespace starscope::workloads::testing;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// One strategy, 4 batches of 32 images (16 per rank on 2 ranks), one worker per rank.
const std::string kSmall = "--ranks 1,2 --arenas single --loaders naive --batches 4 --batch-size 32 "
                           "--chunk 16 --workers 1 --train-images 4000 --test-images 300";

const std::string kOne = "single-naive-r0";
const std::string kTwo = "single-naive-2ranks-r0";

int runStarscope(const std::string& args, const fs::path& log) {
    return runCommand(std::string("'") + STARSCOPE_BINARY + "' " + args + " > '" + log.string() + "' 2>&1");
}

// The sweep is recorded once for every test of this file: each recording starts StarPU-MPI.
class SweepRanks : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (!kHaveStarpuMpi) {
            return;
        }
        ignoreOpenMpiLeaksUnderAsan();
        s_dir = new TempDir;
        s_code = runStarscope("sweep --out '" + sweepDir().string() + "' " + kSmall, *s_dir / "sweep.log");
    }
    static void TearDownTestSuite() {
        delete s_dir;
        s_dir = nullptr;
    }
    static fs::path sweepDir() { return *s_dir / "sweep"; }
    static std::string sweepLog() { return readFile(*s_dir / "sweep.log"); }

    static TempDir* s_dir;
    static int s_code;
};

TempDir* SweepRanks::s_dir = nullptr;
int SweepRanks::s_code = -1;

const json* summaryRow(const json& summary, const std::string& run) {
    for (const auto& row : summary.at("runs")) {
        if (row.at("run") == run) {
            return &row;
        }
    }
    return nullptr;
}

} // namespace

TEST_F(SweepRanks, RecordsEveryRankCountWithASummaryAndResumes) {
    REQUIRE_STARPU_MPI();
    ASSERT_EQ(s_code, 0) << sweepLog();
    const std::string log = sweepLog();
    EXPECT_NE(log.find("[1/2] record " + kOne + ": completed"), std::string::npos) << log;
    EXPECT_NE(log.find("[2/2] record " + kTwo + ": completed"), std::string::npos) << log;

    // Each run was recorded with `record --ranks N` (its record.log says so): run.json with the
    // rank count and one prof file per rank.
    for (const auto& [name, ranks] : {std::pair{kOne, 1}, std::pair{kTwo, 2}}) {
        SCOPED_TRACE(name);
        const auto dir = sweepDir() / name;
        const json run = readJson(dir / "run.json");
        EXPECT_TRUE(validRunJson(run));
        EXPECT_EQ(run.at("status"), "completed");
        EXPECT_EQ(run.at("ranks"), ranks);
        EXPECT_EQ(run.at("batches_run"), 4);
        std::size_t profFiles = 0;
        for (const auto& entry : fs::directory_iterator(dir)) {
            profFiles += entry.path().filename().string().starts_with("prof_file_") ? 1U : 0U;
        }
        EXPECT_EQ(profFiles, static_cast<std::size_t>(ranks));
    }
    const std::string twoLog = readFile(sweepDir() / kTwo / "record.log");
    EXPECT_NE(twoLog.find("ranks         2 (StarPU-MPI)"), std::string::npos) << twoLog;

    const json description = readJson(sweepDir() / "sweep.json");
    EXPECT_EQ(description.at("ranks"), json::array({1, 2}));
    EXPECT_EQ(description.at("strategies"), json::array({"single+naive"}));
    // The rank count is a dimension, not an option every run shares.
    EXPECT_EQ(description.at("record_args").dump().find("--ranks"), std::string::npos);

    const json summary = readJson(sweepDir() / "summary.json");
    ASSERT_EQ(summary.at("runs").size(), 2U);
    const json* one = summaryRow(summary, kOne);
    const json* two = summaryRow(summary, kTwo);
    ASSERT_TRUE(one && two) << summary.dump(2);
    EXPECT_EQ(one->at("ranks"), 1.0);
    EXPECT_EQ(two->at("ranks"), 2.0);
    // Messages between the ranks only on 2 ranks; barriers on both.
    EXPECT_TRUE(one->at("communication_share").is_null());
    EXPECT_EQ(one->at("na").at("communication_share"), "one rank: no message between ranks");
    ASSERT_TRUE(two->at("communication_share").is_number()) << two->dump(2);
    EXPECT_GT(two->at("communication_share").get<double>(), 0.0);
    EXPECT_LE(two->at("communication_share").get<double>(), 1.0);
    for (const json* row : {one, two}) {
        ASSERT_TRUE(row->at("barrier_share").is_number()) << row->dump(2);
        EXPECT_DOUBLE_EQ(row->at("barrier_share").get<double>(),
                         row->at("barrier_total_ns").get<double>() / row->at("makespan_ns").get<double>());
    }
    const std::string csv = readFile(sweepDir() / "summary.csv");
    EXPECT_NE(csv.find(",ranks,"), std::string::npos) << csv;

    // A rerun skips both; the same sweep with another batch count is refused.
    const auto again = *s_dir / "again.log";
    ASSERT_EQ(runStarscope("sweep --out '" + sweepDir().string() + "' " + kSmall, again), 0) << readFile(again);
    const std::string rerun = readFile(again);
    EXPECT_NE(rerun.find("[1/2] skip " + kOne + " (completed)"), std::string::npos) << rerun;
    EXPECT_NE(rerun.find("[2/2] skip " + kTwo + " (completed)"), std::string::npos) << rerun;
    EXPECT_NE(rerun.find("0 recorded, 2 skipped"), std::string::npos) << rerun;

    // Resumed on 1 rank only: the 2-rank run of the earlier invocation stays in the summary,
    // and sweep.json keeps both rank counts.
    const auto fewer = *s_dir / "fewer.log";
    std::string oneRank = kSmall;
    oneRank.replace(oneRank.find("--ranks 1,2"), 11, "--ranks 1");
    ASSERT_EQ(runStarscope("sweep --out '" + sweepDir().string() + "' " + oneRank, fewer), 0) << readFile(fewer);
    EXPECT_NE(readFile(fewer).find("[1/1] skip " + kOne + " (completed)"), std::string::npos) << readFile(fewer);
    const json kept = readJson(sweepDir() / "summary.json");
    ASSERT_EQ(kept.at("runs").size(), 2U) << kept.dump(2);
    ASSERT_TRUE(summaryRow(kept, kTwo)) << kept.dump(2);
    EXPECT_EQ(summaryRow(kept, kTwo)->at("action"), "kept");
    EXPECT_EQ(summaryRow(kept, kTwo)->at("ranks"), 2.0);
    EXPECT_EQ(summaryRow(kept, kTwo)->at("speedup"), summaryRow(summary, kTwo)->at("speedup"));
    EXPECT_EQ(readJson(sweepDir() / "sweep.json").at("ranks"), json::array({1, 2}));

    // Bad rank counts fail before anything records.
    const auto bad = *s_dir / "bad.log";
    EXPECT_EQ(runStarscope("sweep --out '" + (*s_dir / "bad").string() + "' --ranks 1,0 --batches 2", bad), 2);
    EXPECT_NE(readFile(bad).find("--ranks: \"0\" is not a rank count (1..1024)"), std::string::npos) << readFile(bad);
    EXPECT_EQ(runStarscope("sweep --out '" + (*s_dir / "bad").string() + "' --ranks 3 --batch-size 32", bad), 2);
    EXPECT_NE(readFile(bad).find("must be a multiple of their number"), std::string::npos) << readFile(bad);
    EXPECT_FALSE(fs::exists(*s_dir / "bad"));
}

// compare over the two recordings: accepted without --allow-mixed, one column per rank count,
// and the scaling table from the runs' train times and traces.
TEST_F(SweepRanks, CompareShowsTheScalingTable) {
    REQUIRE_STARPU_MPI();
    ASSERT_EQ(s_code, 0) << sweepLog();
    const auto jsonLog = *s_dir / "compare.json";
    ASSERT_EQ(runStarscope("compare --json '" + sweepDir().string() + "'", jsonLog), 0) << readFile(jsonLog);
    std::string text = readFile(jsonLog);
    text = text.substr(text.find('{')); // after compare's warnings, if any
    const json doc = json::parse(text);
    ASSERT_EQ(doc.at("strategies").size(), 2U) << doc.dump(2);
    EXPECT_EQ(doc.at("strategies")[0].at("strategy"), "single+naive (1 rank)");
    EXPECT_EQ(doc.at("strategies")[0].at("ranks"), 1);
    EXPECT_EQ(doc.at("strategies")[1].at("strategy"), "single+naive (2 ranks)");
    EXPECT_EQ(doc.at("strategies")[1].at("ranks"), 2);
    EXPECT_EQ(doc.at("strategies")[1].at("metrics").at("ranks").at("value"), 2.0);

    const json& scaling = doc.at("scaling");
    EXPECT_EQ(scaling.at("time"), "train_time_s");
    ASSERT_EQ(scaling.at("rows").size(), 2U);
    const json& one = scaling.at("rows")[0];
    const json& two = scaling.at("rows")[1];
    EXPECT_EQ(one.at("ranks"), 1);
    EXPECT_EQ(two.at("ranks"), 2);
    EXPECT_EQ(one.at("speedup"), 1.0);
    EXPECT_EQ(one.at("scaling_efficiency"), 1.0);
    EXPECT_EQ(one.at("communication_share").at("reason"), "one rank: no message between ranks");
    // Speedup from the two run.json train times; efficiency per rank.
    const double t1 = readJson(sweepDir() / kOne / "run.json").at("train_time_s").get<double>();
    const double t2 = readJson(sweepDir() / kTwo / "run.json").at("train_time_s").get<double>();
    EXPECT_NEAR(two.at("speedup").get<double>(), t1 / t2, 1e-9 * t1 / t2);
    EXPECT_NEAR(two.at("scaling_efficiency").get<double>(), t1 / t2 / 2, 1e-9 * t1 / t2);
    // The summary gives the same figures.
    const json summary = readJson(sweepDir() / "summary.json");
    EXPECT_EQ(two.at("speedup"), summaryRow(summary, kTwo)->at("speedup"));
    EXPECT_EQ(two.at("scaling_efficiency"), summaryRow(summary, kTwo)->at("scaling_efficiency"));
    EXPECT_EQ(summaryRow(summary, kOne)->at("speedup"), 1.0);
    EXPECT_EQ(two.at("communication_share"), summaryRow(summary, kTwo)->at("communication_share"));
    EXPECT_EQ(two.at("barrier_share"), summaryRow(summary, kTwo)->at("barrier_share"));

    // The table has the scaling section, one line per rank count.
    const auto tableLog = *s_dir / "compare.txt";
    ASSERT_EQ(runStarscope("compare '" + (sweepDir() / kOne).string() + "' '" + (sweepDir() / kTwo).string() + "'", tableLog), 0)
        << readFile(tableLog);
    const std::string table = readFile(tableLog);
    EXPECT_NE(table.find("scaling (speedup against the strategy's 1-rank runs, on train time; medians)"), std::string::npos)
        << table;
    EXPECT_NE(table.find("single+naive (2 ranks) (1 runs)"), std::string::npos) << table;
    std::istringstream lines(table.substr(table.find("\nscaling")));
    std::size_t rows = 0;
    for (std::string line; std::getline(lines, line);) {
        rows += line.starts_with("single+naive (") ? 1U : 0U;
    }
    EXPECT_EQ(rows, 2U) << table;
}
