// `starscope record` under faults: SIGINT at random points (fixed seed) leaves a run that the
// tracer and `starscope stats` read; SIGKILL leaves a run whose reader names what is missing
// or truncated (FxT keeps its buffer in memory until shutdown); an output folder removed
// mid-run, or on a disk that is or becomes full, makes the recorder say so and exit non-zero,
// naming every rank of a two-rank job whose files could not be written.
#include "tests/support/small_file_system.hpp"
#include "tests/support/test_support.hpp"
#include "tests/workloads/run_folder.hpp"
#include "tests/workloads/starpu_mpi.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace starscope::hardening {
namespace {

namespace fs = std::filesystem;
using starscope::testing::SmallFileSystem;
using starscope::testing::TempDir;
using starscope::workloads::testing::hasEnded;
using starscope::workloads::testing::waitUntilTraining;

struct Exit {
    bool signalled = false;
    int code = 0;   // exit status, or the signal number when signalled
};

// Starts `starscope ARGS...` with stdout/stderr going to files in logDir.
pid_t spawnStarscope(const std::vector<std::string>& args, const fs::path& logDir) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int out = ::open((logDir / "stdout.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err = ::open((logDir / "stderr.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(out, STDOUT_FILENO);
        ::dup2(err, STDERR_FILENO);
        std::vector<char*> argv;
        std::string program = STARSCOPE_EXECUTABLE;
        argv.push_back(program.data());
        std::vector<std::string> copy = args;
        for (auto& a : copy) {
            argv.push_back(a.data());
        }
        argv.push_back(nullptr);
        ::execv(program.c_str(), argv.data());
        ::_exit(127);
    }
    return pid;
}

Exit waitFor(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        return {true, WTERMSIG(status)};
    }
    return {false, WEXITSTATUS(status)};
}

Exit runStarscope(const std::vector<std::string>& args, const fs::path& logDir) {
    return waitFor(spawnStarscope(args, logDir));
}

// A short training run: a few epochs of a thousand images, two workers.
std::vector<std::string> recordArgs(const fs::path& out) {
    return {"record", "--out", out.string(), "--epochs", "3", "--batch-size", "32", "--workers", "2",
            "--train-images", "1000", "--test-images", "100"};
}

// Long enough that a SIGKILL within 1.2 s always lands mid-run, even on an idle machine; the
// kill ends it at once, so the length costs nothing.
std::vector<std::string> longRecordArgs(const fs::path& out) {
    return {"record", "--out", out.string(), "--epochs", "3", "--batch-size", "32", "--workers", "2",
            "--train-images", "20000", "--test-images", "100"};
}

// Case 0 interrupts at once, while record still checks its input and loads the dataset (slow
// under sanitizers); the others at random points once the run folder exists, i.e. once record
// has started writing and handles Ctrl-C itself.
TEST(RecordFaults, SigintAtRandomPointsLeavesAReadableRun) {
    std::mt19937 random(8);
    std::uniform_int_distribution<int> delayMs(0, 800);
    int interrupted = 0;
    for (int c = 0; c < 5; ++c) {
        TempDir dir;
        const auto run = dir / "run";
        const pid_t pid = spawnStarscope(recordArgs(run), dir.path());
        int delay = 10;
        if (c > 0) {
            for (int i = 0; i < 3000 && !fs::exists(run); ++i) {
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            delay = delayMs(random);
        }
        SCOPED_TRACE("SIGINT after " + std::to_string(delay) + " ms" + (c > 0 ? " of the run" : ""));
        std::this_thread::sleep_for(std::chrono::milliseconds(delay));
        ::kill(pid, SIGINT);
        const Exit exit = waitFor(pid);
        const auto stderrText = starscope::testing::readFile(dir / "stderr.txt");
        if (c == 0 && exit.signalled && exit.code == SIGINT) {
            // Ended before record wrote anything: nothing may be left.
            EXPECT_FALSE(fs::exists(run)) << "a Ctrl-C during start-up left " << run;
            continue;
        }
        ASSERT_FALSE(exit.signalled) << "killed by signal " << exit.code << "\n" << stderrText;
        ASSERT_TRUE(fs::exists(run / "run.json")) << stderrText;
        const auto json = nlohmann::json::parse(starscope::testing::readFile(run / "run.json"));
        // A SIGINT that lands after the last batch may find the run already completed.
        const auto status = json.at("status").get<std::string>();
        EXPECT_TRUE(status == "interrupted" || status == "completed") << status << "\n" << stderrText;
        EXPECT_EQ(exit.code, status == "interrupted" ? 130 : 0) << stderrText;
        if (status == "completed") {
            continue;
        }
        ++interrupted;
        auto trace = tracer::readTrace(run);
        ASSERT_TRUE(trace.ok()) << trace.error().describe();
        EXPECT_FALSE(trace->lanes.empty());
        const auto stats = runStarscope({"stats", run.string()}, dir.path());
        EXPECT_FALSE(stats.signalled);
        EXPECT_EQ(stats.code, 0) << starscope::testing::readFile(dir / "stderr.txt");
        EXPECT_NE(starscope::testing::readFile(dir / "stdout.txt").find("worker"), std::string::npos);
    }
    RecordProperty("interrupted", interrupted);
    EXPECT_GT(interrupted, 0) << "every run ended before its SIGINT: nothing was tested";
}

TEST(RecordFaults, SigkillLeavesARunWhoseReaderNamesTheMissingTrace) {
    std::mt19937 random(9);
    std::uniform_int_distribution<int> delayMs(300, 1200);
    for (int c = 0; c < 2; ++c) {
        TempDir dir;
        const auto run = dir / "run";
        const int delay = delayMs(random);
        SCOPED_TRACE("SIGKILL after " + std::to_string(delay) + " ms");
        const pid_t pid = spawnStarscope(longRecordArgs(run), dir.path());
        std::this_thread::sleep_for(std::chrono::milliseconds(delay));
        ::kill(pid, SIGKILL);
        const Exit exit = waitFor(pid);
        ASSERT_TRUE(exit.signalled);
        if (!fs::is_directory(run)) {
            continue;   // killed before the folder was made: nothing to read, nothing lost
        }
        auto trace = tracer::readTrace(run);
        if (trace.ok()) {
            // Whatever FxT had flushed reads only as a partial trace, and says so.
            EXPECT_FALSE(trace->warnings.empty());
        } else {
            const auto message = trace.error().describe();
            EXPECT_NE(message.find(run.filename().string()), std::string::npos) << message;
        }
        const auto stats = runStarscope({"stats", run.string()}, dir.path());
        EXPECT_FALSE(stats.signalled) << "stats killed by signal " << stats.code;
        if (!trace.ok()) {
            EXPECT_NE(stats.code, 0);
            EXPECT_NE(starscope::testing::readFile(dir / "stderr.txt").find(run.string()), std::string::npos)
                << starscope::testing::readFile(dir / "stderr.txt");
        }
    }
}

// A run long enough (twenty epochs of a thousand images) that signals sent once a batch has
// finished land before it ends; the run stops at the next batch boundary, so it costs little.
pid_t spawnLongRun(const fs::path& run, const fs::path& logDir) {
    auto args = recordArgs(run);
    args[4] = "20";
    const pid_t pid = spawnStarscope(args, logDir);
    EXPECT_TRUE(waitUntilTraining(logDir / "stderr.txt", pid));
    return pid;
}

TEST(RecordFaults, OutputFolderRemovedMidRunIsReported) {
    TempDir dir;
    const auto run = dir / "run";
    const pid_t pid = spawnLongRun(run, dir.path());
    fs::remove_all(run);
    const Exit exit = waitFor(pid);
    const auto stderrText = starscope::testing::readFile(dir / "stderr.txt");
    ASSERT_FALSE(exit.signalled) << "killed by signal " << exit.code << "\n" << stderrText;
    EXPECT_NE(exit.code, 0);
    EXPECT_NE(stderrText.find(run.string()), std::string::npos) << stderrText;
}

// Until text appears in file (the recorder's answer to a signal), at most a minute; false at once
// when pid (if given) ended without writing it.
bool waitForText(const fs::path& file, const std::string& text, pid_t pid = 0) {
    for (int i = 0; i < 6000; ++i) {
        if (starscope::testing::readFile(file).find(text) != std::string::npos) {
            return true;
        }
        if (pid != 0 && hasEnded(pid)) {
            return starscope::testing::readFile(file).find(text) != std::string::npos;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

struct StopCase {
    int signal;
    int count; // signals sent, each once the previous one was acknowledged
    const char* name;
};

class RecordStopSignal : public ::testing::TestWithParam<StopCase> {};

// SIGTERM (a service manager, `kill`), SIGHUP (the terminal closed) and a second Ctrl-C used to
// end record at once: an empty run folder, no run.json, no word. Each now stops at a batch
// boundary with a readable trace, says what it does, and exits as a shell reports the signal.
TEST_P(RecordStopSignal, StopsAtABatchBoundaryWithAReadableTraceAndSaysSo) {
    const auto [signal, count, name] = GetParam();
    TempDir dir;
    const auto run = dir / "run";
    const pid_t pid = spawnLongRun(run, dir.path());
    ASSERT_TRUE(fs::exists(run / ".starscope.lock")) << starscope::testing::readFile(dir / "stderr.txt");
    ASSERT_EQ(::kill(pid, signal), 0);
    const std::string first = std::string(name) + ": stopping after the batch in progress";
    EXPECT_TRUE(waitForText(dir / "stderr.txt", first)) << starscope::testing::readFile(dir / "stderr.txt");
    for (int i = 1; i < count; ++i) {
        // The run may have ended after its last batch meanwhile (a fast machine): nothing to check then.
        ::kill(pid, signal);
        EXPECT_TRUE(waitForText(dir / "stderr.txt", "still stopping", pid) || hasEnded(pid))
            << starscope::testing::readFile(dir / "stderr.txt");
    }
    const Exit exit = waitFor(pid);
    const auto stderrText = starscope::testing::readFile(dir / "stderr.txt");
    ASSERT_FALSE(exit.signalled) << "killed by signal " << exit.code << "\n" << stderrText;
    EXPECT_EQ(exit.code, 128 + signal) << stderrText;
    const auto json = nlohmann::json::parse(starscope::testing::readFile(run / "run.json"));
    EXPECT_EQ(json.at("status"), "interrupted");
    EXPECT_EQ(json.at("interrupted_by"), name);
    auto trace = tracer::readTrace(run);
    ASSERT_TRUE(trace.ok()) << trace.error().describe();
    EXPECT_FALSE(trace->lanes.empty());
}

INSTANTIATE_TEST_SUITE_P(Signals, RecordStopSignal,
                         ::testing::Values(StopCase{SIGTERM, 1, "SIGTERM"}, StopCase{SIGHUP, 1, "SIGHUP"},
                                           StopCase{SIGINT, 2, "SIGINT"}),
                         [](const ::testing::TestParamInfo<StopCase>& param) {
                             return std::string(param.param.name) + "x" + std::to_string(param.param.count);
                         });

// Two records into one folder used to both run, and one trace was silently lost. The second
// is now refused at once, naming the first one's pid, and the first goes on untouched.
TEST(RecordFaults, ASecondRecordIntoALockedFolderIsRefusedWithTheHoldersPid) {
    TempDir dir;
    const auto run = dir / "run";
    const pid_t first = spawnLongRun(run, dir.path());
    ASSERT_TRUE(fs::exists(run / ".starscope.lock")) << starscope::testing::readFile(dir / "stderr.txt");
    const fs::path secondLogs = dir / "second";
    fs::create_directory(secondLogs);
    for (const bool force : {false, true}) {
        auto args = recordArgs(run);
        if (force) {
            args.push_back("--force");
        }
        const Exit second = runStarscope(args, secondLogs);
        const auto stderrText = starscope::testing::readFile(secondLogs / "stderr.txt");
        EXPECT_FALSE(second.signalled);
        EXPECT_NE(second.code, 0) << stderrText;
        EXPECT_NE(stderrText.find("being written by another starscope (pid " + std::to_string(first) + ")"),
                  std::string::npos)
            << stderrText;
    }
    EXPECT_FALSE(fs::exists(run / "run.json")); // the refused ones wrote nothing
    ::kill(first, SIGTERM);
    const Exit exit = waitFor(first);
    EXPECT_EQ(exit.code, 128 + SIGTERM) << starscope::testing::readFile(dir / "stderr.txt");
    EXPECT_TRUE(tracer::readTrace(run).ok());
    // Released with the process: the folder can be recorded again.
    EXPECT_EQ(runStarscope([&] {
                  auto args = recordArgs(run);
                  args[4] = "1";
                  args.push_back("--force");
                  return args;
              }(),
                           secondLogs)
                  .code,
              0)
        << starscope::testing::readFile(secondLogs / "stderr.txt");
}

// What a full disk must leave: a non-zero exit, a message naming the run folder and saying
// its file system is full, and whatever was written readable as an error naming the folder or
// a trace with warnings.
void expectFullDiskReported(const Exit& exit, const fs::path& run, const fs::path& logDir) {
    const auto stderrText = starscope::testing::readFile(logDir / "stderr.txt");
    ASSERT_FALSE(exit.signalled) << "killed by signal " << exit.code << "\n" << stderrText;
    EXPECT_NE(exit.code, 0) << stderrText;
    EXPECT_NE(stderrText.find(run.string()), std::string::npos) << stderrText;
    EXPECT_NE(stderrText.find("is full"), std::string::npos) << stderrText;
    if (fs::exists(run / "run.json")) {
        const auto json = nlohmann::json::parse(starscope::testing::readFile(run / "run.json"));
        EXPECT_EQ(json.at("status").get<std::string>(), "failed");
    }
    auto trace = tracer::readTrace(run);
    if (trace.ok()) {
        EXPECT_FALSE(trace->warnings.empty()) << "a cut trace read without a warning";
    } else {
        EXPECT_NE(trace.error().describe().find(run.string()), std::string::npos) << trace.error().describe();
    }
}

TEST(RecordFaults, TraceThatDoesNotFitOnTheDiskIsReported) {
    TempDir dir;
    const SmallFileSystem disk(dir / "disk", 256 * 1024);
    if (!disk.mounted()) {
        GTEST_SKIP() << disk.why();
    }
    const auto run = dir / "disk" / "run";
    const Exit exit = runStarscope(recordArgs(run), dir.path());
    const auto stderrText = starscope::testing::readFile(dir / "stderr.txt");
    // Told before the run, not only after it; libfxt writes what fits, which is found cut.
    EXPECT_NE(stderrText.find("warning: 0 MiB free in " + run.string()), std::string::npos) << stderrText;
    EXPECT_NE(stderrText.find("cut short"), std::string::npos) << stderrText;
    expectFullDiskReported(exit, run, dir.path());
}

TEST(RecordFaults, DiskFillingUpMidRunIsReported) {
    TempDir dir;
    const SmallFileSystem disk(dir / "disk", 256 * 1024 * 1024);
    if (!disk.mounted()) {
        GTEST_SKIP() << disk.why();
    }
    const auto run = dir / "disk" / "run";
    // A run that lasts seconds after its workers start: a six-epoch one could end within the
    // time the fill takes on a fast release build, and write its trace before the disk is full.
    const pid_t pid = spawnLongRun(run, dir.path());
    // FxT writes its file whenever a buffer is full and when the run ends: it finds the disk
    // full at one of them, mid-run or at the end.
    EXPECT_GT(disk.fill(), 0u);
    expectFullDiskReported(waitFor(pid), run, dir.path());
}

// Two ranks whose weight checksums cannot be written (the disk holds no new file once both prof
// files exist, which a 1 MiB FxT buffer makes happen at its first flush mid-run; the prof files
// still grow): record names every rank's file, leaves none empty or partial behind and no summary
// line without a path.
TEST(RecordFaults, EveryRankWhoseWeightsCannotBeWrittenIsNamed) {
    REQUIRE_STARPU_MPI();
    TempDir dir;
    const SmallFileSystem disk(dir / "disk", 256 * 1024 * 1024, 64);
    if (!disk.mounted()) {
        GTEST_SKIP() << disk.why();
    }
    const auto run = dir / "disk" / "run";
    const pid_t pid = spawnStarscope({"record", "--ranks", "2", "--out", run.string(), "--batches", "400",
                                      "--batch-size", "32", "--workers", "1", "--train-images", "20000",
                                      "--test-images", "100", "--buffer-mb", "1"},
                                     dir.path());
    for (int i = 0; i < 30000 && tracer::run::findProfFiles(run).size() < 2 && !hasEnded(pid); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_EQ(tracer::run::findProfFiles(run).size(), 2U) << starscope::testing::readFile(dir / "stderr.txt");
    EXPECT_GT(disk.fillInodes(), 0U);
    // The run ends at the next batch: what follows is the same as at its natural end.
    ::kill(pid, SIGTERM);
    const Exit exit = waitFor(pid);
    const auto stderrText = starscope::testing::readFile(dir / "stderr.txt");
    const auto stdoutText = starscope::testing::readFile(dir / "stdout.txt");
    ASSERT_FALSE(exit.signalled) << stderrText;
    EXPECT_EQ(exit.code, 1) << stderrText;
    for (const int rank : {0, 1}) {
        const auto weights = run / ("weights_rank_" + std::to_string(rank) + ".txt");
        EXPECT_NE(stderrText.find("rank " + std::to_string(rank) + " on "), std::string::npos) << stderrText;
        EXPECT_NE(stderrText.find(weights.string() + ": cannot write the weight checksums"), std::string::npos)
            << stderrText;
        EXPECT_FALSE(fs::exists(weights));
    }
    std::cout << stdoutText.substr(stdoutText.find("  rank 0"));
    EXPECT_EQ(stdoutText.find("weights in \n"), std::string::npos) << stdoutText;
    EXPECT_NE(stdoutText.find("no weight checksums"), std::string::npos) << stdoutText;
    // The traces are whole: only new files could not be made.
    EXPECT_EQ(tracer::run::findProfFiles(run).size(), 2U);
    EXPECT_TRUE(tracer::readTrace(run).ok());
}

} // namespace
} // namespace starscope::hardening
