// `starscope sweep` end to end, run as a user runs it: interleaved order, run folders and
// summary, resume (completed runs skipped, interrupted or broken runs redone), Ctrl-C, bad
// input, and `starscope compare` over the sweep agreeing with `starscope stats` per run.

#include "tests/support/test_support.hpp"
#include "tests/workloads/run_folder.hpp"

#include <cerrno>
#include <csignal>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using starscope::testing::readFile;
using starscope::testing::runCommand;
using starscope::testing::TempDir;
using namespace starscope::workloads::testing;
namespace fs = std::filesystem;

extern char** environ;

namespace {

// Two strategies, a couple of tiny batches each.
const std::string kTiny = "--arenas single,double --loaders naive --batches 2 --batch-size 32 "
                          "--chunk 16 --workers 2 --test-images 100";

const std::vector<std::string> kInterleaved = {"single-naive-r0", "double-naive-r0",
                                               "single-naive-r1", "double-naive-r1"};

std::string runStarscope(const std::string& args, const fs::path& log) {
    return std::string("'") + STARSCOPE_BINARY + "' " + args + " > '" + log.string() + "' 2>&1";
}

int sweep(const fs::path& out, const std::string& args, const fs::path& log) {
    return runCommand(runStarscope("sweep --out '" + out.string() + "' " + args, log));
}

std::vector<std::string> linesWith(const std::string& text, const std::string& word) {
    std::vector<std::string> found;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const auto at = line.find(word);
        if (at != std::string::npos) {
            found.push_back(line.substr(at + word.size()));
        }
    }
    return found;
}

// Run names after "[i/n] record " (cut at ':'), in log order.
std::vector<std::string> recorded(const std::string& log) {
    std::vector<std::string> names;
    for (auto line : linesWith(log, "] record ")) {
        names.push_back(line.substr(0, line.find(':')));
    }
    return names;
}

std::vector<std::string> skipped(const std::string& log) {
    std::vector<std::string> names;
    for (auto line : linesWith(log, "] skip ")) {
        names.push_back(line.substr(0, line.find(' ')));
    }
    return names;
}

fs::file_time_type mtime(const fs::path& p) {
    return fs::last_write_time(p);
}

} // namespace

TEST(Sweep, RecordsEveryStrategyInterleavedWithASummary) {
    TempDir dir;
    const auto out = dir / "sweep";
    const auto log = dir / "log.txt";
    ASSERT_EQ(sweep(out, kTiny + " --repeat 2", log), 0) << readFile(log);
    EXPECT_EQ(recorded(readFile(log)), kInterleaved) << readFile(log);

    std::string previousStart;
    for (const auto& name : kInterleaved) {
        const auto run = readJson(out / name / "run.json");
        ASSERT_TRUE(validRunJson(run)) << name;
        EXPECT_EQ(run["status"], "completed") << name;
        EXPECT_EQ(run["batches_run"], 2) << name;
        EXPECT_EQ(run["strategy"]["arenas"], name.substr(0, name.find('-'))) << name;
        EXPECT_EQ(findProfFiles(out / name).size(), 1U) << name;
        const auto start = run["started_at"].get<std::string>();
        EXPECT_LE(previousStart, start) << name << " started before the run listed ahead of it";
        previousStart = start;
    }

    const auto summary = readJson(out / "summary.json");
    ASSERT_EQ(summary["runs"].size(), kInterleaved.size()) << summary.dump(2);
    for (std::size_t i = 0; i < kInterleaved.size(); ++i) {
        const auto& row = summary["runs"][i];
        EXPECT_EQ(row["run"], kInterleaved[i]);
        EXPECT_EQ(row["order"], i);
        EXPECT_EQ(row["repetition"], i / 2);
        EXPECT_EQ(row["status"], "completed");
        EXPECT_EQ(row["action"], "recorded");
        EXPECT_GT(row["makespan_ns"].get<double>(), 0.0) << row.dump();
        EXPECT_GT(row["peak_memory_bytes"].get<double>(), 0.0) << row.dump();
        EXPECT_TRUE(row["barrier_count"].is_number()) << row.dump();
        EXPECT_TRUE(row["barrier_total_ns"].is_number()) << row.dump();
    }
    const auto csv = readFile(out / "summary.csv");
    std::istringstream lines(csv);
    std::string header;
    std::getline(lines, header);
    EXPECT_TRUE(header.starts_with("order,run,arenas,loader,repetition,status,action,")) << header;
    for (const auto& name : kInterleaved) {
        std::string line;
        ASSERT_TRUE(std::getline(lines, line)) << csv;
        EXPECT_NE(line.find("," + name + ","), std::string::npos) << line;
    }

    // compare over the sweep: per strategy, min and max of each figure are those that
    // `stats` gives for its two runs, and the summary holds the same numbers.
    const auto compareLog = dir / "compare.json";
    ASSERT_EQ(runCommand(runStarscope("compare --json '" + out.string() + "'", compareLog)), 0)
        << readFile(compareLog);
    const auto compare = nlohmann::json::parse(readFile(compareLog), nullptr, false);
    ASSERT_TRUE(compare.is_object()) << readFile(compareLog);
    const std::map<std::string, std::vector<std::string>> runsOf = {
        {"single+naive", {"single-naive-r0", "single-naive-r1"}},
        {"double+naive", {"double-naive-r0", "double-naive-r1"}}};
    ASSERT_EQ(compare["strategies"].size(), 2U) << compare.dump(2);
    // In the sweep's order (sweep.json), not the folders' alphabetical one.
    EXPECT_EQ(readJson(out / "sweep.json")["strategies"],
              nlohmann::json({"single+naive", "double+naive"}));
    EXPECT_EQ(compare["baseline"], "single+naive");
    EXPECT_EQ(compare["strategies"][0]["strategy"], "single+naive");
    for (const auto& strategy : compare["strategies"]) {
        const auto name = strategy["strategy"].get<std::string>();
        ASSERT_TRUE(runsOf.contains(name)) << name;
        std::map<std::string, std::vector<double>> fromStats;
        for (const auto& run : runsOf.at(name)) {
            const auto statsLog = dir / ("stats-" + run + ".json");
            ASSERT_EQ(
                runCommand(runStarscope("stats --json '" + (out / run).string() + "'", statsLog)),
                0)
                << readFile(statsLog);
            const auto stats = nlohmann::json::parse(readFile(statsLog), nullptr, false);
            ASSERT_TRUE(stats.is_object()) << readFile(statsLog);
            const auto& s = stats["summary"];
            fromStats["makespan_ns"].push_back(s["makespan_ns"].get<double>());
            fromStats["idleness"].push_back(s["idleness"].get<double>());
            fromStats["barrier_count"].push_back(s["barriers"]["count"].get<double>());
            fromStats["barrier_total_ns"].push_back(s["barriers"]["total_ns"].get<double>());
            fromStats["barrier_max_ns"].push_back(s["barriers"]["max_ns"].get<double>());
            fromStats["mean_transition_stall_ns"].push_back(
                s["mean_transition_stall_ns"]["value"].get<double>());
            for (const auto& row : summary["runs"]) {
                if (row["run"] == run) {
                    EXPECT_EQ(row["makespan_ns"].get<double>(), s["makespan_ns"].get<double>());
                    EXPECT_EQ(row["barrier_total_ns"].get<double>(),
                              s["barriers"]["total_ns"].get<double>());
                }
            }
        }
        for (const auto& [metric, values] : fromStats) {
            const auto& m = strategy["metrics"][metric];
            ASSERT_TRUE(m.contains("min")) << name << " " << metric << ": " << m.dump();
            EXPECT_DOUBLE_EQ(m["min"].get<double>(), std::min(values[0], values[1]))
                << name << " " << metric;
            EXPECT_DOUBLE_EQ(m["max"].get<double>(), std::max(values[0], values[1]))
                << name << " " << metric;
            EXPECT_DOUBLE_EQ(m["median"].get<double>(), (values[0] + values[1]) / 2)
                << name << " " << metric;
        }
    }
}

TEST(Sweep, ARerunSkipsCompletedRunsAndRedoesInterruptedOnes) {
    TempDir dir;
    const auto out = dir / "sweep";
    const auto log = dir / "log.txt";
    ASSERT_EQ(sweep(out, kTiny + " --repeat 2", log), 0) << readFile(log);
    std::map<std::string, fs::file_time_type> traceTimes;
    for (const auto& name : kInterleaved) {
        traceTimes[name] = mtime(findProfFiles(out / name).at(0));
    }

    ASSERT_EQ(sweep(out, kTiny + " --repeat 2", log), 0) << readFile(log);
    EXPECT_TRUE(recorded(readFile(log)).empty()) << readFile(log);
    EXPECT_EQ(skipped(readFile(log)), kInterleaved) << readFile(log);
    for (const auto& name : kInterleaved) {
        EXPECT_EQ(mtime(findProfFiles(out / name).at(0)), traceTimes[name]) << name;
    }
    EXPECT_EQ(readJson(out / "summary.json")["runs"][0]["action"], "skipped");

    // One run marked interrupted (as record leaves it after Ctrl-C), one killed before it
    // wrote run.json: both are recorded again, the others stay.
    auto run = readJson(out / "double-naive-r0" / "run.json");
    run["status"] = "interrupted";
    std::ofstream(out / "double-naive-r0" / "run.json") << run.dump(2);
    fs::remove(out / "single-naive-r1" / "run.json");

    ASSERT_EQ(sweep(out, kTiny + " --repeat 2", log), 0) << readFile(log);
    EXPECT_EQ(recorded(readFile(log)),
              (std::vector<std::string>{"double-naive-r0", "single-naive-r1"}))
        << readFile(log);
    EXPECT_EQ(skipped(readFile(log)),
              (std::vector<std::string>{"single-naive-r0", "double-naive-r1"}))
        << readFile(log);
    for (const auto& name : kInterleaved) {
        EXPECT_EQ(readJson(out / name / "run.json")["status"], "completed") << name;
        EXPECT_EQ(findProfFiles(out / name).size(), 1U) << name;
    }
    EXPECT_EQ(mtime(findProfFiles(out / "single-naive-r0").at(0)), traceTimes["single-naive-r0"]);

    // Resuming with other record options would mix incomparable runs.
    const std::string other = "--arenas single,double --loaders naive --batches 3 --batch-size 32 "
                              "--chunk 16 --workers 2 --test-images 100";
    EXPECT_EQ(sweep(out, other + " --repeat 2", log), 2) << readFile(log);
    EXPECT_NE(readFile(log).find("another configuration (the record options were `--epochs 1 "
                                 "--batches 2 --batch-size 32 --workers 2 --sched ''"),
              std::string::npos)
        << readFile(log);
}

TEST(Sweep, CtrlCStopsAfterTheCurrentRun) {
    TempDir dir;
    const auto out = dir / "sweep";
    const std::string logPath = (dir / "log.txt").string();
    std::vector<std::string> args{
        STARSCOPE_BINARY, "sweep", "--out",     out.string(), "--arenas",      "single,double",
        "--loaders",      "naive", "--batches", "600",        "--batch-size",  "32",
        "--chunk",        "16",    "--workers", "2",          "--test-images", "100"};
    const pid_t pid = spawnLogged(args, logPath);
    ASSERT_GT(pid, 0) << args[0];
    // Ctrl-C once the first run trains (600 batches: it lasts well beyond its first one).
    ASSERT_TRUE(waitUntilTraining(out / "single-naive-r0" / "record.log", pid))
        << readFile(logPath);
    ASSERT_EQ(::kill(pid, SIGINT), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << readFile(logPath);
    EXPECT_EQ(WEXITSTATUS(status), 130) << readFile(logPath);
    // The run in progress finished normally; the next one never started.
    EXPECT_EQ(recorded(readFile(logPath)), std::vector<std::string>{"single-naive-r0"})
        << readFile(logPath);
    EXPECT_EQ(readJson(out / "single-naive-r0" / "run.json")["status"], "completed");
    EXPECT_FALSE(fs::exists(out / "double-naive-r0" / "run.json"));
    const auto summary = readJson(out / "summary.json");
    ASSERT_EQ(summary["runs"].size(), 2U);
    EXPECT_EQ(summary["runs"][1]["status"], "not run");

    const auto log = dir / "resume.txt";
    const std::string sameOptions =
        "--arenas single,double --loaders naive --batches 600 --batch-size 32 "
        "--chunk 16 --workers 2 --test-images 100";
    ASSERT_EQ(sweep(out, sameOptions, log), 0) << readFile(log);
    EXPECT_EQ(skipped(readFile(log)), std::vector<std::string>{"single-naive-r0"});
    EXPECT_EQ(recorded(readFile(log)), std::vector<std::string>{"double-naive-r0"});
}

TEST(Sweep, BadInputFailsBeforeAnythingIsRecorded) {
    TempDir dir;
    const auto out = dir / "sweep";
    const auto log = dir / "log.txt";
    const struct {
        std::string args;
        std::string message;
    } cases[] = {
        {"--arenas single,,double", "--arenas: empty item"},
        {"--loaders naive,naive", "--loaders: \"naive\" is listed twice"},
        {"--loaders naive,eager", "--loader"},
        {"--arenas single,triple", "--arenas"},
        {"--repeat 0", "--repeat: must be between 1 and 100, got 0"},
        {"--dataset '" + (dir / "nowhere").string() + "'", "nowhere"},
    };
    for (const auto& c : cases) {
        EXPECT_EQ(sweep(out, c.args + " --batches 2", log), 2) << c.args << "\n" << readFile(log);
        EXPECT_NE(readFile(log).find(c.message), std::string::npos) << c.args << "\n"
                                                                    << readFile(log);
        EXPECT_FALSE(fs::exists(out)) << c.args;
    }
    // A folder that is not a sweep is not taken over.
    fs::create_directories(out);
    std::ofstream(out / "notes.txt") << "mine";
    EXPECT_EQ(sweep(out, "--batches 2", log), 2) << readFile(log);
    EXPECT_NE(readFile(log).find("holds no sweep.json"), std::string::npos) << readFile(log);
}

namespace {

// The pid of the sweep's record child (its only child), 0 while there is none.
pid_t childOf(pid_t parent) {
    std::ifstream children("/proc/" + std::to_string(parent) + "/task/" + std::to_string(parent)
                           + "/children");
    pid_t child = 0;
    children >> child;
    return child;
}

} // namespace

// SIGTERM to a sweep used to end the sweep and leave its record child running on its own (in
// its own process group, so nothing else reached it). It is now passed on: the run stops at a
// batch boundary with its trace, the sweep exits 143, and the child is gone. While it runs,
// the sweep folder and the run folder are locked: a second sweep or a record into the run's
// folder is refused with the pid that holds it.
TEST(Sweep, SigtermIsPassedOnAndNoRunOutlivesTheSweep) {
    TempDir dir;
    const auto out = dir / "sweep";
    const std::string logPath = (dir / "log.txt").string();
    std::vector<std::string> args{
        STARSCOPE_BINARY, "sweep", "--out",          out.string(), "--arenas",      "single,double",
        "--loaders",      "naive", "--epochs",       "20",         "--batch-size",  "32",
        "--workers",      "2",     "--train-images", "1000",       "--test-images", "100"};
    const pid_t pid = spawnLogged(args, logPath);
    ASSERT_GT(pid, 0) << args[0];
    ASSERT_TRUE(waitUntilTraining(out / "single-naive-r0" / "record.log", pid))
        << readFile(logPath);
    const pid_t child = childOf(pid);
    ASSERT_GT(child, 0) << readFile(logPath);

    const auto log = dir / "second.txt";
    EXPECT_NE(
        sweep(out,
              "--arenas single,double --loaders naive --epochs 20 --batch-size 32 --workers 2 "
              "--train-images 1000 --test-images 100",
              log),
        0);
    EXPECT_NE(readFile(log).find("sweep folder is being written by another starscope (pid "
                                 + std::to_string(pid) + ")"),
              std::string::npos)
        << readFile(log);
    EXPECT_NE(runCommand(runStarscope(
                  "record --out '" + (out / "single-naive-r0").string() + "' --force", log)),
              0);
    EXPECT_NE(readFile(log).find("run folder is being written by another starscope (pid "
                                 + std::to_string(child) + ")"),
              std::string::npos)
        << readFile(log);

    ASSERT_EQ(::kill(pid, SIGTERM), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << readFile(logPath);
    EXPECT_EQ(WEXITSTATUS(status), 143) << readFile(logPath);
    // The sweep reaped its child before exiting: its pid no longer exists.
    EXPECT_EQ(::kill(child, 0), -1);
    EXPECT_EQ(errno, ESRCH);
    const auto run = readJson(out / "single-naive-r0" / "run.json");
    EXPECT_EQ(run["status"], "interrupted");
    EXPECT_EQ(run["interrupted_by"], "SIGTERM");
    EXPECT_EQ(findProfFiles(out / "single-naive-r0").size(), 1U);
    EXPECT_FALSE(fs::exists(out / "double-naive-r0" / "run.json"));
    EXPECT_NE(readFile(logPath).find("stopped by SIGTERM"), std::string::npos) << readFile(logPath);
}

// Resuming a sweep with fewer loaders (or repetitions) used to rewrite sweep.json and the
// summary down to that invocation's runs: the others were still in the folder but no longer
// in its summary. The summary covers every run the folder holds.
TEST(Sweep, AResumeWithFewerStrategiesKeepsEveryRunInTheSummary) {
    TempDir dir;
    const auto out = dir / "sweep";
    const auto log = dir / "log.txt";
    const std::string shared =
        "--arenas single --batches 2 --batch-size 32 --chunk 16 --workers 2 --test-images 100";
    ASSERT_EQ(sweep(out, shared + " --loaders naive,prefetch --repeat 2", log), 0) << readFile(log);
    ASSERT_EQ(sweep(out, shared + " --loaders naive", log), 0) << readFile(log);
    EXPECT_EQ(skipped(readFile(log)), std::vector<std::string>{"single-naive-r0"}) << readFile(log);

    const auto summary = readJson(out / "summary.json");
    std::map<std::string, std::string> actions;
    for (const auto& row : summary["runs"]) {
        actions[row["run"].get<std::string>()] = row["action"].get<std::string>();
        EXPECT_EQ(row["status"], "completed") << row.dump();
    }
    const std::map<std::string, std::string> expected{{"single-naive-r0", "skipped"},
                                                      {"single-prefetch-r0", "kept"},
                                                      {"single-naive-r1", "kept"},
                                                      {"single-prefetch-r1", "kept"}};
    EXPECT_EQ(actions, expected);
    EXPECT_EQ(linesWith(readFile(out / "summary.csv"), ",completed,").size(), 4U)
        << readFile(out / "summary.csv");
    EXPECT_EQ(readJson(out / "sweep.json")["strategies"],
              nlohmann::json({"single+naive", "single+prefetch"}));
}

// sweep.json keeps record's options, the program's arguments, --vary and the environment apart.
// A resume with `--vary` after `--` (an argument of the program then) used to be taken as the
// same sweep, and one with another STARPU_NCPU mixed configurations; both are refused before
// anything is recorded, naming what changed. The --vary variable itself may differ: the sweep
// sets it per run.
TEST(Sweep, AResumeWithAnotherConfigurationIsRefusedNamingTheChange) {
    TempDir dir;
    const auto out = dir / "sweep";
    const auto log = dir / "log.txt";
    const auto sweepWith = [&](const std::string& environment, const std::string& args) {
        return runCommand(environment + " "
                          + runStarscope("sweep --out '" + out.string() + "' " + args, log));
    };
    // /bin/true writes no trace, so its run fails; sweep.json is written before any run.
    const std::string asked = "--vary STARPU_SCHED=lws -- /bin/true";
    sweepWith("STARPU_NCPU=2", asked);
    ASSERT_TRUE(fs::exists(out / "sweep.json")) << readFile(log);
    const auto description = readJson(out / "sweep.json");

    const struct {
        std::string environment;
        std::string args;
        std::vector<std::string> changes;
    } refused[] = {
        {"STARPU_NCPU=2",
         "-- /bin/true --vary STARPU_SCHED=lws",
         {"the program and its arguments were `/bin/true`, are `/bin/true --vary "
          "STARPU_SCHED=lws` now",
          "--vary was STARPU_SCHED=lws, is not given now"}},
        {"STARPU_NCPU=3", asked, {"(STARPU_NCPU was 2, is 3 now)"}},
        {"STARPU_NCPU=2 OMP_NUM_THREADS=4", asked, {"(OMP_NUM_THREADS was unset, is 4 now)"}},
        {"env -u STARPU_NCPU", asked, {"(STARPU_NCPU was 2, is unset now)"}},
    };
    for (const auto& c : refused) {
        EXPECT_EQ(sweepWith(c.environment, c.args), 2) << c.args << "\n" << readFile(log);
        const std::string text = readFile(log);
        EXPECT_NE(text.find("sweep.json: this sweep was recorded with another configuration"),
                  std::string::npos)
            << text;
        for (const auto& change : c.changes) {
            EXPECT_NE(text.find(change), std::string::npos) << change << " in\n" << text;
        }
        EXPECT_TRUE(recorded(text).empty()) << text;
    }
    EXPECT_EQ(readJson(out / "sweep.json"), description) << "a refused resume changes nothing";
    EXPECT_EQ(description.value("version", 0), 2);
    EXPECT_EQ(description.value("program", nlohmann::json()), nlohmann::json({"/bin/true"}));
    EXPECT_EQ(description.value("vary", ""), "STARPU_SCHED=lws");
    EXPECT_EQ(description.value("environment", nlohmann::json()).value("STARPU_NCPU", ""), "2")
        << description.dump();

    sweepWith("STARPU_NCPU=2 STARPU_SCHED=eager", asked);
    EXPECT_EQ(recorded(readFile(log)), std::vector<std::string>{"true-lws-r0"}) << readFile(log);
}
