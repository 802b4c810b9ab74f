// One run, three presentations: `starscope compare --json`, the sweep's summary.json and the
// viewer's comparison print the figures of the run model (tracer/run/), so for the same run
// folders they hold the same value, or the same n/a reason, for every metric of its table.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/cli/commands.hpp"
#include "tracer/run/run_folder.hpp"
#include "workloads/sweep/sweep_summary.hpp"
#ifdef STARSCOPE_WITH_VIEWER
#include "viewer/core/comparison.hpp"
#endif

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace starscope::workloads {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
namespace run = tracer::run;

json compareJson(const std::vector<fs::path>& folders) {
    CLI::App app{"starscope"};
    std::ostringstream out;
    std::ostringstream err;
    tracer::cli::addCommands(app, out, err);
    std::vector<std::string> args{"starscope", "compare", "--json"};
    for (const auto& f : folders) {
        args.push_back(f.string());
    }
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    app.parse(static_cast<int>(argv.size()), argv.data());
    EXPECT_TRUE(err.str().empty()) << err.str();
    return json::parse(out.str());
}

run::RunRecord record(const std::string& loader, bool counters) {
    run::RunRecord r;
    r.strategy = {"single", 1, loader, ""};
    r.batchesPerEpoch = 4;
    r.wallTimeS = 2.0;
    r.peakArenaBytes = std::map<std::string, double>{{"batch0", 1 << 20}};
    r.papi.availability = {true, counters, counters ? "" : "no PMU in this VM"};
    if (counters) {
        r.papi.events = {{"PAPI_TOT_INS", true, "", 300, {}},
                         {"PAPI_TOT_CYC", true, "", 200, {}},
                         {"perf::LLC-loads", true, "", 100, {}},
                         {"perf::LLC-load-misses", true, "", 25, {}}};
        r.energy.availability = {true, true, ""};
        r.energy.joules = 12.5;
    } else {
        r.energy.availability = {true, false, "no RAPL"};
    }
    return r;
}

TEST(Presentations, CompareSweepSummaryAndViewerShowTheSameFigures) {
    testing::TempDir dir;
    std::vector<fs::path> folders;
    std::vector<SweepRow> rows;
    for (const auto& [loader, counters] : {std::pair{"naive", false}, std::pair{"advanced", true}}) {
        const auto folder = dir / (std::string("single-") + loader + "-r0");
        fs::create_directories(folder);
        fs::copy_file(tracer::testing::smallProfFile(), folder / "prof_file__0");
        ASSERT_TRUE(run::writeRunRecord(folder / run::kRunJsonName, record(loader, counters)));
        folders.push_back(folder);
        rows.push_back(measureRun(SweepRun{folder.filename().string(), "single", loader, 0, folder, {}}, rows.size(), "recorded"));
    }
    ASSERT_TRUE(writeSummary(dir.path(), rows));
    std::ifstream in(dir / "summary.json");
    const json summary = json::parse(in);
    const json compare = compareJson(folders);
#ifdef STARSCOPE_WITH_VIEWER
    auto viewer = viewer::loadComparison(folders, tracer::BarrierOptions{}.threshold);
    ASSERT_TRUE(viewer) << viewer.error().message;
#endif
    std::size_t numbers = 0;
    std::size_t reasons = 0;
    for (std::size_t i = 0; i < folders.size(); ++i) {
        const json& row = summary.at("runs")[i];
        const json& column = compare.at("strategies")[i];
        ASSERT_EQ(column.at("runs")[0], folders[i].string());
        for (const auto& m : run::metrics()) {
            const std::string key(m.key);
            const json& c = column.at("metrics").at(key);
            SCOPED_TRACE(key + " of " + folders[i].string());
            EXPECT_EQ(row.at(key), c.at("value"));
#ifdef STARSCOPE_WITH_VIEWER
            const auto& f = viewer->figures[i].*(m.figure);
            EXPECT_EQ(f.value ? json(*f.value) : json(nullptr), c.at("value"));
#endif
            if (c.at("value").is_null()) {
                ++reasons;
                EXPECT_EQ(row.at("na").at(key), c.at("reason"));
#ifdef STARSCOPE_WITH_VIEWER
                EXPECT_EQ(f.reason, c.at("reason").get<std::string>());
#endif
            } else {
                ++numbers;
            }
        }
    }
    // Both kinds were compared: figures and n/a reasons (no PMU, no RAPL, no total_time_s).
    EXPECT_GT(numbers, 20U);
    EXPECT_GT(reasons, 5U);
}

} // namespace
} // namespace starscope::workloads
