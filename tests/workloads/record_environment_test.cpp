// `starscope record` and StarPU's environment: an option wins over STARPU_SCHED / STARPU_NCPU /
// STARPU_FXT_PREFIX / STARPU_FXT_TRACE, which win over the defaults; the summary says when the
// environment chose, and the summary and run.json list every variable record set and every one
// of the user's it kept; --no-trace records without FxT and the readers say there is no trace;
// a STARPU_FXT_PREFIX naming another folder than --out is refused; run.json has what StarPU
// actually ran (its worker count, not a --workers it could not honour) and whether its idle
// workers spin, which the summary says once; --events (or STARPU_FXT_EVENTS) chooses the FxT
// event set on StarPU 1.4, which run.json records and the trace's readers see, and is a note
// on 1.3, which records every event.

#include "tests/support/starpu_support.hpp"
#include "tests/support/test_support.hpp"
#include "tests/workloads/run_folder.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>
#include <thread>

using starscope::testing::TempDir;
using namespace starscope::workloads::testing;

namespace {

// The variables under test are cleared first, so that the environment the tests run in does
// not decide the outcome.
std::string record(const std::string& environment, const std::string& args,
                   const std::filesystem::path& stdoutFile,
                   const std::filesystem::path& stderrFile) {
    return "env -u STARPU_SCHED -u STARPU_NCPU -u STARPU_NCPUS -u STARPU_FXT_PREFIX -u "
           "STARPU_FXT_TRACE "
           "-u STARPU_TRACE_BUFFER_SIZE -u STARPU_FXT_SUFFIX -u STARPU_CATCH_SIGNALS -u "
           "STARPU_SILENT "
           "-u STARPU_FXT_EVENTS "
           + environment + " '" + STARSCOPE_BINARY
           + "' record --batches 2 --batch-size 32 --test-images 100 " + args + " > '"
           + stdoutFile.string() + "' 2> '" + stderrFile.string() + "'";
}

struct Recorded {
    int status = -1;
    std::string out;
    std::string err;
};

class RecordEnvironment : public ::testing::Test {
protected:
    Recorded run(const std::string& environment, const std::string& args) {
        const auto outFile = m_dir / "stdout.txt";
        const auto errFile = m_dir / "stderr.txt";
        Recorded result;
        result.status =
            starscope::testing::runCommand(record(environment, args, outFile, errFile));
        result.out = starscope::testing::readFile(outFile);
        result.err = starscope::testing::readFile(errFile);
        return result;
    }
    std::filesystem::path runDir() const { return m_dir / "run"; }
    std::string outArg() const { return " --out '" + runDir().string() + "'"; }

    TempDir m_dir;
};

long cpuWorkersInTrace(const std::filesystem::path& folder) {
    auto trace = starscope::tracer::readTrace(findProfFiles(folder));
    if (!trace) {
        ADD_FAILURE() << trace.error().message;
        return -1;
    }
    return std::count_if(trace->lanes.begin(), trace->lanes.end(), [](const auto& lane) {
        return lane.kind == starscope::tracer::LaneKind::CpuWorker;
    });
}

} // namespace

TEST_F(RecordEnvironment, SchedulerAndWorkerCountComeFromTheEnvironmentWhenNoOptionIsGiven) {
    const auto r = run("STARPU_SCHED=eager STARPU_NCPU=1", outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto json = readJson(runDir() / "run.json");
    ASSERT_TRUE(validRunJson(json));
    EXPECT_EQ(json["scheduler"], "eager");
    EXPECT_EQ(json["workers"], 1);
    EXPECT_EQ(cpuWorkersInTrace(runDir()), 1);
    EXPECT_NE(r.out.find("scheduler     eager (from STARPU_SCHED)\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("workers       1 CPU (from STARPU_NCPU)\n"), std::string::npos) << r.out;
}

TEST_F(RecordEnvironment, TheOlderStarpuNcpusIsReadToo) {
    const auto r = run("STARPU_NCPUS=1", outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(readJson(runDir() / "run.json")["workers"], 1);
    EXPECT_NE(r.out.find("workers       1 CPU (from STARPU_NCPUS)\n"), std::string::npos) << r.out;
}

TEST_F(RecordEnvironment, OptionsWinOverTheEnvironment) {
    const auto r = run("STARPU_SCHED=eager STARPU_NCPU=2", "--sched dmda --workers 1" + outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto json = readJson(runDir() / "run.json");
    EXPECT_EQ(json["scheduler"], "dmda");
    EXPECT_EQ(json["workers"], 1);
    EXPECT_NE(r.out.find("scheduler     dmda\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("workers       1 CPU\n"), std::string::npos) << r.out;
}

TEST_F(RecordEnvironment, DefaultsApplyWithoutOptionOrEnvironment) {
    const auto r = run("", outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto json = readJson(runDir() / "run.json");
    EXPECT_EQ(json["scheduler"], "lws");
    EXPECT_EQ(json["workers"].get<long>(), cpuWorkersInTrace(runDir()));
    EXPECT_EQ(r.out.find("(from "), std::string::npos) << r.out;
}

TEST_F(RecordEnvironment, BadEnvironmentValuesAreRefusedByName) {
    auto r = run("STARPU_SCHED=no-such-policy", outArg());
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("STARPU_SCHED: unknown StarPU scheduler 'no-such-policy'"),
              std::string::npos)
        << r.err;
    r = run("STARPU_NCPU=two", outArg());
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("STARPU_NCPU: 'two' is not a CPU worker count"), std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(runDir()));
}

// More workers than StarPU starts (it starts at most one per core): a warning, and run.json
// and the summary have StarPU's number, the one the trace shows.
TEST_F(RecordEnvironment, WorkersBeyondWhatStarpuStartsAreReported) {
    const auto r = run("", "--workers 1000" + outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto json = readJson(runDir() / "run.json");
    const long inTrace = cpuWorkersInTrace(runDir());
    ASSERT_GT(inTrace, 0);
    ASSERT_LT(inTrace, 1000);
    EXPECT_EQ(json["workers"].get<long>(), inTrace);
    const std::string started = std::to_string(inTrace);
    EXPECT_NE(r.err.find("warning: --workers asked for 1000 CPU workers, StarPU started " + started),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.out.find("workers       " + started + " CPU (1000 asked)\n"), std::string::npos)
        << r.out;
}

TEST_F(RecordEnvironment, AFxtPrefixNamingAnotherFolderThanOutIsRefused) {
    const auto elsewhere = m_dir / "elsewhere";
    const auto r = run("STARPU_FXT_PREFIX='" + elsewhere.string() + "'", outArg());
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("STARPU_FXT_PREFIX: names " + elsewhere.string()
                         + ", but the run folder (--out) is " + runDir().string()),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(runDir()));
    EXPECT_FALSE(std::filesystem::exists(elsewhere));
}

TEST_F(RecordEnvironment, AFxtPrefixNamingTheRunFolderIsTheRunFolder) {
    // Without --out, and spelled with a trailing slash; then the same folder again with --out.
    auto r = run("STARPU_FXT_PREFIX='" + runDir().string() + "/'", "");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("run folder    from STARPU_FXT_PREFIX\n"), std::string::npos) << r.out;
    auto json = readJson(runDir() / "run.json");
    EXPECT_EQ(json["starpu"]["fxt"]["prefix"], runDir().string());
    EXPECT_EQ(findProfFiles(runDir()).size(), 1U);

    r = run("STARPU_FXT_PREFIX='" + runDir().string() + "'", "--force" + outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(r.out.find("run folder    from STARPU_FXT_PREFIX"), std::string::npos) << r.out;
    EXPECT_EQ(findProfFiles(runDir()).size(), 1U);
}

TEST_F(RecordEnvironment, NeitherOutNorFxtPrefixSaysWhatIsMissing) {
    const auto r = run("", "");
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("--out: missing: name the run folder to write"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("or set STARPU_FXT_PREFIX"), std::string::npos) << r.err;
}

namespace {

// run.json's starpu.environment entry of a variable: its value and who chose it.
std::pair<std::string, std::string> environmentEntry(const nlohmann::json& run, const std::string& name) {
    for (const auto& e : run["starpu"]["environment"]) {
        if (e["name"] == name) {
            return {e["value"].get<std::string>(), e["from"].get<std::string>()};
        }
    }
    return {"(absent)", "(absent)"};
}

} // namespace

TEST_F(RecordEnvironment, NoTraceRecordsWithoutFxtAndTheReadersSaySo) {
    const auto r = run("", "--no-trace" + outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_TRUE(findProfFiles(runDir()).empty());
    const auto json = readJson(runDir() / "run.json");
    ASSERT_TRUE(validRunJson(json));
    EXPECT_EQ(json["status"], "completed");
    EXPECT_EQ(json["traced"], false);
    EXPECT_EQ(json["starpu"]["fxt"]["trace"], 0);
    EXPECT_EQ(json["starpu"]["fxt"]["buffer_size_mb"], 0);
    EXPECT_EQ(environmentEntry(json, "STARPU_FXT_TRACE"), std::make_pair(std::string("0"), std::string("option")));
    EXPECT_EQ(environmentEntry(json, "STARPU_TRACE_BUFFER_SIZE").first, "(absent)");
    EXPECT_NE(r.out.find("  trace         none: not traced (--no-trace)\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  StarPU env    set: STARPU_FXT_TRACE=0 "), std::string::npos) << r.out;

    const auto outFile = m_dir / "stats.out";
    const auto errFile = m_dir / "stats.err";
    const int status = starscope::testing::runCommand("'" + std::string(STARSCOPE_BINARY) + "' stats '"
                                                      + runDir().string() + "' > '" + outFile.string()
                                                      + "' 2> '" + errFile.string() + "'");
    EXPECT_EQ(status, 1);
    const auto err = starscope::testing::readFile(errFile);
    EXPECT_NE(err.find(runDir().string() + ": no trace: this run was recorded without tracing (record --no-trace"),
              std::string::npos)
        << err;
}

TEST_F(RecordEnvironment, FxtTraceZeroInTheEnvironmentIsAnUntracedRunAndTheOptionWinsOverIt) {
    auto r = run("STARPU_FXT_TRACE=0", outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_TRUE(findProfFiles(runDir()).empty());
    auto json = readJson(runDir() / "run.json");
    EXPECT_EQ(json["traced"], false);
    EXPECT_EQ(environmentEntry(json, "STARPU_FXT_TRACE"), std::make_pair(std::string("0"), std::string("environment")));
    EXPECT_NE(r.out.find("  trace         none: not traced (STARPU_FXT_TRACE=0)\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  StarPU env    yours: STARPU_FXT_TRACE=0\n"), std::string::npos) << r.out;

    r = run("STARPU_FXT_TRACE=1", "--no-trace --force" + outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_TRUE(findProfFiles(runDir()).empty());
    EXPECT_EQ(readJson(runDir() / "run.json")["traced"], false);
}

// Without the user's values record sets what it needs and says so; the user's own values of
// the variables it would set are kept, and listed as theirs.
TEST_F(RecordEnvironment, RecordSaysWhatItSetsAndKeepsTheUsersOwnValues) {
    auto r = run("", outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    auto json = readJson(runDir() / "run.json");
    EXPECT_EQ(json["traced"], true);
    EXPECT_EQ(json["starpu"]["fxt"]["trace"], 1);
    const auto buffer = json["starpu"]["fxt"]["buffer_size_mb"].get<long>();
    EXPECT_EQ(environmentEntry(json, "STARPU_TRACE_BUFFER_SIZE"),
              std::make_pair(std::to_string(buffer), std::string("default")));
    EXPECT_EQ(environmentEntry(json, "STARPU_FXT_TRACE"), std::make_pair(std::string("1"), std::string("default")));
    EXPECT_EQ(environmentEntry(json, "STARPU_CATCH_SIGNALS"), std::make_pair(std::string("0"), std::string("default")));
    EXPECT_EQ(environmentEntry(json, "STARPU_SILENT"), std::make_pair(std::string("1"), std::string("default")));
    EXPECT_NE(r.out.find("  StarPU env    set: STARPU_FXT_TRACE=1 STARPU_FXT_PREFIX=" + runDir().string()
                         + " STARPU_TRACE_BUFFER_SIZE=" + std::to_string(buffer) + " "),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("yours:"), std::string::npos) << r.out;

    r = run("STARPU_TRACE_BUFFER_SIZE=3 STARPU_SILENT=1", "--force" + outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    json = readJson(runDir() / "run.json");
    EXPECT_EQ(json["starpu"]["fxt"]["buffer_size_mb"], 3);
    EXPECT_EQ(environmentEntry(json, "STARPU_TRACE_BUFFER_SIZE"), std::make_pair(std::string("3"), std::string("environment")));
    EXPECT_EQ(environmentEntry(json, "STARPU_SILENT"), std::make_pair(std::string("1"), std::string("environment")));
    EXPECT_NE(r.out.find("  StarPU env    yours: STARPU_TRACE_BUFFER_SIZE=3 STARPU_SILENT=1\n"), std::string::npos)
        << r.out;
    EXPECT_EQ(findProfFiles(runDir()).size(), 1U);
}

// A buffer smaller than the trace: FxT writes it to the prof file whenever it is full (StarPU
// says so on stderr) and the trace stays whole, every task of the run in it.
TEST_F(RecordEnvironment, ABufferSmallerThanTheTraceIsFlushedAndTheTraceStaysWhole) {
    const auto r = run("STARPU_TRACE_BUFFER_SIZE=1", "--epochs 60" + outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("FxT is flushing trace to disk"), std::string::npos) << r.err;
    const auto files = findProfFiles(runDir());
    ASSERT_EQ(files.size(), 1U);
    EXPECT_GT(std::filesystem::file_size(files.front()), 1U << 20);
    auto trace = starscope::tracer::readTrace(runDir());
    ASSERT_TRUE(trace) << trace.error().describe();
    const auto json = readJson(runDir() / "run.json");
    const auto executed = std::count_if(trace->tasks.begin(), trace->tasks.end(),
                                        [](const auto& t) { return t.start >= 0; });
    EXPECT_EQ(executed, json["tasks"]["executed"].get<long>());
}

TEST_F(RecordEnvironment, BadTracingVariablesAreRefusedByName) {
    auto r = run("STARPU_FXT_TRACE=yes", outArg());
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("STARPU_FXT_TRACE: 'yes' is not a number (0: no trace, 1: trace)"), std::string::npos)
        << r.err;
    r = run("STARPU_TRACE_BUFFER_SIZE=0", outArg());
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("STARPU_TRACE_BUFFER_SIZE: '0' is not a buffer size in MiB"), std::string::npos) << r.err;
    r = run("STARPU_FXT_SUFFIX=mine", outArg());
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("STARPU_FXT_SUFFIX: is set, so StarPU would not name the trace prof_file_*"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(runDir()));
}

// A StarPU built without --enable-blocking-drivers keeps idle workers polling on their cores:
// run.json says so, the summary says it once, and the default leaves the main thread a core.
TEST_F(RecordEnvironment, SaysOnceWhetherStarpusIdleWorkersSpinAndLeavesTheMainThreadACoreIfSo) {
    const bool spins = starscope::testing::starpuIdleWorkersSpinPerConfigHeader();
    const auto r = run("", outArg());
    ASSERT_EQ(r.status, 0) << r.err;
    const auto json = readJson(runDir() / "run.json");
    EXPECT_EQ(json["starpu"]["idle_workers"], spins ? "spin" : "block");
    std::size_t said = 0;
    for (auto at = r.out.find("idle workers  spin"); at != std::string::npos;
         at = r.out.find("idle workers  spin", at + 1)) {
        ++said;
    }
    EXPECT_EQ(said, spins ? 1U : 0U) << r.out;
    EXPECT_EQ(r.err.find("idle workers"), std::string::npos) << r.err;
    const long threads = std::max(1L, static_cast<long>(std::thread::hardware_concurrency()));
    // StarPU starts at most one worker per core, which may be fewer than the hardware threads.
    if (spins && threads > 1) {
        EXPECT_LE(json["workers"].get<long>(), threads - 1);
        EXPECT_NE(r.out.find("one core is left to the main thread"), std::string::npos) << r.out;
    } else {
        EXPECT_EQ(r.out.find("one core is left to the main thread"), std::string::npos) << r.out;
    }

    // A count the user chose is kept, with no word about a core left.
    const auto chosen = run("", "--force --workers " + std::to_string(threads) + outArg());
    ASSERT_EQ(chosen.status, 0) << chosen.err;
    EXPECT_EQ(chosen.out.find("one core is left"), std::string::npos) << chosen.out;
}

// On 1.4 the set applies (record calls starpu_fxt_autostart_profiling before starpu_init, since
// StarPU ignores STARPU_FXT_EVENTS otherwise): the reader finds the categories left out and
// says which figures are missing. On 1.3 everything is recorded and the summary says so.
TEST_F(RecordEnvironment, EventsChooseTheFxtEventSetOnStarpu14) {
    const auto r = run("", "--events TASK,TASK_VERBOSE,WORKER,WORKER_VERBOSE" + outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto json = readJson(runDir() / "run.json");
    auto trace = starscope::tracer::readTrace(findProfFiles(runDir()));
    ASSERT_TRUE(trace) << trace.error().message;
    const auto warned = [&](const std::string& what) {
        return std::any_of(trace->warnings.begin(), trace->warnings.end(),
                           [&](const std::string& w) { return w.find(what) != std::string::npos; });
    };
    if (starscope::testing::starpuSeries() == "1.3") {
        EXPECT_EQ(json["starpu"]["fxt"]["events"], "all");
        EXPECT_NE(r.out.find("--events has no effect"), std::string::npos) << r.out;
        EXPECT_FALSE(warned("leaves out"));
        return;
    }
    EXPECT_EQ(json["starpu"]["fxt"]["events"], "TASK,TASK_VERBOSE,WORKER,WORKER_VERBOSE");
    EXPECT_NE(r.out.find("STARPU_FXT_EVENTS=TASK,TASK_VERBOSE,WORKER,WORKER_VERBOSE"),
              std::string::npos)
        << r.out;
    EXPECT_TRUE(trace->markers.empty());
    EXPECT_TRUE(warned(
        "markers not recorded (no batch transition): the trace's FxT event set leaves out EVENT"));
    EXPECT_TRUE(warned("leaves out DSM"));
    EXPECT_FALSE(warned("tasks not recorded"));
    EXPECT_FALSE(warned("leaves out WORKER_VERBOSE"));
}

TEST_F(RecordEnvironment, TheDefaultEventSetKeepsEveryFigureAndAllRecordsEverything) {
    auto r = run("", outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const bool selects = starscope::testing::starpuSeries() != "1.3";
    EXPECT_EQ(readJson(runDir() / "run.json")["starpu"]["fxt"]["events"],
              selects ? "USER,TASK,TASK_VERBOSE,WORKER,WORKER_VERBOSE,DSM,EVENT,MPI" : "all");
    auto trace = starscope::tracer::readTrace(findProfFiles(runDir()));
    ASSERT_TRUE(trace) << trace.error().message;
    for (const auto& w : trace->warnings) {
        EXPECT_EQ(w.find("leaves out"), std::string::npos) << w;
    }
    EXPECT_FALSE(trace->markers.empty());
    r = run("STARPU_FXT_EVENTS=TASK", "--events all --force" + outArg());
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(readJson(runDir() / "run.json")["starpu"]["fxt"]["events"], "all");
    EXPECT_EQ(r.out.find("STARPU_FXT_EVENTS="), std::string::npos) << r.out;
}

TEST_F(RecordEnvironment, UnknownEventCategoriesAreRefusedByName) {
    auto r = run("", "--events TASK,BOGUS" + outArg());
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("--events: unknown FxT event category 'BOGUS'"), std::string::npos)
        << r.err;
    r = run("STARPU_FXT_EVENTS=nope", outArg());
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("STARPU_FXT_EVENTS: unknown FxT event category 'nope'"), std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(runDir()));
}

// record -- PROGRAM --events: StarPU's LU example does not call
// starpu_fxt_autostart_profiling, so StarPU would ignore STARPU_FXT_EVENTS; record preloads a
// library that calls it. On 1.4 the trace's key mask then leaves the categories out (the
// reader says which figures go); 1.3 records every event.
TEST_F(RecordEnvironment, TheEventSetReachesAProgramThatDoesNotAskForIt) {
    const auto program = starscope::testing::starpuFxtTool().parent_path()
                         / "starpu_example_lu_implicit_example_float";
    if (!std::filesystem::exists(program)) {
        GTEST_SKIP() << program << " does not exist: scripts/build_starpu.sh installs it";
    }
    const auto recordProgram = [&](const std::string& events, const std::filesystem::path& run) {
        const auto log = m_dir / "program.log";
        Recorded r;
        r.status = starscope::testing::runCommand(
            "env -u STARPU_FXT_EVENTS -u LD_PRELOAD STARPU_NCPU=2 '" + std::string(STARSCOPE_BINARY)
            + "' record --events " + events + " --out '" + run.string() + "' -- '"
            + program.string() + "' -size 960 -nblocks 8 > '" + log.string() + "' 2>&1");
        r.out = starscope::testing::readFile(log);
        return r;
    };
    const auto warned = [](const starscope::tracer::Trace& trace, const std::string& what) {
        return std::any_of(trace.warnings.begin(), trace.warnings.end(),
                           [&](const std::string& w) { return w.find(what) != std::string::npos; });
    };
    auto r = recordProgram("TASK,WORKER,EVENT", runDir());
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(readJson(runDir() / "run.json")["starpu"]["fxt"]["events"], "TASK,WORKER,EVENT");
    EXPECT_NE(r.out.find("LD_PRELOAD="), std::string::npos) << r.out;
    auto trace = starscope::tracer::readTrace(findProfFiles(runDir()));
    ASSERT_TRUE(trace) << trace.error().message;
    EXPECT_EQ(warned(*trace, "leaves out DSM"), starscope::testing::starpuSeries() != "1.3");
    EXPECT_FALSE(warned(*trace, "tasks not recorded"));

    const auto all = m_dir / "all";
    r = recordProgram("all", all);
    ASSERT_EQ(r.status, 0) << r.out;
    // The preload still answers FxT's thread ids, and leaves StarPU's event set alone.
    EXPECT_NE(r.out.find("LD_PRELOAD="), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("STARPU_FXT_EVENTS="), std::string::npos) << r.out;
    trace = starscope::tracer::readTrace(findProfFiles(all));
    ASSERT_TRUE(trace) << trace.error().message;
    EXPECT_FALSE(warned(*trace, "leaves out"));
}
