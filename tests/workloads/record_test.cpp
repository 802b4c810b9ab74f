// `starscope record` end to end, as a user runs it: every arena x loader strategy yields a
// trace libfxt reads and a complete run.json; Ctrl-C keeps the trace and marks the run.

#include "tests/support/test_support.hpp"
#include "tests/workloads/run_folder.hpp"
#include "tracer/run_folder/run_record.hpp"

#include <csignal>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using starscope::testing::TempDir;
using namespace starscope::workloads::testing;

extern char** environ;

namespace {

std::string record(const std::string& args) {
    return std::string("'") + STARSCOPE_BINARY + "' record " + args;
}

struct Combination {
    const char* arenas;
    const char* loader;
};

class RecordStrategy : public ::testing::TestWithParam<Combination> {};

} // namespace

TEST_P(RecordStrategy, WritesATraceAndAValidRunJson) {
    TempDir dir;
    const auto out = dir / "run";
    const auto log = dir / "log.txt";
    const int status = starscope::testing::runCommand(
        record(std::string("--arenas ") + GetParam().arenas + " --loader " + GetParam().loader
               + " --batches 3 --batch-size 32 --chunk 16 --workers 2 --test-images 300 --out '"
               + out.string() + "' > '" + log.string() + "' 2>&1"));
    ASSERT_EQ(status, 0) << starscope::testing::readFile(log);

    const auto traces = findProfFiles(out);
    ASSERT_EQ(traces.size(), 1U);
    EXPECT_GT(fxtEventCount(traces[0]), 1000) << traces[0];

    const auto run = readJson(out / "run.json");
    ASSERT_TRUE(validRunJson(run));
    // record writes the run model's RunRecord with its one writer: the file reads back typed,
    // and writing what was read gives the same document.
    const auto typed = starscope::tracer::run::readRunRecord(out / "run.json");
    ASSERT_TRUE(typed) << typed.error().describe();
    EXPECT_EQ(typed->status, starscope::tracer::run::RunStatus::Completed);
    EXPECT_EQ(run["version"], starscope::tracer::run::kRunRecordVersion);
    EXPECT_EQ(nlohmann::json::parse(starscope::tracer::run::runRecordText(*typed)), run);
    EXPECT_EQ(run["status"], "completed");
    EXPECT_EQ(run["strategy"]["arenas"], GetParam().arenas);
    EXPECT_EQ(run["strategy"]["loader"], GetParam().loader);
    EXPECT_EQ(run["strategy"]["ring_slots"], std::string(GetParam().arenas) == "single" ? 1 : 2);
    EXPECT_EQ(run["batches_run"], 3);
    EXPECT_EQ(run["workers"], 2);
    EXPECT_EQ(run["starpu"]["fxt"]["trace_files"][0], traces[0].filename().string());
    // 3 batches of 2 chunks (3 layer tasks each, 2 SGD tasks) and 6 evaluation chunks of 50
    // (conv+pool and dense); the prefetching loaders convert each of the 3 batches in a task
    // of their own.
    const int loaderTasks = std::string(GetParam().loader) == "naive" ? 0 : 3;
    EXPECT_EQ(run["tasks"]["submitted"], 3 * (2 * 3 + 2) + 6 * 2 + loaderTasks);
    // Every task submitted ran, and no task ran that the count of submitted ones misses.
    EXPECT_EQ(run["tasks"]["executed"], run["tasks"]["submitted"]);
    EXPECT_EQ(run["test"]["images"], 300);
    // Every ring slot appears with its peak, read directly and through PAPI's sde component.
    int batchArenas = 0;
    for (const auto& arena : run["arenas"]) {
        if (arena["role"] == "batch") {
            ++batchArenas;
            EXPECT_GT(arena["peak_bytes"].get<long long>(), 0) << arena.dump();
            if (arena["sde"]["available"].get<bool>()) {
                EXPECT_EQ(arena["sde"]["values"]["peak_bytes"], arena["peak_bytes"]);
                EXPECT_EQ(arena["sde"]["values"]["resets"], arena["resets"]);
            }
        }
    }
    EXPECT_EQ(batchArenas, run["strategy"]["ring_slots"].get<int>());
    EXPECT_FALSE(std::filesystem::exists(out / "run.json.tmp"));
}

INSTANTIATE_TEST_SUITE_P(
    ArenasByLoaders, RecordStrategy,
    ::testing::Values(Combination{"single", "naive"}, Combination{"single", "prefetch"},
                      Combination{"single", "advanced"}, Combination{"single", "double-prefetch"},
                      Combination{"double", "naive"}, Combination{"double", "prefetch"},
                      Combination{"double", "advanced"}, Combination{"double", "double-prefetch"}),
    [](const ::testing::TestParamInfo<Combination>& param) {
        std::string name = std::string(param.param.arenas) + "_" + param.param.loader;
        std::replace(name.begin(), name.end(), '-', '_');
        return name;
    });

TEST(Record, CtrlCStopsAtABatchBoundaryAndKeepsTheTrace) {
    TempDir dir;
    const auto out = dir / "run";
    const std::string outArg = out.string();
    const std::string logPath = (dir / "log.txt").string();
    // Long enough that it cannot finish before the signal: five full epochs.
    std::vector<std::string> args{STARSCOPE_BINARY, "record", "--epochs", "5",
                                  "--workers",      "2",      "--out",    outArg};
    const pid_t pid = spawnLogged(args, logPath);
    ASSERT_GT(pid, 0) << args[0];
    // Signal once a batch has finished: the run trains, however loaded the machine is and
    // however long StarPU's start (which touches the whole FxT buffer) took.
    ASSERT_TRUE(waitUntilTraining(logPath, pid));
    ASSERT_EQ(::kill(pid, SIGINT), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status))
        << "ended by a signal: " << starscope::testing::readFile(logPath);
    EXPECT_EQ(WEXITSTATUS(status), 130) << starscope::testing::readFile(logPath);

    const auto run = readJson(out / "run.json");
    ASSERT_TRUE(validRunJson(run));
    EXPECT_EQ(run["status"], "interrupted");
    EXPECT_TRUE(run["test"]["accuracy"].is_null());
    EXPECT_GT(run["batches_run"].get<long>(), 0);
    EXPECT_LT(run["batches_run"].get<long>(), 5 * 937);
    const auto traces = findProfFiles(out);
    ASSERT_EQ(traces.size(), 1U);
    // Every batch run is in the trace: 2 chunks of 32 with 3 layer tasks each, and 2 SGD tasks.
    const auto trace = starscope::tracer::readTrace(traces[0]);
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_GE(trace->tasks.size(), 8U * run["batches_run"].get<std::size_t>());
}
