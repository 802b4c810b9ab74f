// `starscope record -- PROGRAM`: StarPU's own example programs (installed beside the
// starpu_fxt_tool of the StarPU the tests are built against) recorded by the real `starscope`
// executable, their traces read as that StarPU's starpu_fxt_tool reads them; on two StarPU-MPI
// ranks under `--ranks 2`; and the ends a program can come to: no trace, a failure, a signal.

#include "tests/support/starpu_support.hpp"
#include "tests/support/test_support.hpp"
#include "tests/tracer/recording_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tests/workloads/program_support.hpp"
#include "tests/workloads/run_folder.hpp"
#include "tests/workloads/starpu_mpi.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <sys/wait.h>

namespace {

namespace fs = std::filesystem;
namespace tracer = starscope::tracer;
using starscope::testing::readFile;
using starscope::testing::TempDir;
using starscope::workloads::testing::example;
using starscope::workloads::testing::kStarpuWorkers;
using starscope::workloads::testing::readJson;
using starscope::workloads::testing::record;

struct Example {
    const char* name;
    const char* arguments;
};

class RecordProgram : public ::testing::TestWithParam<Example> {};

TEST_P(RecordProgram, AStarpuExampleReadsAsItsStarpuFxtToolReadsIt) {
    const auto program = example(std::string("starpu_example_") + GetParam().name);
    REQUIRE_EXAMPLE(program);
    TempDir dir;
    const auto run = dir / "run";
    const auto recorded = record(dir, "--out '" + run.string() + "' -- '" + program.string() + "' "
                                          + GetParam().arguments);
    ASSERT_EQ(recorded.status, 0) << recorded.output;
    EXPECT_NE(recorded.output.find("run completed: " + run.string()), std::string::npos)
        << recorded.output;

    const auto json = readJson(run / "run.json");
    ASSERT_FALSE(json.is_discarded());
    EXPECT_EQ(json["status"], "completed");
    EXPECT_EQ(json["workload"]["kind"], "command");
    EXPECT_EQ(json["workload"]["argv"][0], program.string());
    EXPECT_EQ(json["workload"]["executable"], program.string());
    EXPECT_EQ(json["workload"]["cwd"], fs::current_path().string());
    EXPECT_EQ(json["workload"]["exit"]["code"], 0);
    EXPECT_EQ(json["starpu"]["version"], starscope::testing::starpuSeries());
    EXPECT_EQ(json["starpu"]["version_from"], "trace layout");
    EXPECT_EQ(json["starpu"]["starscope_built_against"], starscope::testing::starpuVersion());
    EXPECT_EQ(json["starpu"]["fxt"]["prefix"], run.string());
    EXPECT_EQ(json["traced"], true);
    EXPECT_GT(json["wall_time_s"].get<double>(), 0.0);
    // What the program saw: record's FxT settings and the user's own variables.
    std::map<std::string, std::string> environment;
    for (const auto& v : json["starpu"]["environment"]) {
        environment[v["name"].get<std::string>()] =
            v["value"].get<std::string>() + " from " + v["from"].get<std::string>();
    }
    EXPECT_EQ(environment["STARPU_FXT_TRACE"], "1 from default");
    EXPECT_EQ(environment["STARPU_FXT_PREFIX"], run.string() + " from option");
    EXPECT_EQ(environment["STARPU_TRACE_BUFFER_SIZE"], "64 from default");
    EXPECT_EQ(environment["STARPU_NCPU"], "2 from environment");

    const auto files = tracer::run::findProfFiles(run);
    ASSERT_EQ(files.size(), 1U);
    ASSERT_EQ(tracer::testing::runStarpuFxtTool(files.front(), dir.path()), 0)
        << readFile(dir / "tool.log");
    const auto ours = tracer::readTrace(run);
    const auto tool = tracer::readTrace(dir / "paje.trace");
    ASSERT_TRUE(ours) << ours.error().describe();
    ASSERT_TRUE(tool) << tool.error().describe();
    tracer::testing::expectSameWorkAsStarpuFxtTool(*ours, *tool);
    const auto summary = tracer::summarize(*ours);
    EXPECT_EQ(summary.workers, 2U);
    EXPECT_EQ(json["tasks"]["executed"], summary.tasks);
    EXPECT_EQ(json["workers"], 2);

    // The analyser takes the run folder as it takes the CNN's.
    const auto stats = starscope::testing::runCommand(std::string("'") + STARSCOPE_BINARY
                                                      + "' stats '" + run.string() + "' > '"
                                                      + (dir / "stats.txt").string() + "' 2>&1");
    EXPECT_EQ(stats, 0) << readFile(dir / "stats.txt");
    EXPECT_NE(readFile(dir / "stats.txt").find("tasks " + std::to_string(summary.tasks)),
              std::string::npos)
        << readFile(dir / "stats.txt");
}

INSTANTIATE_TEST_SUITE_P(FromStarpuSource, RecordProgram,
                         ::testing::Values(Example{"sgemm", "-size 1024 -nblocks 4 -iter 3"},
                                           Example{"cholesky_implicit", "-size 1920 -nblocks 8"}),
                         [](const auto& param) { return std::string(param.param.name); });

// --ranks 2: the program under `mpirun -np 2`, one prof file per rank in the one run folder,
// read as starpu_fxt_tool reads the two.
TEST(RecordProgramRanks, AStarpuMpiExampleOnTwoRanksReadsAsItsStarpuFxtToolReadsIt) {
    REQUIRE_STARPU_MPI();
    const auto program = example("starpu_mpi_example_ring");
    REQUIRE_EXAMPLE(program);
    TempDir dir;
    const auto run = dir / "run";
    const auto recorded =
        record(dir, "--ranks 2 --out '" + run.string() + "' -- '" + program.string() + "'");
    ASSERT_EQ(recorded.status, 0) << recorded.output;
    EXPECT_NE(recorded.output.find("ranks         2 (mpirun -np 2)"), std::string::npos)
        << recorded.output;
    const auto json = readJson(run / "run.json");
    EXPECT_EQ(json["ranks"], 2);
    EXPECT_EQ(json["workload"]["argv"].size(), 1U);
    const auto files = tracer::run::findProfFiles(run);
    ASSERT_EQ(files.size(), 2U);
    ASSERT_EQ(tracer::testing::runStarpuFxtTool(files, run), 0) << readFile(run / "tool.log");
    const auto ours = tracer::readTrace(run);
    const auto tool = tracer::readTrace(run / "paje.trace");
    ASSERT_TRUE(ours) << ours.error().describe();
    ASSERT_TRUE(tool) << tool.error().describe();
    tracer::testing::expectSameRanksAsStarpuFxtTool(*ours, *tool, run / "paje.trace", 2);
}

// A program that writes no trace leaves nothing that looks like a run: a folder record made is
// removed, an earlier run's files under --force are put back as they were.
TEST(RecordProgramEnds, NoTraceIsRefusedAndTheFolderLeftAsItWas) {
    TempDir dir;
    const auto run = dir / "run";
    const auto refused = record(dir, "--out '" + run.string() + "' -- /bin/true");
    EXPECT_EQ(refused.status, 1) << refused.output;
    EXPECT_NE(refused.output.find("/bin/true wrote no FxT trace into " + run.string()
                                  + ": is it linked against a StarPU built with FxT?"),
              std::string::npos)
        << refused.output;
    EXPECT_FALSE(fs::exists(run));

    const auto earlier = dir / "earlier";
    fs::create_directories(earlier);
    std::ofstream(earlier / "run.json") << "{\"format\": \"starscope-run\"}\n";
    std::ofstream(earlier / "prof_file_u_0") << "earlier trace";
    std::ofstream(earlier / "notes.txt") << "mine";
    const auto failed = record(dir, "--force --out '" + earlier.string() + "' -- sh -c 'exit 4'");
    EXPECT_EQ(failed.status, 4) << failed.output;
    EXPECT_NE(failed.output.find("sh wrote no FxT trace into " + earlier.string()
                                 + " and exited with status 4"),
              std::string::npos)
        << failed.output;
    EXPECT_EQ(readFile(earlier / "run.json"), "{\"format\": \"starscope-run\"}\n");
    EXPECT_EQ(readFile(earlier / "prof_file_u_0"), "earlier trace");
    EXPECT_EQ(readFile(earlier / "notes.txt"), "mine");
    std::size_t entries = 0;
    for (const auto& entry : fs::directory_iterator(earlier)) {
        entries += entry.path().filename() != ".starscope.lock" ? 1U : 0U;
    }
    EXPECT_EQ(entries, 3U);
}

// Refused before anything is created: no program, a missing or non-executable one, the CNN's
// options.
TEST(RecordProgramEnds, ABadProgramOrACnnOptionIsRefusedBeforeAnythingIsCreated) {
    TempDir dir;
    const auto run = dir / "run";
    const std::string out = "--out '" + run.string() + "' ";
    const auto missing = record(dir, out + "-- ./no-such-program");
    EXPECT_EQ(missing.status, 2) << missing.output;
    EXPECT_NE(
        missing.output.find("./no-such-program: cannot run the program: No such file or directory"),
        std::string::npos)
        << missing.output;
    const auto notInPath = record(dir, out + "-- no-such-program-in-path");
    EXPECT_EQ(notInPath.status, 2) << notInPath.output;
    EXPECT_NE(notInPath.output.find("no-such-program-in-path: not found in PATH"),
              std::string::npos)
        << notInPath.output;
    std::ofstream(dir / "script.sh") << "#!/bin/sh\n";
    const auto notExecutable = record(dir, out + "-- '" + (dir / "script.sh").string() + "'");
    EXPECT_EQ(notExecutable.status, 2) << notExecutable.output;
    EXPECT_NE(notExecutable.output.find("script.sh: cannot run the program: is not executable"),
              std::string::npos)
        << notExecutable.output;
    const auto cnnOption = record(dir, out + "--arenas double -- /bin/true");
    EXPECT_EQ(cnnOption.status, 2) << cnnOption.output;
    EXPECT_NE(cnnOption.output.find("--arenas is an option of the built-in CNN workload"),
              std::string::npos)
        << cnnOption.output;
    EXPECT_FALSE(fs::exists(run));
}

// A program that fails after StarPU wrote its trace keeps its run, marked failed with its exit
// status, which record returns.
TEST(RecordProgramEnds, AFailingProgramKeepsItsRunMarkedWithItsExitStatus) {
    const auto program = example("starpu_example_sgemm");
    REQUIRE_EXAMPLE(program);
    TempDir dir;
    const auto run = dir / "run";
    const auto recorded =
        record(dir, "--out '" + run.string() + "' -- sh -c '\"$0\" -size 256 -iter 1; exit 3' '"
                        + program.string() + "'");
    EXPECT_EQ(recorded.status, 3) << recorded.output;
    EXPECT_NE(recorded.output.find("run failed: " + run.string()), std::string::npos)
        << recorded.output;
    const auto json = readJson(run / "run.json");
    EXPECT_EQ(json["status"], "failed");
    EXPECT_EQ(json["error"], "sh exited with status 3");
    EXPECT_EQ(json["workload"]["exit"]["code"], 3);
    ASSERT_EQ(tracer::run::findProfFiles(run).size(), 1U);
    EXPECT_TRUE(tracer::readTrace(run));
}

// SIGKILL: after StarPU wrote the trace (the wrapping shell is killed) the run is kept, marked
// with the signal; during the run (the StarPU program itself) the trace is lost and nothing
// is kept. Either way record exits 128 + 9.
TEST(RecordProgramEnds, AProgramKilledBySigkillIsMarkedWithTheSignal) {
    const auto program = example("starpu_example_sgemm");
    REQUIRE_EXAMPLE(program);
    TempDir dir;
    const auto run = dir / "run";
    const auto afterTrace = record(
        dir, "--out '" + run.string() + "' -- sh -c '\"$0\" -size 256 -iter 1; kill -KILL $$' '"
                 + program.string() + "'");
    EXPECT_EQ(afterTrace.status, 128 + SIGKILL) << afterTrace.output;
    const auto json = readJson(run / "run.json");
    EXPECT_EQ(json["status"], "failed");
    EXPECT_EQ(json["error"], "sh was killed by SIGKILL");
    EXPECT_EQ(json["workload"]["exit"]["signal"], "SIGKILL");
    EXPECT_EQ(json["workload"]["exit"]["signal_number"], SIGKILL);
    EXPECT_EQ(tracer::run::findProfFiles(run).size(), 1U);

    const auto lost = dir / "lost";
    const auto duringRun = record(dir, "--out '" + lost.string() + "' -- sh -c 'kill -KILL $$'");
    EXPECT_EQ(duringRun.status, 128 + SIGKILL) << duringRun.output;
    EXPECT_NE(duringRun.output.find("SIGKILL ended it before StarPU wrote its trace"),
              std::string::npos)
        << duringRun.output;
    EXPECT_FALSE(fs::exists(lost));
}

// `sweep -- PROGRAM`: --repeat runs per value of --vary, interleaved, each a `record --
// PROGRAM` with the variable set; compare gives one column per value; a rerun skips them.
TEST(SweepProgram, RepeatsTheProgramPerValueOfVaryAndCompareTellsThemApart) {
    const auto program = example("starpu_example_sgemm");
    REQUIRE_EXAMPLE(program);
    TempDir dir;
    const auto sweepDir = dir / "sweep";
    const auto sweepArgs = kStarpuWorkers + "timeout --kill-after=10 "
                           + std::to_string(starscope::workloads::testing::kRecordDeadlineSeconds)
                           + " '" + STARSCOPE_BINARY + "' sweep --out '" + sweepDir.string()
                           + "' --repeat 2 --vary STARPU_SCHED=lws,eager -- '" + program.string()
                           + "' -size 256 -iter 1 > '" + (dir / "sweep.log").string() + "' 2>&1";
    ASSERT_EQ(starscope::testing::runCommand(sweepArgs), 0) << readFile(dir / "sweep.log");
    const std::vector<std::string> order{
        "starpu_example_sgemm-lws-r0", "starpu_example_sgemm-eager-r0",
        "starpu_example_sgemm-lws-r1", "starpu_example_sgemm-eager-r1"};
    const std::string log = readFile(dir / "sweep.log");
    std::size_t at = 0;
    for (const auto& name : order) {
        const auto found = log.find("record " + name + ": completed", at);
        ASSERT_NE(found, std::string::npos) << name << " in " << log;
        at = found;
        const auto json = readJson(sweepDir / name / "run.json");
        EXPECT_EQ(json["workload"]["kind"], "command");
        bool sched = false;
        for (const auto& v : json["starpu"]["environment"]) {
            sched =
                sched
                || (v["name"] == "STARPU_SCHED" && v["from"] == "environment"
                    && name.find("-" + v["value"].get<std::string>() + "-") != std::string::npos);
        }
        EXPECT_TRUE(sched) << json["starpu"]["environment"].dump();
    }
    const auto compared = starscope::testing::runCommand(
        std::string("'") + STARSCOPE_BINARY + "' compare --json '" + sweepDir.string() + "' > '"
        + (dir / "compare.json").string() + "' 2> '" + (dir / "compare.err").string() + "'");
    ASSERT_EQ(compared, 0) << readFile(dir / "compare.err");
    const auto comparison = readJson(dir / "compare.json");
    const std::string text = comparison.dump();
    // One column per value, named by the command and the StarPU variables set (the test's own
    // among them).
    const std::string baseline = comparison["baseline"].get<std::string>();
    EXPECT_TRUE(baseline.starts_with("starpu_example_sgemm -size 256 -iter 1 ")) << baseline;
    for (const char* value : {"STARPU_SCHED=lws\"", "STARPU_SCHED=eager\""}) {
        EXPECT_NE(text.find(value), std::string::npos) << value << " in " << text.substr(0, 2000);
    }
    ASSERT_EQ(starscope::testing::runCommand(sweepArgs), 0) << readFile(dir / "sweep.log");
    EXPECT_NE(readFile(dir / "sweep.log").find("0 recorded, 4 skipped, 0 failed"),
              std::string::npos)
        << readFile(dir / "sweep.log");
    const auto cnnOption = starscope::testing::runCommand(
        std::string("'") + STARSCOPE_BINARY + "' sweep --out '" + (dir / "other").string()
        + "' --loaders naive -- /bin/true > '" + (dir / "refused.log").string() + "' 2>&1");
    EXPECT_EQ(cnnOption, 2);
    EXPECT_NE(
        readFile(dir / "refused.log").find("--loaders is an option of the built-in CNN workload"),
        std::string::npos)
        << readFile(dir / "refused.log");
    EXPECT_FALSE(fs::exists(dir / "other"));
}

// SIGINT sent to record alone (not the terminal's, which reaches the program too) is passed on;
// StarPU writes its trace when SIGINT ends the program, and the run is kept, interrupted.
TEST(RecordProgramEnds, SigintToRecordReachesTheProgramAndTheTraceIsKept) {
    const auto program = example("starpu_example_sgemm");
    REQUIRE_EXAMPLE(program);
    TempDir dir;
    const auto run = dir / "run";
    const auto log = dir / "record.log";
    ::setenv("STARPU_NCPU", "2", 1);
    // Minutes of work unless stopped, in tasks of about 10 ms; a 1 MiB buffer, so that FxT
    // writes the prof file while the tasks run.
    const pid_t pid = starscope::workloads::testing::spawnLogged(
        {STARSCOPE_BINARY, "record", "--out", run.string(), "--buffer-mb", "1", "--",
         program.string(), "-size", "2048", "-nblocks", "16", "-iter", "1000"},
        log.string());
    ::unsetenv("STARPU_NCPU");
    ASSERT_GT(pid, 0);
    // StarPU has started its workers (main thread and two workers), its handler is in place,
    // and tasks have run: FxT wrote its first full buffer, and is done writing it (its size held
    // for 300 ms; the next buffer fills seconds later). A fixed second was not always enough
    // under ASan on a loaded machine, and a SIGINT in the middle of FxT's write damages the trace
    // (StarPU's handler writes it too).
    const auto prof = run / "prof_file__0";
    const auto size = [&] {
        std::error_code ec;
        const auto bytes = std::filesystem::file_size(prof, ec);
        return ec ? std::uintmax_t{0} : bytes;
    };
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    std::uintmax_t written = 0;
    int steady = 0;
    while (steady < 15 && std::chrono::steady_clock::now() < deadline
           && !starscope::workloads::testing::hasEnded(pid)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const auto now = size();
        steady =
            now > 0 && now == written && starscope::workloads::testing::programThreads(pid) >= 3
                ? steady + 1
                : 0;
        written = now;
    }
    ASSERT_EQ(steady, 15) << readFile(log);
    ASSERT_EQ(::kill(pid, SIGINT), 0);
    const auto ended =
        starscope::workloads::testing::waitWithDeadline(pid, std::chrono::minutes(2));
    ASSERT_TRUE(ended) << "record still ran 2 minutes after SIGINT: " << readFile(log);
    const int status = *ended;
    ASSERT_TRUE(WIFEXITED(status)) << readFile(log);
    EXPECT_EQ(WEXITSTATUS(status), 130) << readFile(log);
    EXPECT_NE(readFile(log).find("SIGINT: passed on to the program"), std::string::npos)
        << readFile(log);
    const auto json = readJson(run / "run.json");
    EXPECT_EQ(json["status"], "interrupted") << readFile(log);
    EXPECT_EQ(json["interrupted_by"], "SIGINT");
    EXPECT_EQ(json["workload"]["exit"]["signal"], "SIGINT");
    const auto trace = tracer::readTrace(run);
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_GT(trace->tasks.size(), 0U);
}

} // namespace

namespace {

// Whether process pid catches SIGINT (its SigCgt mask in /proc): StarPU installs the handler
// that writes its trace at the end of starpu_init.
bool catchesSigint(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("SigCgt:")) {
            const auto mask = std::stoull(line.substr(7), nullptr, 16);
            return (mask & (1ULL << (SIGINT - 1))) != 0;
        }
    }
    return false;
}

// `record --ranks 2 -- PROGRAM`, once both ranks run StarPU: `signal` to record, or to rank 1
// when toRank1. Returns record's wait status; the log is in dir/record.log.
int stopProgramOnTwoRanks(const TempDir& dir, const fs::path& run, int signal,
                          bool toRank1 = false) {
    const auto program = example("starpu_mpi_example_stencil5");
    const auto log = dir / "record.log";
    ::setenv("STARPU_NCPU", "1", 1);
    // Minutes of work unless stopped.
    const pid_t pid = starscope::workloads::testing::spawnLogged(
        {STARSCOPE_BINARY, "record", "--ranks", "2", "--out", run.string(), "--", program.string(),
         "-iter", "1000000"},
        log.string());
    ::unsetenv("STARPU_NCPU");
    EXPECT_GT(pid, 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    std::vector<pid_t> ranks;
    const auto bothStarted = [&] {
        const auto mpirun = starscope::workloads::testing::childrenOf(pid);
        ranks = mpirun.size() == 1 ? starscope::workloads::testing::childrenOf(mpirun.front())
                                   : std::vector<pid_t>{};
        return ranks.size() == 2 && catchesSigint(ranks[0]) && catchesSigint(ranks[1]);
    };
    while (!bothStarted() && std::chrono::steady_clock::now() < deadline
           && !starscope::workloads::testing::hasEnded(pid)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_TRUE(bothStarted()) << readFile(log);
    // mpirun starts rank 0 first.
    EXPECT_EQ(::kill(toRank1 && ranks.size() == 2 ? ranks[1] : pid, signal), 0);
    // mpirun's own end of a job takes two of its 10 s timeouts; record's grace for an mpirun
    // that outlives its ranks is that and a few seconds.
    const auto ended =
        starscope::workloads::testing::waitWithDeadline(pid, std::chrono::minutes(2));
    EXPECT_TRUE(ended) << "record still ran 2 minutes after the signal: " << readFile(log);
    return ended.value_or(0);
}

// A stop signal to `record --ranks 2 -- PROGRAM` reaches every rank at once as the SIGTERM
// mpirun would send (mpirun alone sends it 10 s late). A StarPU program that does not shut
// StarPU down on SIGTERM ends without its trace, as under mpirun: record says so, keeps nothing,
// and exits with the signal it got.
void expectStopEndsEveryRank(int signal) {
    REQUIRE_EXAMPLE(example("starpu_mpi_example_stencil5"));
    TempDir dir;
    const auto run = dir / "run";
    const auto start = std::chrono::steady_clock::now();
    const int status = stopProgramOnTwoRanks(dir, run, signal);
    const auto log = readFile(dir / "record.log");
    ASSERT_TRUE(WIFEXITED(status)) << log;
    EXPECT_EQ(WEXITSTATUS(status), 128 + signal) << log;
    const std::string name = signal == SIGINT ? "SIGINT" : "SIGTERM";
    EXPECT_NE(log.find(name + ": passed on to every rank as SIGTERM"), std::string::npos) << log;
    EXPECT_NE(
        log.find(name
                 + ", passed on to every rank as SIGTERM (as mpirun passes a stop on), ended them"),
        std::string::npos)
        << log;
    // Both ranks ended on the SIGTERM they got at once, not on mpirun's SIGKILL later. mpirun
    // names the rank it saw end first: one the SIGTERM ended, or, on a busy machine, one that
    // exited with an error first because its peer had gone (seen once under ASan).
    EXPECT_TRUE(log.find("exited on signal 15 (Terminated)") != std::string::npos
                || log.find("a non-zero exit code") != std::string::npos)
        << log;
    EXPECT_EQ(log.find("signal 9 (Killed)"), std::string::npos) << log;
    EXPECT_FALSE(fs::exists(run)) << log;
    std::cout << name << " to record --ranks 2 -- stencil5: exit " << WEXITSTATUS(status)
              << " after "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
              << " s\n";
}

} // namespace

TEST(RecordProgramRanks, SigintToRecordReachesEveryRankAsMpirunWouldPassItOn) {
    REQUIRE_STARPU_MPI();
    expectStopEndsEveryRank(SIGINT);
}

TEST(RecordProgramRanks, SigtermToRecordReachesEveryRankAsMpirunWouldPassItOn) {
    REQUIRE_STARPU_MPI();
    expectStopEndsEveryRank(SIGTERM);
}

// SIGKILL of one rank of `record --ranks 2 -- PROGRAM`: mpirun ends the other with SIGTERM 10 s
// later, which ends a StarPU program without its trace. record names the rank that ended first
// instead of asking whether the program is linked against FxT, and exits with mpirun's status.
// On a loaded machine Open MPI's mpirun sometimes hangs after the killed rank (its PMIx server
// reports the rank "UNREACHABLE" and never returns): record then kills it after its grace, and
// says that instead; the rank that ended first is named either way.
TEST(RecordProgramRanks, SigkillOfOneRankIsNamedWhenNoTraceIsLeft) {
    REQUIRE_STARPU_MPI();
    REQUIRE_EXAMPLE(example("starpu_mpi_example_stencil5"));
    TempDir dir;
    const auto run = dir / "run";
    const int status = stopProgramOnTwoRanks(dir, run, SIGKILL, true);
    const auto log = readFile(dir / "record.log");
    ASSERT_TRUE(WIFEXITED(status)) << log;
    EXPECT_EQ(WEXITSTATUS(status), 128 + SIGKILL) << log;
    EXPECT_NE(log.find("rank 1 (pid "), std::string::npos) << log;
    const bool mpirunEndedThem =
        log.find(") ended first, while the others ran, and mpirun then ended them with SIGTERM") != std::string::npos;
    const bool recordEndedMpirun = log.find("s after its last rank: record killed it (SIGKILL)") != std::string::npos
                                   && log.find(") ended first") != std::string::npos;
    EXPECT_TRUE(mpirunEndedThem || recordEndedMpirun) << log;
    EXPECT_EQ(log.find("is it linked against a StarPU built with FxT"), std::string::npos) << log;
    EXPECT_FALSE(fs::exists(run)) << log;
}
