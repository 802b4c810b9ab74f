// `starscope record --ranks N -- PROGRAM` where the job does not go as planned: a program that is
// not StarPU-MPI (its ranks write one prof file between them), and an mpirun that never ends
// after its ranks did. Real StarPU examples under Open MPI's real mpirun.

#include "tests/support/test_support.hpp"
#include "tests/workloads/program_support.hpp"
#include "tests/workloads/run_folder.hpp"
#include "tests/workloads/starpu_mpi.hpp"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <sys/wait.h>
#include <thread>

namespace {

namespace fs = std::filesystem;
using starscope::testing::readFile;
using starscope::testing::TempDir;
using starscope::workloads::testing::example;
using starscope::workloads::testing::readJson;
using starscope::workloads::testing::record;

// StarPU's sgemm knows nothing of MPI: under `mpirun -np 2` both processes are rank 0 to StarPU
// and write prof_file_USER_0 over each other. The run is marked failed, run.json counts the two
// ranks started (so readers name the rank missing), and the summary says how many files there are.
TEST(RecordProgramRanks, FewerProfFilesThanRanksAreSaidAndTheRunMarked) {
    REQUIRE_STARPU_MPI();
    const auto program = example("starpu_example_sgemm");
    REQUIRE_EXAMPLE(program);
    TempDir dir;
    const auto run = dir / "run";
    const auto recorded = record(dir, "--ranks 2 --out '" + run.string() + "' -- '"
                                          + program.string() + "' -size 256 -iter 1");
    EXPECT_EQ(recorded.status, 1) << recorded.output;
    EXPECT_NE(recorded.output.find("run failed: " + run.string()), std::string::npos)
        << recorded.output;
    EXPECT_NE(recorded.output.find("ranks         2 (mpirun -np 2), 1 prof file (see error)"),
              std::string::npos)
        << recorded.output;
    const std::string why =
        "--ranks 2 started 2 ranks, the run folder holds 1 prof file (prof_file_";
    EXPECT_NE(recorded.output.find(why), std::string::npos) << recorded.output;
    const auto json = readJson(run / "run.json");
    EXPECT_EQ(json["status"], "failed");
    EXPECT_EQ(json["ranks"], 2);
    EXPECT_EQ(json["starpu"]["fxt"]["trace_files"].size(), 1U);
    EXPECT_NE(json["error"].get<std::string>().find(why), std::string::npos) << json["error"];
}

// Whether process pid catches SIGINT (its SigCgt mask): StarPU installs its handler at the end
// of starpu_init.
bool catchesSigint(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("SigCgt:")) {
            return (std::stoull(line.substr(7), nullptr, 16) & (1ULL << (SIGINT - 1))) != 0;
        }
    }
    return false;
}

// Open MPI once left a SIGKILLed rank unreaped, its mpirun waiting on a futex forever, and record
// waited for that mpirun forever. A stopped mpirun does the same for sure: it reaps nothing and
// never exits. Once every rank has ended, record gives mpirun a bounded grace, kills it, reaps
// what it left and says so.
TEST(RecordProgramRanks, AnMpirunThatOutlivesEveryRankIsKilledAndNamed) {
    REQUIRE_STARPU_MPI();
    const auto program = example("starpu_mpi_example_stencil5");
    REQUIRE_EXAMPLE(program);
    TempDir dir;
    const auto run = dir / "run";
    const auto log = dir / "record.log";
    ::setenv("STARPU_NCPU", "1", 1);
    // Minutes of work unless stopped.
    const pid_t pid = starscope::workloads::testing::spawnLogged(
        {STARSCOPE_BINARY, "record", "--ranks", "2", "--out", run.string(), "--", program.string(),
         "-iter", "1000000"},
        log.string(), true);
    ::unsetenv("STARPU_NCPU");
    ASSERT_GT(pid, 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    pid_t mpirun = 0;
    std::vector<pid_t> ranks;
    const auto bothStarted = [&] {
        const auto children = starscope::workloads::testing::childrenOf(pid);
        mpirun = children.size() == 1 ? children.front() : 0;
        ranks =
            mpirun != 0 ? starscope::workloads::testing::childrenOf(mpirun) : std::vector<pid_t>{};
        return ranks.size() == 2 && catchesSigint(ranks[0]) && catchesSigint(ranks[1]);
    };
    while (!bothStarted() && std::chrono::steady_clock::now() < deadline
           && !starscope::workloads::testing::hasEnded(pid)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!bothStarted()) {
        starscope::workloads::testing::waitWithDeadline(pid, std::chrono::seconds(0));
        FAIL() << readFile(log);
    }
    ASSERT_EQ(::kill(mpirun, SIGSTOP), 0);
    for (const pid_t rank : ranks) {
        ASSERT_EQ(::kill(rank, SIGKILL), 0);
    }
    // record's grace: twice mpirun's 10 s sigkill timeout and 5 s.
    const auto ended =
        starscope::workloads::testing::waitWithDeadline(pid, std::chrono::minutes(2));
    const auto output = readFile(log);
    ASSERT_TRUE(ended) << "record still waited for mpirun 2 minutes after its ranks ended: "
                       << output;
    ASSERT_TRUE(WIFEXITED(*ended)) << output;
    EXPECT_EQ(WEXITSTATUS(*ended), 128 + SIGKILL) << output;
    EXPECT_NE(output.find("mpirun had not ended "), std::string::npos) << output;
    EXPECT_NE(output.find(" s after its last rank: record killed it (SIGKILL)"), std::string::npos)
        << output;
    // Nothing is left: mpirun and its ranks were reaped.
    for (const pid_t gone : {mpirun, ranks[0], ranks[1]}) {
        EXPECT_NE(::kill(gone, 0), 0) << gone;
    }
}

} // namespace
