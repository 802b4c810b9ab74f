// The tracer's `starscope` subcommands, run in-process on argument vectors.

#include "common/cli_conventions.hpp"
#include "tests/support/fifo_reader.hpp"
#include "tests/support/test_support.hpp"
#include "tests/tracer/cli_runner.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/cli/commands.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/native/native_format.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace starscope::tracer {
namespace {

using namespace testing;
using starscope::testing::matchesGolden;
using starscope::testing::readFile;
using starscope::testing::TempDir;

using Run = CliRun;

Run run(std::vector<std::string> args) {
    return runCli(std::move(args));
}

// The input path differs between machines: golden files hold a placeholder.
std::string placeholder(std::string text, const std::string& path) {
    for (std::size_t pos; (pos = text.find(path)) != std::string::npos;) {
        text.replace(pos, path.size(), "<input>");
    }
    return text;
}

TEST(Cli, StatsTableMatchesGolden) {
    const auto input = smallRun().string();
    const auto r = run({"stats", input});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(matchesGolden(placeholder(r.out, input), "tracer/small/stats.txt"));
}

TEST(Cli, StatsJsonForScripts) {
    const auto r = run({"stats", smallPaje().string(), "--json", "--from-ms", "10", "--to-ms", "20"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc.at("format"), "paje");
    EXPECT_EQ(doc.at("range_ns")[0], 10'000'000);
    EXPECT_EQ(doc.at("range_ns")[1], 20'000'000);
    EXPECT_EQ(doc.at("summary").at("tasks"), 20);
    for (const auto& lane : doc.at("lanes")) {
        const std::int64_t sum = lane.at("executing_ns").get<std::int64_t>() + lane.at("sleeping_ns").get<std::int64_t>()
                                 + lane.at("overhead_ns").get<std::int64_t>() + lane.at("user_ns").get<std::int64_t>()
                                 + lane.at("idle_ns").get<std::int64_t>();
        EXPECT_EQ(sum, 10'000'000) << lane.at("name");
    }
}

// A figure the input cannot support is n/a with the reason, never a number: the Paje trace
// has no task dependencies (its critical path would be the longest single task), and a trace
// without starscope markers has no batch transition to attribute barriers to.
TEST(Cli, FiguresTheInputCannotSupportAreNaWithTheReason) {
    auto r = run({"stats", smallPaje().string()});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("critical path  n/a (no task dependencies in a Paje trace)\n"), std::string::npos) << r.out;
    r = run({"stats", smallPaje().string(), "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc.at("summary").at("critical_path_ns"),
              (nlohmann::json{{"value", nullptr}, {"reason", "no task dependencies in a Paje trace"}}));
    EXPECT_GT(doc.at("summary").at("mean_transition_stall_ns").at("value").get<double>(), 0.0);

    r = run({"stats", smallProfFile().string(), "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    doc = nlohmann::json::parse(r.out);
    EXPECT_GT(doc.at("summary").at("critical_path_ns").at("value").get<double>(), 0.0);
    EXPECT_FALSE(doc.at("summary").at("critical_path_ns").contains("reason"));

    TempDir dir;
    auto trace = makeTrace(
        {{"w0", LaneKind::CpuWorker, {{"Executing", 0, 100}, {"Sleeping", 100, 900}, {"Executing", 900, 1000}}},
         {"main", LaneKind::MainThread, {{"Waiting all tasks", 100, 900}}}},
        1000);
    const auto unmarked = dir / "unmarked.sstrace";
    ASSERT_TRUE(writeNativeFile(trace, unmarked));
    r = run({"stats", unmarked.string()});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("transitions    n/a (no starscope markers in the trace)\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("critical path  n/a (no task dependencies in the trace)\n"), std::string::npos) << r.out;
    r = run({"barriers", unmarked.string(), "--threshold-us", "0.5"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("1 barriers longer than 500 ns (batch transitions n/a (no starscope markers in the trace))"),
              std::string::npos)
        << r.out;
    r = run({"barriers", unmarked.string(), "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out).at("transitions"),
              (nlohmann::json{{"value", nullptr}, {"reason", "no starscope markers in the trace"}}));
    r = run({"barriers", smallProfFile().string(), "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out).at("transitions"), (nlohmann::json{{"value", 3}}));
}

TEST(Cli, BarriersTableJsonAndCsv) {
    const auto input = smallProfFile().string();
    auto r = run({"barriers", input});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(matchesGolden(r.out, "tracer/small/barriers.txt"));
    r = run({"barriers", input, "--json", "--threshold-us", "1000"});
    ASSERT_EQ(r.code, 0);
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc.at("threshold_ns"), 1'000'000);
    for (const auto& b : doc.at("barriers")) {
        EXPECT_GT(b.at("duration_ns").get<std::int64_t>(), 1'000'000);
    }
    r = run({"barriers", input, "--csv"});
    ASSERT_EQ(r.code, 0);
    EXPECT_TRUE(matchesGolden(r.out, "tracer/small/barriers.csv"));
}

TEST(Cli, ExportFormatsToFiles) {
    TempDir dir;
    const auto input = smallRun().string();
    for (const std::string format : {"paje", "chrome", "csv"}) {
        const auto out = (dir / ("out." + format)).string();
        const auto r = run({"export", input, "--format", format, "-o", out});
        ASSERT_EQ(r.code, 0) << format << ": " << r.err;
        EXPECT_FALSE(starscope::testing::readFile(out).empty());
    }
    EXPECT_TRUE(nlohmann::json::accept(starscope::testing::readFile(dir / "out.chrome")));
    const auto r = run({"export", input, "--format", "csv", "--table", "tasks"});
    ASSERT_EQ(r.code, 0);
    EXPECT_TRUE(matchesGolden(r.out, "tracer/small/tasks.csv"));
    EXPECT_NE(run({"export", input, "--format", "svg"}).code, 0);
}

TEST(Cli, ConvertThenReadTheNativeFile) {
    TempDir dir;
    const auto native = (dir / "small.sstrace").string();
    auto r = run({"convert", smallProfFile().string(), "-o", native});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto fromNative = run({"stats", native, "--json"});
    const auto fromFxt = run({"stats", smallProfFile().string(), "--json"});
    ASSERT_EQ(fromNative.code, 0);
    auto a = nlohmann::json::parse(fromNative.out);
    auto b = nlohmann::json::parse(fromFxt.out);
    a.erase("input");
    b.erase("input");
    EXPECT_EQ(a, b);
}

// `-o` names what the user means: a device or FIFO is written through (as root, replacing
// /dev/null with a regular file broke the machine), a symlink is followed, a folder refused.
TEST(Cli, ExportAndConvertWriteThroughDevicesAndFollowSymlinks) {
    TempDir dir;
    const auto input = smallPaje().string();
    const auto device = dir / "null";
    if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
        for (const std::string command : {"export", "convert"}) {
            auto args = std::vector<std::string>{command, input, "-o", device.string()};
            if (command == "export") {
                args.insert(args.end(), {"--format", "csv"});
            }
            const auto r = run(args);
            ASSERT_EQ(r.code, 0) << command << ": " << r.err;
            EXPECT_TRUE(std::filesystem::is_character_file(std::filesystem::symlink_status(device))) << command;
        }
    }
    const auto fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    starscope::testing::FifoReader reader(fifo);
    const auto piped = run({"export", input, "--format", "csv", "-o", fifo.string()});
    const std::string received = reader.received();
    ASSERT_EQ(piped.code, 0) << piped.err;
    EXPECT_TRUE(std::filesystem::is_fifo(std::filesystem::symlink_status(fifo)));
    EXPECT_NE(received.find("lane,level,state"), std::string::npos);

    std::filesystem::create_directory(dir / "real");
    std::filesystem::create_symlink("real/out.csv", dir / "link.csv");
    ASSERT_EQ(run({"export", input, "--format", "csv", "-o", (dir / "link.csv").string()}).code, 0);
    EXPECT_TRUE(std::filesystem::is_symlink(dir / "link.csv"));
    EXPECT_EQ(starscope::testing::readFile(dir / "real" / "out.csv"), received);

    const auto folder = run({"convert", input, "-o", (dir / "real").string()});
    EXPECT_EQ(folder.code, 1);
    EXPECT_NE(folder.err.find("is a folder"), std::string::npos) << folder.err;
}

// Every usage mistake exits 2 (CLI11 alone answered 105, 106 or 109 by kind), numeric ranges
// read as a person would write them (CLI::NonNegativeNumber printed the 309 digits of
// DBL_MAX), and options that cannot go together are refused instead of one silently winning.
TEST(Cli, UsageErrorsExitTwoWithReadableMessages) {
    const auto input = smallPaje().string();
    const struct {
        std::vector<std::string> args;
        std::string message;
    } cases[] = {
        {{"stats", input, "--threshold-us", "-5"}, "--threshold-us: must be between 0 and 1000000000000, got -5"},
        {{"stats", input, "--threshold-us", "nan"}, "--threshold-us: 'nan' is not a number"},
        {{"stats", input, "--to-ms", "1e30"}, "--to-ms: must be between 0 and 1000000000, got 1e30"},
        {{"barriers", input, "--json", "--csv"}, "--json excludes --csv"},
        {{"barriers", input, "--threshold-us", "-1"}, "--threshold-us: must be between 0"},
        {{"export", input, "--format", "paje", "--table", "tasks"}, "--table applies to --format csv only"},
        {{"export", input, "--format", "csv", "--threshold-us", "5"}, "--threshold-us applies to --format csv --table barriers"},
        {{"compare", input, "--threshold-us", "-1"}, "--threshold-us: must be between 0"},
        {{"stats"}, "input is required"},
        {{"stats", input, "--no-such-flag"}, "--no-such-flag"},
    };
    for (const auto& c : cases) {
        const auto r = run(c.args);
        EXPECT_EQ(r.code, 2) << c.args[0] << " " << c.message << "\n" << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
        EXPECT_LT(r.err.size(), 200U) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    // Each output option alone still works.
    EXPECT_EQ(run({"barriers", input, "--csv"}).code, 0);
    EXPECT_EQ(run({"export", input, "--format", "csv", "--table", "barriers", "--threshold-us", "5"}).code, 0);
}

// A StarPU-MPI job's stats give each rank's area bound beside the job's, in text and JSON.
TEST(Cli, StatsGiveTheAreaBoundPerRank) {
    const auto input = (starscope::testing::testDataDir() / "tracer" / "ranks13").string();
    const auto r = run({"stats", input, "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto summary = nlohmann::json::parse(r.out).at("summary");
    const auto& perRank = summary.at("area_bound_per_rank");
    ASSERT_EQ(perRank.size(), 2U);
    std::int64_t executing = 0;
    std::size_t workers = 0;
    for (std::size_t i = 0; i < perRank.size(); ++i) {
        EXPECT_EQ(perRank[i].at("rank"), i);
        const auto w = perRank[i].at("workers").get<std::size_t>();
        EXPECT_GT(w, 0U);
        executing += perRank[i].at("area_bound_ns").get<std::int64_t>() * static_cast<std::int64_t>(w);
        workers += w;
    }
    EXPECT_EQ(workers, summary.at("workers").get<std::size_t>());
    // The job's bound is the ranks' executing time over all their workers (to a tick per worker).
    EXPECT_NEAR(static_cast<double>(executing) / static_cast<double>(workers),
                summary.at("area_bound_ns").get<double>(), static_cast<double>(workers));
    const auto text = run({"stats", input});
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("\n  per rank     rank 0 "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find(", rank 1 "), std::string::npos) << text.out;
    const auto one = run({"stats", smallRun().string(), "--json"});
    EXPECT_FALSE(nlohmann::json::parse(one.out).at("summary").contains("area_bound_per_rank"));
}

// Two prof files are two processes, merged; one file named twice is refused.
TEST(Cli, SeveralProfFilesMerge) {
    TempDir dir;
    std::filesystem::copy_file(smallProfFile(), dir / "prof_file__0");
    std::filesystem::copy_file(smallProfFile(), dir / "prof_file__1");
    const auto one = run({"stats", smallProfFile().string(), "--json"});
    const auto two =
        run({"stats", (dir / "prof_file__0").string(), (dir / "prof_file__1").string(), "--json"});
    ASSERT_EQ(two.code, 0) << two.err;
    EXPECT_EQ(nlohmann::json::parse(two.out).at("summary").at("tasks").get<int>(),
              2 * nlohmann::json::parse(one.out).at("summary").at("tasks").get<int>());
    const auto mixed = run({"stats", smallProfFile().string(), smallPaje().string()});
    EXPECT_EQ(mixed.code, 1);
    EXPECT_NE(mixed.err.find("prof files"), std::string::npos) << mixed.err;
    const auto twice = run({"stats", smallProfFile().string(), smallProfFile().string()});
    EXPECT_NE(twice.code, 0);
    EXPECT_NE(twice.err.find("the same file as " + smallProfFile().string() + ", given twice"),
              std::string::npos)
        << twice.err;
}

TEST(Cli, ErrorsNameTheFileAndExitNonZero) {
    TempDir dir;
    std::ofstream(dir / "broken.trace") << "%EventDef PajeSetState 1\n% Time date\n%EndEventDef\n1 x\n";
    const auto r = run({"stats", (dir / "broken.trace").string()});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("broken.trace"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("byte"), std::string::npos) << r.err;
    const auto missing = run({"barriers", (dir / "nope").string()});
    EXPECT_EQ(missing.code, 1);
    EXPECT_NE(missing.err.find("nope"), std::string::npos);
    EXPECT_NE(run({"stats"}).code, 0);   // missing argument
}

TEST(Cli, CompareGroupsRunsByStrategyWithNaReasons) {
    TempDir dir;
    for (const std::string name : {"a1", "a2", "b1"}) {
        std::filesystem::create_directories(dir / name);
        std::filesystem::copy_file(smallProfFile(), dir / name / "prof_file__0");
    }
    // The layout workloads/train_record/run_json.cpp writes.
    const std::string noCounters = R"("counters": {"papi": {"available": false, "reason": "no PMU"},
                                                   "energy": {"available": false, "reason": "no RAPL"}})";
    std::ofstream(dir / "a1" / "run.json") << R"({"strategy": {"arenas": "single", "loader": "naive"},
        "peak_arena_bytes": {"batch0": 1048576, "network": 0}, )" << noCounters << "}";
    std::ofstream(dir / "a2" / "run.json") << R"({"strategy": {"arenas": "single", "loader": "naive"},
        "peak_arena_bytes": {"batch0": 2097152, "network": 1048576}, )" << noCounters << "}";
    std::ofstream(dir / "b1" / "run.json") << R"({"strategy": "double+advanced", "counters": {"papi": {"available": true,
        "events": [{"name": "PAPI_TOT_INS", "available": true, "total": 300},
                   {"name": "PAPI_TOT_CYC", "available": true, "total": 200},
                   {"name": "perf::LLC-loads", "available": true, "total": 100},
                   {"name": "perf::LLC-load-misses", "available": true, "total": 25}]},
        "energy": {"available": true, "joules": 12.5}}})";
    const auto r = run({"compare", dir.path().string(), "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc.at("strategies").size(), 2U);
    const auto& single = doc.at("strategies")[0];
    EXPECT_EQ(single.at("strategy"), "single+naive");
    EXPECT_EQ(single.at("runs").size(), 2U);
    EXPECT_EQ(single.at("metrics").at("peak_memory_bytes").at("median"), 2097152.0);   // (1 + 3 MiB) / 2
    EXPECT_EQ(single.at("metrics").at("peak_memory_bytes").at("min"), 1048576.0);
    EXPECT_EQ(single.at("metrics").at("ipc").at("reason"), "no PMU");
    EXPECT_EQ(single.at("metrics").at("energy_j").at("reason"), "no RAPL");
    const auto& other = doc.at("strategies")[1];
    EXPECT_EQ(other.at("metrics").at("ipc").at("median"), 1.5);
    EXPECT_EQ(other.at("metrics").at("ipc").at("value"), 1.5);   // the shape of every figure: value, or null and reason
    EXPECT_EQ(other.at("metrics").at("llc_load_miss_ratio").at("median"), 0.25);
    EXPECT_EQ(other.at("metrics").at("energy_j").at("median"), 12.5);
    EXPECT_TRUE(other.at("metrics").at("llc_store_miss_ratio").at("value").is_null());
    EXPECT_TRUE(other.at("metrics").at("peak_memory_bytes").at("value").is_null());
    // Same trace everywhere: every delta against the baseline is zero.
    EXPECT_EQ(other.at("metrics").at("makespan_ns").at("delta_vs_baseline"), 0.0);
    const auto table = run({"compare", (dir / "a1").string(), (dir / "b1").string()});
    ASSERT_EQ(table.code, 0) << table.err;
    // Every n/a of the table is explained under it, with the reason run.json gives: once per
    // reason and strategies, naming its metrics.
    EXPECT_NE(table.out.find("\nIPC, LLC load miss, LLC store miss n/a for single+naive: no PMU\n"), std::string::npos)
        << table.out;
    EXPECT_NE(table.out.find("\nenergy, power n/a for single+naive: no RAPL\n"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("single+naive"), std::string::npos);
}

// A sweep folder: the table follows sweep.json's strategy order (its first is the default
// baseline), and a run that did not complete is skipped with a word on stderr; the same run
// named by the user is kept with a warning.
TEST(Cli, CompareFollowsTheSweepOrderAndSkipsUnfinishedRuns) {
    TempDir dir;
    const auto sweep = dir / "sweep";
    const auto makeRun = [&](const std::string& name, const std::string& strategy, const std::string& status) {
        std::filesystem::create_directories(sweep / name);
        std::filesystem::copy_file(smallProfFile(), sweep / name / "prof_file__0");
        std::ofstream(sweep / name / "run.json")
            << R"({"strategy": ")" << strategy << R"(", "status": ")" << status << R"("})";
    };
    // Folder names sort the other way round from the sweep's order.
    makeRun("a-r0", "double+advanced", "completed");
    makeRun("a-r1", "double+advanced", "interrupted");
    makeRun("b-r0", "single+naive", "completed");
    makeRun("c-r0", "single+prefetch", "failed");
    std::ofstream(sweep / "sweep.json")
        << R"({"format": "starscope-sweep", "version": 1, "record_args": [],
               "strategies": ["single+naive", "single+prefetch", "double+advanced"]})";
    const auto r = run({"compare", sweep.string(), "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc.at("baseline"), "single+naive");
    ASSERT_EQ(doc.at("strategies").size(), 2U) << doc.dump(2);
    EXPECT_EQ(doc.at("strategies")[0].at("strategy"), "single+naive");
    EXPECT_EQ(doc.at("strategies")[1].at("strategy"), "double+advanced");
    EXPECT_EQ(doc.at("strategies")[1].at("runs").size(), 1U);
    EXPECT_NE(r.err.find("skipping " + (sweep / "a-r1").string() + ": its run is interrupted"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("skipping " + (sweep / "c-r0").string() + ": its run is failed"), std::string::npos)
        << r.err;

    const auto named = run({"compare", (sweep / "a-r1").string(), (sweep / "b-r0").string(), "--json"});
    ASSERT_EQ(named.code, 0) << named.err;
    EXPECT_EQ(nlohmann::json::parse(named.out).at("baseline"), "double+advanced");
    EXPECT_NE(named.err.find("warning: " + (sweep / "a-r1").string()), std::string::npos) << named.err;

    const auto nothing = run({"compare", (sweep / "c-r0").string()});
    EXPECT_EQ(nothing.code, 0) << "a named run is compared even when it failed";
}

// Runs of different workloads are refused with the difference named, unless --allow-mixed,
// which labels the column with what differs; the same run given twice counts once.
TEST(Cli, CompareRefusesMixedWorkloadsUnlessAllowed) {
    TempDir dir;
    for (const auto& [name, batches] : {std::pair{"two", 2}, std::pair{"ten", 10}}) {
        std::filesystem::create_directories(dir / name);
        std::filesystem::copy_file(smallProfFile(), dir / name / "prof_file__0");
        std::ofstream(dir / name / "run.json") << R"({"strategy": {"arenas": "single", "loader": ")" << name
                                               << R"("}, "batches_per_epoch": )" << batches << "}";
    }
    const auto two = (dir / "two").string();
    const auto ten = (dir / "ten").string();
    const auto refused = run({"compare", two, ten});
    EXPECT_EQ(refused.code, 1);
    EXPECT_NE(refused.err.find(ten + " has batches 10 (2 in " + two + ")"), std::string::npos) << refused.err;
    const auto mixed = run({"compare", two, ten, two, "--allow-mixed"});
    ASSERT_EQ(mixed.code, 0) << mixed.err;
    EXPECT_NE(mixed.out.find("single+ten [batches 10] differs: batches 10 (2 in " + two + ")"), std::string::npos)
        << mixed.out;
    EXPECT_NE(mixed.out.find("single+two (1 runs)"), std::string::npos) << mixed.out;
    EXPECT_NE(mixed.err.find(two + ": given more than once, counted once"), std::string::npos) << mixed.err;
}

// A missing --to-ms is the end of the trace: a --from-ms past it is the mistake to name.
TEST(Cli, StatsFromAloneIsRangedToTheEndOfTheTrace) {
    const auto input = smallRun().string();
    const auto within = run({"stats", input, "--from-ms", "1"});
    EXPECT_EQ(within.code, 0) << within.err;
    const auto past = run({"stats", input, "--from-ms", "1000"});
    EXPECT_EQ(past.code, 2);
    EXPECT_NE(past.err.find("starscope stats: --from-ms 1000 is after the end of the trace, at "),
              std::string::npos)
        << past.err;
    EXPECT_EQ(past.err.find("--to-ms"), std::string::npos) << past.err;
    const auto reversed = run({"stats", input, "--from-ms", "20", "--to-ms", "10"});
    EXPECT_EQ(reversed.code, 2);
    EXPECT_NE(reversed.err.find("--to-ms is before --from-ms"), std::string::npos) << reversed.err;
}

// An output that is the input (by name, through a link, or a run folder's own file) would
// replace the recording with its conversion: refused, the input left as it was.
TEST(Cli, ExportAndConvertNeverOverwriteTheirInput) {
    TempDir dir;
    const auto trace = dir / "trace";
    std::filesystem::copy_file(smallProfFile(), trace);
    std::filesystem::create_symlink(trace, dir / "link");
    const auto original = readFile(trace);
    for (const auto& output : {trace, dir / "link"}) {
        const auto r = run({"export", trace.string(), "--format", "chrome", "-o", output.string()});
        EXPECT_EQ(r.code, 2) << output;
        EXPECT_NE(r.err.find("starscope export: -o " + output.string() + " is the input file "
                             + trace.string()),
                  std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find("would replace the recording"), std::string::npos) << r.err;
    }
    EXPECT_EQ(readFile(trace), original);

    const auto folder = dir / "run";
    std::filesystem::create_directories(folder);
    std::filesystem::copy_file(smallProfFile(), folder / "prof_file__0");
    std::ofstream(folder / "run.json")
        << R"({"strategy": {"arenas": "single", "loader": "naive"}})";
    const auto runJson = readFile(folder / "run.json");
    for (const std::string name : {"run.json", "prof_file__0"}) {
        const auto r = run({"convert", folder.string(), "-o", (folder / name).string()});
        EXPECT_EQ(r.code, 2) << name;
        EXPECT_NE(r.err.find("is the input file " + (folder / name).string()), std::string::npos)
            << r.err;
    }
    EXPECT_EQ(readFile(folder / "run.json"), runJson);
    EXPECT_EQ(readFile(folder / "prof_file__0"), original);
    // The folder's own cache is the conversion's place.
    const auto cached = run({"convert", folder.string()});
    EXPECT_EQ(cached.code, 0) << cached.err;
    EXPECT_TRUE(std::filesystem::exists(folder / "trace.sstrace"));
}

// A run recorded with --no-trace has a run.json and no prof file: compare says it has no trace.
TEST(Cli, CompareOfARunWithoutTraceSaysSo) {
    TempDir dir;
    std::filesystem::create_directories(dir / "traced");
    std::filesystem::copy_file(smallProfFile(), dir / "traced" / "prof_file__0");
    std::filesystem::create_directories(dir / "untraced");
    std::ofstream(dir / "untraced" / "run.json")
        << R"({"strategy": {"arenas": "single", "loader": "naive"}, "traced": false})";
    const auto r = run({"compare", (dir / "traced").string(), (dir / "untraced").string()});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find((dir / "untraced").string()
                         + ": no trace: this run was recorded without tracing (record --no-trace"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("neither a run folder"), std::string::npos) << r.err;
}

} // namespace
} // namespace starscope::tracer
