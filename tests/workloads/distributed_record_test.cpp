// `starscope record` on several StarPU-MPI ranks (oversubscribed on this machine): every rank
// writes its own readable prof file into the one run folder, with StarPU-MPI's message events
// in it; rank 0 writes run.json with the rank count; the ranks hold identical weights after
// every step (their per-step checksums agree and change from step to step); a stop signal to
// the job (SIGTERM, or Ctrl-C, which the job reports as the user's), or a SIGTERM to one rank,
// ends every rank at a batch boundary with every trace kept.

#include "tests/support/test_support.hpp"
#include "tests/workloads/run_folder.hpp"
#include "tests/workloads/starpu_mpi.hpp"

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using starscope::testing::TempDir;
using namespace starscope::workloads::testing;

extern char** environ;

namespace {

// FxT codes StarPU-MPI writes (start, sends, receives, ...).
constexpr std::uint64_t kFirstMpiCode = 0x5201;
constexpr std::uint64_t kLastMpiCode = 0x52ff;

// Open MPI refuses root without these, and mpirun run directly needs them too.
const std::string kMpiEnvironment = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ";

// A short run: 12 batches of 32 images (16 per rank), one worker per rank.
const std::string kShortRun =
    "--batches 12 --batch-size 32 --chunk 16 --workers 1 --train-images 4000 --test-images 300";

// Per-step weight checksums of a rank, in step order.
std::vector<std::string> checksums(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::vector<std::string> lines;
    std::size_t step = 0;
    std::string checksum;
    while (in >> step >> checksum) {
        EXPECT_EQ(step, lines.size()) << file;
        lines.push_back(checksum);
    }
    return lines;
}

// Every rank's trace is there, readable, and has StarPU-MPI's events; the ranks' weights agree
// at every step. Returns the steps.
std::size_t expectRanksAgree(const std::filesystem::path& out, int ranks) {
    const auto traces = findProfFiles(out);
    EXPECT_EQ(traces.size(), static_cast<std::size_t>(ranks));
    std::set<std::string> suffixes;
    for (const auto& trace : traces) {
        // The run's tasks, not only StarPU's start and end: every rank trained at least one
        // step, which is 6 tasks or more on every rank (a chunk's 3 layer tasks, 2 SGD steps
        // and the checksum of its weights).
        const auto model = starscope::tracer::readTrace(trace);
        EXPECT_TRUE(model) << trace << ": " << model.error().describe();
        if (model) {
            EXPECT_GE(model->tasks.size(), 6U) << trace;
        }
        EXPECT_GT(fxtEventCount(trace, kFirstMpiCode, kLastMpiCode), 0) << trace << " has no StarPU-MPI event";
        const auto name = trace.filename().string();
        suffixes.insert(name.substr(name.rfind('_') + 1));
    }
    // StarPU-MPI names them prof_file_USER_RANK.
    std::set<std::string> expected;
    for (int r = 0; r < ranks; ++r) {
        expected.insert(std::to_string(r));
    }
    EXPECT_EQ(suffixes, expected);
    const auto first = checksums(out / "weights_rank_0.txt");
    for (int r = 1; r < ranks; ++r) {
        EXPECT_EQ(checksums(out / ("weights_rank_" + std::to_string(r) + ".txt")), first)
            << "rank " << r << " holds other weights than rank 0";
    }
    // The weights change at every step: equal checksums are not equal by being constant.
    for (std::size_t s = 1; s < first.size(); ++s) {
        EXPECT_NE(first[s], first[s - 1]) << "step " << s;
    }
    return first.size();
}

std::string readAll(const std::filesystem::path& path) { return starscope::testing::readFile(path); }

// The ranks of a job: processes running `record` into `out`, other than the launcher and
// mpirun itself.
std::vector<pid_t> rankProcesses(const std::string& out, pid_t launcher) {
    std::vector<pid_t> pids;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        const pid_t pid = std::stoi(name);
        std::ifstream in(entry.path() / "cmdline", std::ios::binary);
        std::string cmdline;
        for (std::string arg; std::getline(in, arg, '\0');) {
            cmdline += arg + ' ';
        }
        if (pid != launcher && cmdline.find(out) != std::string::npos
            && cmdline.find(" record ") != std::string::npos && cmdline.rfind("mpirun", 0) != 0
            && cmdline.find("orted") == std::string::npos) {
            pids.push_back(pid);
        }
    }
    return pids;
}

// The job's rank processes, once its training is under way (rank 0 reported a finished batch).
std::vector<pid_t> trainingRanks(const std::string& out, const std::string& log, pid_t launcher) {
    EXPECT_TRUE(waitUntilTraining(log, launcher));
    return rankProcesses(out, launcher);
}

std::vector<std::string> longRun(const std::string& out) {
    return {STARSCOPE_BINARY, "record", "--ranks", "2", "--epochs", "5", "--workers", "1",
            "--out", out};
}

} // namespace

TEST(DistributedRecord, TwoRanksHoldIdenticalWeightsAfterEveryStep) {
    REQUIRE_STARPU_MPI();
    TempDir dir;
    const auto out = dir / "run";
    const auto log = dir / "log.txt";
    ASSERT_EQ(starscope::testing::runCommand(kMpiEnvironment + "'" + STARSCOPE_BINARY
                                             + "' record --ranks 2 " + kShortRun + " --out '"
                                             + out.string() + "' > '" + log.string() + "' 2>&1"),
              0)
        << readAll(log);
    EXPECT_EQ(expectRanksAgree(out, 2), 12U) << readAll(log);
    const auto run = readJson(out / "run.json");
    ASSERT_TRUE(validRunJson(run));
    EXPECT_EQ(run["status"], "completed");
    EXPECT_EQ(run["ranks"], 2);
    EXPECT_EQ(run["batch_size"], 32);
    EXPECT_EQ(run["batches_run"], 12);
    EXPECT_EQ(run["starpu"]["fxt"]["trace_files"].size(), 2U);
    EXPECT_EQ(run["test"]["images"], 300);
}

TEST(DistributedRecord, MpirunStartedByTheUserRunsTheSameJob) {
    REQUIRE_STARPU_MPI();
    TempDir dir;
    const auto out = dir / "run";
    const auto log = dir / "log.txt";
    ASSERT_EQ(starscope::testing::runCommand(
                  kMpiEnvironment + "mpirun -np 2 --oversubscribe --bind-to none -x STARPU_WORKERS_NOBIND=1 '"
                  + STARSCOPE_BINARY + "' record " + kShortRun + " --out '" + out.string()
                  + "' > '" + log.string() + "' 2>&1 < /dev/null"),
              0)
        << readAll(log);
    EXPECT_EQ(expectRanksAgree(out, 2), 12U) << readAll(log);
    const auto run = readJson(out / "run.json");
    EXPECT_EQ(run["status"], "completed");
    EXPECT_EQ(run["ranks"], 2);
}

TEST(DistributedRecord, BatchNotSplittableBetweenRanksIsRefusedByEveryRank) {
    REQUIRE_STARPU_MPI();
    TempDir dir;
    const auto out = dir / "run";
    const auto log = dir / "log.txt";
    const int status = starscope::testing::runCommand(
        kMpiEnvironment + "'" + STARSCOPE_BINARY + "' record --ranks 2 --batch-size 33 --out '"
        + out.string() + "' > '" + log.string() + "' 2>&1");
    EXPECT_NE(status, 0);
    const auto text = readAll(log);
    EXPECT_NE(text.find("--batch-size"), std::string::npos) << text;
    EXPECT_NE(text.find("multiple of their number"), std::string::npos) << text;
    EXPECT_FALSE(std::filesystem::exists(out / "run.json"));
}

namespace {

// A long job, sent a stop signal once it trains: to the launcher (as `timeout -s TERM` does, or
// Ctrl-C, which reaches the launcher only: mpirun runs in a process group of its own) or to one
// rank. Every rank stops at the same batch boundary after at least one step, with its trace.
void expectSignalStopsTheJob(int signal, bool toOneRank) {
    TempDir dir;
    const auto out = dir / "run";
    const std::string logPath = (dir / "log.txt").string();
    const pid_t pid = spawnLogged(longRun(out.string()), logPath);
    ASSERT_GT(pid, 0);
    const auto ranks = trainingRanks(out.string(), logPath, pid);
    ASSERT_EQ(ranks.size(), 2U) << readAll(logPath);
    ASSERT_EQ(::kill(toOneRank ? ranks.back() : pid, signal), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << readAll(logPath);
    const auto steps = expectRanksAgree(out, 2);
    EXPECT_GT(steps, 0U);
    EXPECT_LT(steps, 5U * 937U);
    const auto run = readJson(out / "run.json");
    EXPECT_EQ(run["status"], "interrupted") << readAll(logPath);
    if (!toOneRank) {
        // What the user sent, not the SIGTERM mpirun passed on to the ranks, said once.
        EXPECT_EQ(WEXITSTATUS(status), 128 + signal) << readAll(logPath);
        ASSERT_TRUE(validRunJson(run)) << readAll(logPath);
        const std::string name = signal == SIGINT ? "SIGINT" : "SIGTERM";
        EXPECT_EQ(run["interrupted_by"], name);
        EXPECT_EQ(run["ranks"], 2);
        EXPECT_EQ(run["batches_run"].get<std::size_t>(), steps);
        const auto log = readAll(logPath);
        const std::string said = "starscope record: " + name + ": every rank stops after the batch in progress";
        const auto first = log.find(said);
        EXPECT_NE(first, std::string::npos) << log;
        EXPECT_EQ(log.find(said, first + 1), std::string::npos) << log;
        EXPECT_EQ(log.find("stopping after the batch in progress"), std::string::npos) << log;
    }
}

} // namespace

TEST(DistributedRecord, SigtermToTheJobStopsEveryRankAndKeepsEveryTrace) {
    REQUIRE_STARPU_MPI();
    expectSignalStopsTheJob(SIGTERM, false);
}

TEST(DistributedRecord, CtrlCToTheJobIsWhatTheRunRecordsAndExitsWith) {
    REQUIRE_STARPU_MPI();
    expectSignalStopsTheJob(SIGINT, false);
}

TEST(DistributedRecord, SigtermToOneRankStopsTheWholeJob) {
    REQUIRE_STARPU_MPI();
    expectSignalStopsTheJob(SIGTERM, true);
}
