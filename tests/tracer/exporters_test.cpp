// Exporters: Chrome JSON is valid with one track per lane, CSV matches the golden files, the
// Paje export reads back (our reader and pajeng's pj_dump) with the same state totals.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace starscope::tracer {
namespace {

using namespace testing;
using starscope::testing::matchesGolden;
using starscope::testing::TempDir;

Trace golden() {
    auto trace = readTrace(smallProfFile());
    EXPECT_TRUE(trace) << trace.error().describe();
    return std::move(trace).value();
}

TEST(ChromeExport, ValidJsonWithOneTrackPerLane) {
    const auto trace = golden();
    std::ostringstream out;
    writeChromeJson(trace, out);
    const auto doc = nlohmann::json::parse(out.str());   // throws on invalid JSON
    std::map<std::int64_t, std::string> names;
    std::size_t complete = 0;
    std::size_t instants = 0;
    std::set<std::int64_t> tids;
    for (const auto& e : doc.at("traceEvents")) {
        const auto ph = e.at("ph").get<std::string>();
        if (ph == "M" && e.at("name") == "thread_name") {
            names[e.at("tid").get<std::int64_t>()] = e.at("args").at("name").get<std::string>();
        } else if (ph == "X") {
            ++complete;
            tids.insert(e.at("tid").get<std::int64_t>());
            EXPECT_GE(e.at("dur").get<double>(), 0.0);
        } else if (ph == "i") {
            ++instants;
        }
    }
    ASSERT_EQ(names.size(), trace.lanes.size());
    for (std::size_t i = 0; i < trace.lanes.size(); ++i) {
        EXPECT_EQ(names.at(static_cast<std::int64_t>(i + 1)), trace.lanes[i].name);
    }
    for (const auto tid : tids) {
        EXPECT_TRUE(names.contains(tid)) << "span on an unnamed track " << tid;
    }
    EXPECT_EQ(complete, trace.spanCount());
    EXPECT_EQ(instants, trace.markers.size());
}

TEST(ChromeExport, EscapesStrings) {
    auto trace = makeTrace({{"lane \"quoted\"\n", LaneKind::CpuWorker, {{"Sta\\te", 0, 10}}}}, 10);
    std::ostringstream out;
    writeChromeJson(trace, out);
    const auto doc = nlohmann::json::parse(out.str());
    bool found = false;
    for (const auto& e : doc.at("traceEvents")) {
        found = found || (e.at("ph") == "X" && e.at("name") == "Sta\\te");
    }
    EXPECT_TRUE(found);
}

TEST(CsvExport, GoldenSpansTasksAndBarriers) {
    const auto trace = golden();
    std::ostringstream spans;
    writeSpansCsv(trace, spans);
    EXPECT_TRUE(matchesGolden(spans.str(), "tracer/small/spans.csv"));
    std::ostringstream tasks;
    writeTasksCsv(trace, tasks);
    EXPECT_TRUE(matchesGolden(tasks.str(), "tracer/small/tasks.csv"));
    std::ostringstream barriers;
    writeBarriersCsv(findBarriers(trace), barriers);
    EXPECT_TRUE(matchesGolden(barriers.str(), "tracer/small/barriers.csv"));
}

TEST(CsvExport, QuotesFieldsWithCommas) {
    auto trace = makeTrace({{"a,b", LaneKind::CpuWorker, {{"say \"hi\"", 0, 10}}}}, 10);
    std::ostringstream out;
    writeSpansCsv(trace, out);
    EXPECT_NE(out.str().find("\"a,b\",0,\"say \"\"hi\"\"\",overhead,0,10,,"), std::string::npos) << out.str();
}

TEST(PajeExport, ReadsBackWithTheSameStatesAndTasks) {
    const auto trace = golden();
    TempDir dir;
    {
        std::ofstream out(dir / "export.paje");
        writePaje(trace, out);
    }
    const auto back = readTrace(dir / "export.paje");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(workerStateTotals(*back), workerStateTotals(trace));
    // Paje only carries executed tasks.
    std::vector<Task> executed;
    for (const auto& task : trace.tasks) {
        if (task.start >= 0) {
            executed.push_back(task);
        }
    }
    ASSERT_EQ(back->tasks.size(), executed.size());
    for (std::size_t i = 0; i < executed.size(); ++i) {
        EXPECT_EQ(back->tasks[i].jobId, executed[i].jobId);
        EXPECT_EQ(back->tasks[i].start, executed[i].start);
        EXPECT_EQ(back->tasks[i].end, executed[i].end);
        EXPECT_EQ(back->footprintOf(back->tasks[i]), trace.footprintOf(executed[i]));
    }
    EXPECT_EQ(back->markers.size(), trace.markers.size());
}

// pj_dump prints "State, container, type, start, end, duration, imbrication, value".
TEST(PajeExport, PajengPjDumpReadsItWithIdenticalStateTotals) {
    if (starscope::testing::runCommand("command -v pj_dump > /dev/null 2>&1") != 0) {
        GTEST_SKIP() << "pj_dump (Debian package pajeng) is not installed: scripts/install_packages.sh installs it";
    }
    const auto trace = golden();
    TempDir dir;
    {
        std::ofstream out(dir / "export.paje");
        writePaje(trace, out);
    }
    ASSERT_EQ(starscope::testing::runCommand("pj_dump '" + (dir / "export.paje").string() + "' > '"
                                             + (dir / "dump.txt").string() + "' 2> '" + (dir / "err.txt").string() + "'"),
              0)
        << starscope::testing::readFile(dir / "err.txt");
    // pj_dump names containers and values by their names: our lane and state/codelet names.
    std::map<std::pair<std::string, std::string>, double> dumped;   // (container, value) -> ms
    std::istringstream lines(starscope::testing::readFile(dir / "dump.txt"));
    std::size_t states = 0;
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string item; std::getline(fields, item, ',');) {
            f.push_back(item.substr(item.find_first_not_of(' ')));
        }
        if (f.size() >= 8 && f[0] == "State" && std::stod(f[6]) == 0.0) {
            dumped[{f[1], f[7]}] += std::stod(f[5]);
            ++states;
        }
    }
    ASSERT_GT(states, 0U) << starscope::testing::readFile(dir / "dump.txt").substr(0, 2000);
    std::map<std::pair<std::string, std::string>, double> ours;
    const auto back = readTrace(dir / "export.paje");
    ASSERT_TRUE(back);
    for (std::size_t i = 0; i < trace.lanes.size(); ++i) {
        const auto& lane = trace.lanes[i];
        for (const auto& span : lane.spans()) {
            // Workers are named as StarPU names them ("CPU0"), other lanes as they are.
            std::string container = lane.name;
            if (lane.isWorker() && container.find(' ') != std::string::npos) {
                container.erase(container.find(' '), 1);
            }
            const Task* task = trace.taskOf(lane, span);
            const std::string value = task != nullptr ? std::string(trace.codeletOf(*task)) : trace.states[span.state].name;
            ours[{container, value}] += static_cast<double>(span.duration()) / 1e6;
        }
    }
    // pj_dump shows a state by its entity value's name (our state names, codelet names).
    ASSERT_EQ(dumped.size(), ours.size());
    for (const auto& [key, ms] : ours) {
        ASSERT_TRUE(dumped.contains(key)) << key.first << " " << key.second;
        EXPECT_NEAR(dumped.at(key), ms, 1e-6 + 1e-9 * ms) << key.first << " " << key.second;
    }
}

} // namespace
} // namespace starscope::tracer
