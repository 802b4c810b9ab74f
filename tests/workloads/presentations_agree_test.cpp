// One run, three presentations: `starscope compare` (JSON and table), the sweep's summary.json
// and the viewer's comparison (its figures and its table model) print the figures of the run
// model (tracer/run/), so for the same run folders they hold the same value, or the same n/a
// reason, for every metric of its table.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/cli/commands.hpp"
#include "tracer/run_folder/run_folder.hpp"
#include "workloads/sweep/sweep_summary.hpp"
#ifdef STARSCOPE_WITH_VIEWER
#include "viewer/core/comparison/comparison.hpp"
#include "viewer/gui/comparison/comparison_model.hpp"
#endif

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>

namespace starscope::workloads {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
namespace run = tracer::run;

// What `starscope compare [--json] folders...` prints.
std::string compare(const std::vector<fs::path>& folders, bool asJson) {
    CLI::App app{"starscope"};
    std::ostringstream out;
    std::ostringstream err;
    tracer::cli::addCommands(app, out, err);
    std::vector<std::string> args{"starscope", "compare"};
    if (asJson) {
        args.emplace_back("--json");
    }
    for (const auto& f : folders) {
        args.push_back(f.string());
    }
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    app.parse(static_cast<int>(argv.size()), argv.data());
    EXPECT_TRUE(err.str().empty()) << err.str();
    return out.str();
}

// Whether a line under the compare table ("METRIC, METRIC n/a for GROUP, GROUP: REASON") names
// that metric and that strategy with that reason.
bool explainsNa(const std::string& table, std::string_view label, const std::string& strategy,
                const std::string& reason) {
    const auto listed = [](std::string_view list, std::string_view item) {
        for (std::size_t from = 0; from <= list.size();) {
            const std::size_t comma = std::min(list.find(", ", from), list.size());
            if (list.substr(from, comma - from) == item) {
                return true;
            }
            from = comma + 2;
        }
        return false;
    };
    std::istringstream lines(table);
    for (std::string line; std::getline(lines, line);) {
        const std::size_t na = line.find(" n/a for ");
        const std::size_t colon = line.find(": ", na == std::string::npos ? 0 : na);
        if (na == std::string::npos || colon == std::string::npos) {
            continue;
        }
        const std::string_view text(line);
        if (text.substr(colon + 2) == reason && listed(text.substr(0, na), label)
            && listed(text.substr(na + 9, colon - na - 9), strategy)) {
            return true;
        }
    }
    return false;
}

// The cell of column `column` in the row of the compare table that starts with `label`
// (22 characters of label, then 40 per strategy).
std::string tableCell(const std::string& table, std::string_view label, std::size_t column) {
    std::istringstream lines(table);
    for (std::string line; std::getline(lines, line);) {
        if (line.size() > 22 && line.starts_with(label) && line[label.size()] == ' ') {
            std::string cell = line.substr(22 + 40 * column, 40);
            cell.erase(cell.find_last_not_of(' ') + 1);
            return cell;
        }
    }
    return "(no row " + std::string(label) + ")";
}

// A run with every run.json figure, or one with none of them (each n/a for its own reason).
run::RunRecord record(const std::string& loader, bool counters) {
    run::RunRecord r;
    r.strategy = {"single", 1, loader, ""};
    r.batchesPerEpoch = 4;
    r.papi.availability = {true, counters, counters ? "" : "no PMU in this VM"};
    if (counters) {
        r.wallTimeS = 2.0;
        r.totalTimeS = 2.5;
        r.peakArenaBytes = std::map<std::string, std::uint64_t>{{"batch0", 1 << 20}, {"network", 3 << 10}};
        r.papi.events = {{"PAPI_TOT_INS", true, "", 300, {}},
                         {"PAPI_TOT_CYC", true, "", 200, {}},
                         {"perf::LLC-loads", true, "", 100, {}},
                         {"perf::LLC-load-misses", true, "", 25, {}},
                         {"perf::LLC-stores", true, "", 80, {}},
                         {"perf::LLC-store-misses", true, "", 8, {}}};
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
        rows.push_back(
            summarizeRun(SweepRun{folder.filename().string(), "single", loader, 0, folder, {}, 1, {}},
                         rows.size(), SweepAction::Recorded));
    }
    ASSERT_TRUE(writeSummary(dir.path(), rows));
    std::ifstream in(dir / "summary.json");
    const json summary = json::parse(in);
    const json compareDoc = json::parse(compare(folders, true));
    const std::string table = compare(folders, false);
#ifdef STARSCOPE_WITH_VIEWER
    auto viewer = viewer::loadComparison(folders, tracer::BarrierOptions{}.threshold);
    ASSERT_TRUE(viewer) << viewer.error().message;
    viewer::ComparisonModel model;
    model.setRuns(viewer->figures);
    ASSERT_EQ(model.columnCount(), static_cast<int>(run::metrics().size()) + 1);
#endif
    std::set<std::string> numbers;
    std::set<std::string> reasons;
    for (std::size_t i = 0; i < folders.size(); ++i) {
        const json& row = summary.at("runs")[i];
        const json& column = compareDoc.at("strategies")[i];
        ASSERT_EQ(column.at("runs")[0], folders[i].string());
        for (const auto& m : run::metrics()) {
            const std::string key(m.key);
            const json& c = column.at("metrics").at(key);
            SCOPED_TRACE(key + " of " + folders[i].string());
            EXPECT_EQ(row.at(key), c.at("value"));
            // The table shows the same figure in its unit (a delta may follow it).
            const std::string shown = c.at("value").is_null() ? "n/a" : run::formatFigure(c.at("value").get<double>(), m.unit);
            EXPECT_TRUE(tableCell(table, m.label, i).starts_with(shown)) << tableCell(table, m.label, i) << " vs " << shown;
#ifdef STARSCOPE_WITH_VIEWER
            const auto& f = viewer->figures[i].*(m.figure);
            EXPECT_EQ(f.value ? json(*f.value) : json(nullptr), c.at("value"));
            const int col = viewer::ComparisonModel::columnOf(key);
            ASSERT_EQ(viewer::ComparisonModel::metricOf(col), &m);
            const QModelIndex cell = model.index(static_cast<int>(i), col);
            EXPECT_EQ(cell.data(viewer::ComparisonModel::ValueRole).isValid(), !c.at("value").is_null());
            if (!c.at("value").is_null()) {
                EXPECT_EQ(cell.data(viewer::ComparisonModel::ValueRole).toDouble(), c.at("value").get<double>());
            }
            EXPECT_TRUE(cell.data().toString().toStdString().starts_with(shown)) << cell.data().toString().toStdString();
#endif
            if (c.at("value").is_null()) {
                reasons.insert(key);
                EXPECT_EQ(row.at("na").at(key), c.at("reason"));
                EXPECT_TRUE(explainsNa(table, m.label, column.at("strategy").get<std::string>(),
                                       c.at("reason").get<std::string>()))
                    << m.label << " n/a for " << column.at("strategy").get<std::string>() << "\n" << table;
#ifdef STARSCOPE_WITH_VIEWER
                EXPECT_EQ(f.reason, c.at("reason").get<std::string>());
                EXPECT_EQ(cell.data(Qt::ToolTipRole).toString().toStdString(), c.at("reason").get<std::string>());
#endif
            } else {
                numbers.insert(key);
            }
        }
    }
    // Every metric was compared as a figure, but those of several ranks (one-process runs
    // exchange no message and have no other rank count to scale against) and of a machine with
    // GPUs (a CPU-only run has one kind of worker and no transfer), and every one that run.json
    // gives as an n/a with its reason too (no PMU, no RAPL, no wall time, no arena, no
    // total_time_s).
    const std::set<std::string> unavailable{"communication_share", "speedup", "scaling_efficiency", "cuda_idleness",
                                            "waiting_for_data_ns", "transfer_bytes", "area_bound_by_kind_ratio"};
    EXPECT_EQ(numbers.size() + unavailable.size(), run::metrics().size());
    for (const auto& key : unavailable) {
        EXPECT_TRUE(reasons.contains(key)) << key;
    }
    for (const char* key : {"wall_time_s", "total_time_s", "peak_memory_bytes", "ipc", "llc_load_miss_ratio",
                            "llc_store_miss_ratio", "energy_j", "power_w"}) {
        EXPECT_TRUE(reasons.contains(key)) << key;
    }
}

} // namespace
} // namespace starscope::workloads
