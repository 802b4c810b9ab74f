// `starscope record -- PROGRAM` driven the way shells, job schedulers and scripts drive a
// program: a signal to record's whole process group, `nohup`, and a record killed by SIGKILL
// while its program runs. The program is StarPU's sgemm example, traced for real.

#include "tests/support/test_support.hpp"
#include "tests/workloads/program_support.hpp"
#include "tests/workloads/run_folder.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/run_folder/run_folder.hpp"

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
namespace tracer = starscope::tracer;
using starscope::testing::readFile;
using starscope::testing::TempDir;
using starscope::workloads::testing::example;
using starscope::workloads::testing::readJson;

// A minute of work at least unless stopped, in tasks of about 10 ms.
const std::vector<std::string> kLongSgemm{"-size", "2048", "-nblocks", "16", "-iter", "1000"};

// `starscope record --out RUN [extra] -- sgemm (long)`, started as a job (its own process group)
// under `prefix` (e.g. nohup); its stdout and stderr in dir/record.log.
pid_t startLongRecord(const TempDir& dir, const fs::path& run, std::vector<std::string> prefix = {},
                      const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = std::move(prefix);
    for (const auto& arg : std::vector<std::string>{STARSCOPE_BINARY, "record", "--out",
                                                    run.string(), "--buffer-mb", "1"}) {
        args.push_back(arg);
    }
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back("--");
    args.push_back(example("starpu_example_sgemm").string());
    args.insert(args.end(), kLongSgemm.begin(), kLongSgemm.end());
    ::setenv("STARPU_NCPU", "2", 1);
    const pid_t pid =
        starscope::workloads::testing::spawnLogged(args, (dir / "record.log").string(), true);
    ::unsetenv("STARPU_NCPU");
    return pid;
}

// Waits until record's program runs StarPU's workers (main thread and two workers) with its
// SIGINT handler in place, and FxT has written its first full buffer and is done writing it (its
// size held for 300 ms; the next fills seconds later): a signal from then on is not one in the
// middle of a write. The program's pid, or 0 when record ended first or after two minutes.
pid_t waitUntilTracing(pid_t record, const fs::path& run) {
    const auto prof = run / "prof_file__0";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    std::uintmax_t written = 0;
    int steady = 0;
    while (steady < 15 && std::chrono::steady_clock::now() < deadline
           && !starscope::workloads::testing::hasEnded(record)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        std::error_code ec;
        const auto now = fs::file_size(prof, ec);
        const bool running = starscope::workloads::testing::programThreads(record) >= 3;
        steady = !ec && now > 0 && now == written && running ? steady + 1 : 0;
        written = ec ? 0 : now;
    }
    if (steady < 15) {
        return 0;
    }
    for (const pid_t child : starscope::workloads::testing::childrenOf(record)) {
        std::error_code ec;
        if (std::distance(fs::directory_iterator("/proc/" + std::to_string(child) + "/task", ec),
                          fs::directory_iterator())
            >= 3) {
            return child;
        }
    }
    return 0;
}

// Signal `signal` set in the mask named `field` ("SigIgn", "SigCgt") of /proc/PID/status.
bool inSignalMask(pid_t pid, const std::string& field, int signal) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with(field + ":")) {
            return (std::stoull(line.substr(field.size() + 1), nullptr, 16)
                    & (1ULL << (signal - 1)))
                   != 0;
        }
    }
    return false;
}

// Whether a process that is not this one's child has gone, waiting a minute at most.
bool goneWithin(pid_t pid, std::chrono::seconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (::kill(pid, 0) == 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return ::kill(pid, 0) != 0;
}

// `kill -INT -- -PGID` (a job scheduler, `timeout`) reaches record and its program at once: the
// program must not get a second SIGINT from record, which would have two threads write its trace
// at once (3 traces of 6 were destroyed so). A SIGTERM to record alone right after it is not
// passed on either (a SIGTERM: StarPU does not catch it, so it would end the program in the
// middle of that write): the program already has one. The trace is whole, the run interrupted.
TEST(RecordProgramShell, SigintToTheProcessGroupReachesTheProgramOnce) {
    REQUIRE_EXAMPLE(example("starpu_example_sgemm"));
    TempDir dir;
    const auto run = dir / "run";
    const pid_t pid = startLongRecord(dir, run);
    ASSERT_GT(pid, 0);
    const pid_t program = waitUntilTracing(pid, run);
    if (program == 0) {
        starscope::workloads::testing::waitWithDeadline(pid, std::chrono::seconds(0));
        FAIL() << readFile(dir / "record.log");
    }
    ASSERT_EQ(::getpgid(program), pid) << "the program runs in record's process group";
    // A second signal of another kind (two SIGINTs to record at once would be one).
    ASSERT_EQ(::kill(-pid, SIGINT), 0);
    ASSERT_EQ(::kill(pid, SIGTERM), 0);
    const auto ended =
        starscope::workloads::testing::waitWithDeadline(pid, std::chrono::minutes(2));
    const auto log = readFile(dir / "record.log");
    ASSERT_TRUE(ended) << "record still ran 2 minutes after SIGINT: " << log;
    ASSERT_TRUE(WIFEXITED(*ended)) << log;
    EXPECT_EQ(WEXITSTATUS(*ended), 130) << log;
    EXPECT_NE(log.find("SIGINT: the program got it too"), std::string::npos) << log;
    EXPECT_NE(log.find("SIGTERM: not passed on: the program got SIGINT already"), std::string::npos)
        << log;
    EXPECT_EQ(log.find("passed on to the program"), std::string::npos) << log;
    const auto json = readJson(run / "run.json");
    EXPECT_EQ(json["status"], "interrupted") << log;
    EXPECT_EQ(json["interrupted_by"], "SIGINT");
    EXPECT_EQ(json["workload"]["exit"]["signal"], "SIGINT");
    // Written once, whole: two writers at once leave a file libfxt stops decoding.
    const auto files = tracer::run::findProfFiles(run);
    ASSERT_EQ(files.size(), 1U);
    const auto whole = tracer::checkFxtWhole(files.front());
    EXPECT_TRUE(whole) << whole.error().describe();
    const auto trace = tracer::readTrace(run);
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_GT(trace->tasks.size(), 0U);
}

// `nohup starscope record ...`: SIGHUP stays ignored by record and by the program, so the
// hangup of the terminal's session ends neither; the run ends when it is stopped otherwise.
TEST(RecordProgramShell, UnderNohupAHangupEndsNeitherRecordNorTheProgram) {
    REQUIRE_EXAMPLE(example("starpu_example_sgemm"));
    TempDir dir;
    const auto run = dir / "run";
    const pid_t pid = startLongRecord(dir, run, {"/usr/bin/nohup"});
    ASSERT_GT(pid, 0);
    const pid_t program = waitUntilTracing(pid, run);
    if (program == 0) {
        starscope::workloads::testing::waitWithDeadline(pid, std::chrono::seconds(0));
        FAIL() << readFile(dir / "record.log");
    }
    EXPECT_TRUE(inSignalMask(pid, "SigIgn", SIGHUP)) << "record";
    EXPECT_TRUE(inSignalMask(program, "SigIgn", SIGHUP)) << "the program";
    EXPECT_FALSE(inSignalMask(program, "SigIgn", SIGINT)) << "the program";
    // The hangup reaches the whole job, then a SIGINT to record ends the run.
    ASSERT_EQ(::kill(-pid, SIGHUP), 0);
    ASSERT_EQ(::kill(pid, SIGINT), 0);
    const auto ended =
        starscope::workloads::testing::waitWithDeadline(pid, std::chrono::minutes(2));
    const auto log = readFile(dir / "record.log");
    ASSERT_TRUE(ended) << "record still ran 2 minutes after SIGINT: " << log;
    ASSERT_TRUE(WIFEXITED(*ended)) << log;
    EXPECT_EQ(WEXITSTATUS(*ended), 130) << log;
    EXPECT_EQ(log.find("SIGHUP"), std::string::npos) << log;
    const auto json = readJson(run / "run.json");
    EXPECT_EQ(json["status"], "interrupted") << log;
    EXPECT_EQ(json["interrupted_by"], "SIGINT");
    EXPECT_EQ(json["workload"]["exit"]["signal"], "SIGINT");
}

// A record killed by SIGKILL leaves its program running: the run folder stays locked until the
// program ends (it holds the lock record handed it), so a `record --force` into the same folder
// is refused instead of finishing first and having its prof file overwritten by the orphan.
TEST(RecordProgramShell, AProgramThatOutlivesAKilledRecordKeepsItsFolderLocked) {
    REQUIRE_EXAMPLE(example("starpu_example_sgemm"));
    TempDir dir;
    const auto run = dir / "run";
    const pid_t pid = startLongRecord(dir, run);
    ASSERT_GT(pid, 0);
    const pid_t program = waitUntilTracing(pid, run);
    if (program == 0) {
        starscope::workloads::testing::waitWithDeadline(pid, std::chrono::seconds(0));
        FAIL() << readFile(dir / "record.log");
    }
    ASSERT_EQ(::kill(pid, SIGKILL), 0);
    ASSERT_TRUE(starscope::workloads::testing::waitWithDeadline(pid, std::chrono::minutes(1)));
    ASSERT_EQ(::kill(program, 0), 0) << "the program outlives record";

    const auto refused = starscope::workloads::testing::record(
        dir, "--force --out '" + run.string() + "' -- '" + example("starpu_example_sgemm").string()
                 + "' -size 256 -iter 1");
    ::kill(program, SIGKILL);
    EXPECT_NE(refused.status, 0) << refused.output;
    EXPECT_NE(refused.output.find("run folder is being written by a program that starscope (pid "
                                  + std::to_string(pid)
                                  + ", ended since) started, which still runs"),
              std::string::npos)
        << refused.output;
    ASSERT_TRUE(goneWithin(program, std::chrono::seconds(60)));

    // Once the program is gone, so is the lock.
    const auto recorded = starscope::workloads::testing::record(
        dir, "--force --out '" + run.string() + "' -- '" + example("starpu_example_sgemm").string()
                 + "' -size 256 -iter 1");
    ASSERT_EQ(recorded.status, 0) << recorded.output;
    EXPECT_EQ(readJson(run / "run.json")["status"], "completed");
}

} // namespace
