// Paje export in StarPU's shape, read back exactly; Chrome JSON flows and exact times.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/model/time_unit.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace starscope::tracer {
namespace {

using starscope::testing::readFile;
using starscope::testing::runCommand;
using starscope::testing::TempDir;
using namespace testing;

Trace fromProf(const std::vector<std::string>& runs) {
    std::vector<std::filesystem::path> files;
    for (const auto& run : runs) {
        files.push_back(goldenRun(run) / "prof_file__0");
    }
    auto trace = readTrace(files);
    EXPECT_TRUE(trace) << trace.error().describe();
    return std::move(trace).value();
}

std::string pajeOf(const Trace& trace) {
    std::ostringstream out;
    writePaje(trace, out);
    return out.str();
}

Trace readBack(const Trace& trace, const TempDir& dir) {
    const auto file = dir / "export.paje";
    {
        std::ofstream out(file);
        writePaje(trace, out);
    }
    auto back = readTrace(file);
    EXPECT_TRUE(back) << back.error().describe();
    return back ? std::move(back).value() : Trace{};
}

// A span as a comparable value: state by name, task by job id.
using SpanKey = std::tuple<TimeNs, TimeNs, std::string, std::uint64_t>;
std::vector<std::vector<SpanKey>> spansOf(const Trace& trace, const Lane& lane) {
    std::vector<std::vector<SpanKey>> levels;
    for (const auto& level : lane.levels) {
        auto& out = levels.emplace_back();
        for (const auto& s : level) {
            const Task* task = trace.taskOf(lane, s);
            out.emplace_back(s.start, s.end, trace.states[s.state].name, task == nullptr ? 0 : task->jobId);
        }
    }
    while (!levels.empty() && levels.back().empty()) {
        levels.pop_back();
    }
    return levels;
}

// What a Paje round trip keeps: lanes (names, kinds, worker ids, memory nodes, spans per
// level), executed task records, markers.
void expectSameTrace(const Trace& back, const Trace& trace) {
    ASSERT_EQ(back.lanes.size(), trace.lanes.size());
    for (std::size_t i = 0; i < trace.lanes.size(); ++i) {
        const auto& a = back.lanes[i];
        const auto& b = trace.lanes[i];
        EXPECT_EQ(a.name, b.name) << "lane " << i;
        EXPECT_EQ(a.kind, b.kind) << b.name;
        EXPECT_EQ(a.workerId, b.workerId) << b.name;
        EXPECT_EQ(a.memoryNode, b.memoryNode) << b.name;
        EXPECT_EQ(spansOf(back, a), spansOf(trace, b)) << b.name;
    }
    std::vector<const Task*> executed;
    for (const auto& task : trace.tasks) {
        if (task.start >= 0) {
            executed.push_back(&task);
        }
    }
    ASSERT_EQ(back.tasks.size(), executed.size());
    for (std::size_t i = 0; i < executed.size(); ++i) {
        const auto& a = back.tasks[i];
        const auto& b = *executed[i];
        EXPECT_EQ(a.jobId, b.jobId);
        EXPECT_EQ(back.codeletOf(a), trace.codeletOf(b));
        EXPECT_EQ(back.footprintOf(a), trace.footprintOf(b));
        EXPECT_EQ(a.start, b.start);
        EXPECT_EQ(a.end, b.end);
        EXPECT_EQ(a.lane, b.lane);
        const auto da = back.dependenciesOf(a);
        const auto db = trace.dependenciesOf(*executed[i]);
        EXPECT_EQ(std::vector<std::uint64_t>(da.begin(), da.end()), std::vector<std::uint64_t>(db.begin(), db.end()))
            << "job " << b.jobId;
    }
    ASSERT_EQ(back.markers.size(), trace.markers.size());
    for (std::size_t i = 0; i < trace.markers.size(); ++i) {
        EXPECT_EQ(back.markers[i].time, trace.markers[i].time);
        EXPECT_EQ(back.textOf(back.markers[i]), trace.textOf(trace.markers[i]));
        EXPECT_EQ(back.markers[i].lane, trace.markers[i].lane);
    }
    EXPECT_EQ(workerStateTotals(back), workerStateTotals(trace));
    EXPECT_EQ(back.end, trace.end);
}

class PajeRoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(PajeRoundTrip, ReadingTheExportGivesTheTraceBack) {
    const auto trace = fromProf({GetParam()});
    TempDir dir;
    expectSameTrace(readBack(trace, dir), trace);
}

INSTANTIATE_TEST_SUITE_P(Golden, PajeRoundTrip, ::testing::Values("small", "small14", "masked14"));

// Paje inputs: nested states, links, old field names, a trace read at picoseconds, whose
// export keeps every decimal (time_unit.hpp), and a GPU machine's CUDA worker and memory nodes.
class PajeInputRoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(PajeInputRoundTrip, ReadingTheExportGivesTheTraceBack) {
    auto trace = readTrace(starscope::testing::testDataDir() / "tracer" / "paje" / GetParam());
    ASSERT_TRUE(trace) << trace.error().describe();
    TempDir dir;
    const auto back = readBack(*trace, dir);
    expectSameTrace(back, *trace);
    EXPECT_EQ(ticksPerSecond(back), ticksPerSecond(*trace));
}

INSTANTIATE_TEST_SUITE_P(Inputs, PajeInputRoundTrip,
                         ::testing::Values("sub_nanosecond.paje", "nested_links.paje", "old_field_names.paje",
                                           "cuda_worker_set.paje"));

// Two prof files are two processes: lanes "0_CPU 0" and "1_CPU 0" hold the same worker id.
TEST(PajeExport, TwoProcessesKeepTheirWorkersApart) {
    const auto trace = fromProf({"small", "small14"});
    std::size_t workers = 0;
    for (const auto& lane : trace.lanes) {
        workers += lane.isWorker() ? 1U : 0U;
    }
    ASSERT_EQ(workers, 4U);
    const auto text = pajeOf(trace);
    // Container aliases are unique and carry the rank, as StarPU's do.
    std::set<std::string> aliases;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with("7 ")) {
            std::istringstream fields(line);
            std::string id, time, alias;
            fields >> id >> time >> alias;
            EXPECT_TRUE(aliases.insert(alias).second) << "container " << alias << " twice";
        }
    }
    EXPECT_TRUE(aliases.contains("\"0_w0\"") && aliases.contains("\"1_w0\"")) << text.substr(0, 4000);
    EXPECT_NE(text.find("\"1_CPU0\""), std::string::npos);
    TempDir dir;
    const auto back = readBack(trace, dir);
    expectSameTrace(back, trace);
    TimeNs executing = 0;
    for (const auto& [key, total] : workerStateTotals(back)) {
        executing += std::get<2>(key) == "Executing" ? total : 0;
    }
    EXPECT_GT(executing, 0);
}

// StarPU's hierarchy and values: what StarVZ looks for (starpu_paje.c, 1.4.12).
TEST(PajeExport, StarpusContainerTypesStatesAndColours) {
    auto trace = fromProf({"masked14"});
    const auto text = pajeOf(trace);
    for (const auto* line : {"1 P MPIP \"Program\"", "1 Mn P \"Memory Node\"", "1 T Mn \"Thread\"", "1 W T \"Worker\"",
                             "1 UT P \"User Thread\"", "1 MPICt P \"MPI Communication Thread\"",
                             "6 \"Sl\" WS \"Sleeping\" \".9 .1 .0\"", "6 \"E\" WS \"Executing\" \".0 .6 .5\"",
                             "6 \"Sc\" WS \"Scheduling\" \".7 .36 .0\"", "6 \"Fi\" WS \"FetchingInput\" \"1.0 .1 1.0\"",
                             "6 \"WA\" US \"Waiting all tasks\" \".9 .1 .0\"",
                             "6 \"Not profiled\" WS \"Not profiled\" \".75 .8 .85\"",
                             "7 0.000000 \"mn0\" Mn \"p\" \"MEMNODE0\"", "7 0.000000 \"w0\" W \"tw0\" \"CPU0\""}) {
        EXPECT_NE(text.find(line), std::string::npos) << line;
    }
    // Every codelet a distinct green: green dominates, and no two codelets share a colour.
    const std::regex codelet(R"re(^6 "([^"]+)" WS "[^"]+" "([0-9.]+) ([0-9.]+) ([0-9.]+)"$)re");
    std::set<std::string> runtime{"I", "In", "D", "Fi", "Po", "C", "B", "E", "Sc", "Sl", "P", "U", "H", "Bu", "Su",
                                  "Th", "MD", "MPr", "MPo", "Not profiled"};
    std::set<std::string> colours;
    std::size_t codelets = 0;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (std::regex_match(line, m, codelet) && !runtime.contains(m[1].str())) {
            ++codelets;
            EXPECT_GT(std::stod(m[3].str()), std::stod(m[2].str())) << line;
            EXPECT_GT(std::stod(m[3].str()), std::stod(m[4].str())) << line;
            colours.insert(m[2].str() + m[3].str() + m[4].str());
        }
    }
    EXPECT_GT(codelets, 0U);
    EXPECT_EQ(colours.size(), codelets);
}

// Dependencies as links, barriers as events, StarPU's nsubmitted variable.
TEST(PajeExport, DependenciesBarriersAndVariables) {
    // Microseconds: the barrier (200-900 us) is above findBarriers' 100 us threshold.
    auto trace = makeTrace({{"CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 100'000}, {"Sleeping", 100'000, 900'000}, {"Executing", 900'000, 1'000'000}}},
                            {"CPU 1", LaneKind::CpuWorker, {{"Executing", 50'000, 200'000}, {"Sleeping", 200'000, 950'000}, {"Executing", 950'000, 1'000'000}}},
                            {"main", LaneKind::MainThread, {{"Waiting all tasks", 200'000, 900'000}}}},
                           1'000'000);
    trace.lanes[2].memoryNode = -1;   // as the readers give a user thread
    ASSERT_EQ(trace.tasks.size(), 4U);
    // Jobs 1, 2 ran on CPU 0, 3, 4 on CPU 1; job 99 did not run in the trace.
    trace.setDependencies(3, {1, 3, 99});
    for (auto& task : trace.tasks.edit()) {
        task.submit = 0;
    }
    const auto text = pajeOf(trace);
    std::size_t starts = 0, ends = 0, barrierEvents = 0, variables = 0;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        starts += line.starts_with("18 ") ? 1U : 0U;
        ends += line.starts_with("19 ") ? 1U : 0U;
        barrierEvents += line.find(" barrier \"p\" \"barrier ") != std::string::npos ? 1U : 0U;
        variables += line.find(" nsubmitted ") != std::string::npos && line.starts_with("13 ") ? 1U : 0U;
    }
    EXPECT_EQ(starts, 3U);
    EXPECT_EQ(ends, 3U);
    EXPECT_EQ(barrierEvents, 2 * findBarriers(trace).size());
    EXPECT_EQ(findBarriers(trace).size(), 1U);
    EXPECT_GT(variables, 2U);
    TempDir dir;
    const auto back = readBack(trace, dir);
    expectSameTrace(back, trace);
    if (runCommand("command -v pj_dump > /dev/null 2>&1") == 0) {
        ASSERT_EQ(runCommand("pj_dump '" + (dir / "export.paje").string() + "' > '" + (dir / "dump.txt").string()
                             + "' 2>&1"),
                  0)
            << readFile(dir / "dump.txt");
        const auto dump = readFile(dir / "dump.txt");
        EXPECT_NE(dump.find("Link, program , Task dependency, 0.100000, 0.950000, 0.850000, 1->4, CPU0, CPU1"), std::string::npos) << dump;
        EXPECT_NE(dump.find("Variable, scheduler, Number of Submitted Uncompleted Tasks"), std::string::npos) << dump;
    }
}

TEST(PajeExport, NamesOfNoStarpuShapeAreKept) {
    auto trace = makeTrace({{"p1", LaneKind::OtherWorker, {{"Sleeping", 0, 10}}},
                            {"0_main", LaneKind::MainThread, {{"Waiting all tasks", 0, 10}}},
                            {"1_main", LaneKind::MainThread, {{"Waiting all tasks", 0, 10}}}},
                           10);
    trace.lanes[1].memoryNode = -1;   // as the readers give a user thread
    trace.lanes[2].memoryNode = -1;
    TempDir dir;
    expectSameTrace(readBack(trace, dir), trace);
}

// pj_dump (pajeng) accepts the export of a merged multi-process trace and of every golden run.
TEST(PajeExport, PjDumpAcceptsIt) {
    if (runCommand("command -v pj_dump > /dev/null 2>&1") != 0) {
        GTEST_SKIP() << "pj_dump (Debian package pajeng) is not installed: apt-get install pajeng";
    }
    for (const auto& runs : std::vector<std::vector<std::string>>{{"small"}, {"small14"}, {"masked14"}, {"small", "small14"}}) {
        TempDir dir;
        {
            std::ofstream out(dir / "export.paje");
            writePaje(fromProf(runs), out);
        }
        EXPECT_EQ(runCommand("pj_dump '" + (dir / "export.paje").string() + "' > '" + (dir / "dump.txt").string()
                             + "' 2>&1"),
                  0)
            << runs.front() << ": " << readFile(dir / "dump.txt").substr(0, 2000);
    }
}

// ViTE renders it headless (ViTE and xvfb-run are optional: skipped when missing).
TEST(PajeExport, ViteRendersIt) {
    if (runCommand("command -v vite > /dev/null 2>&1 && command -v xvfb-run > /dev/null 2>&1") != 0) {
        GTEST_SKIP() << "vite or xvfb-run is not installed: apt-get install vite xvfb";
    }
    TempDir dir;
    {
        std::ofstream out(dir / "export.paje");
        writePaje(fromProf({"small", "small14"}), out);
    }
    EXPECT_EQ(runCommand("xvfb-run -a vite -f '" + (dir / "export.paje").string() + "' -e '" + (dir / "out.svg").string()
                         + "' > '" + (dir / "log.txt").string() + "' 2>&1"),
              0)
        << readFile(dir / "log.txt");
    EXPECT_NE(readFile(dir / "out.svg").find("<svg"), std::string::npos) << readFile(dir / "log.txt");
    // ViTE exits 0 after parse errors too: its report is what says the file is clean.
    EXPECT_TRUE(std::regex_search(readFile(dir / "log.txt"), std::regex("(^|[^0-9])0 errors and 0 warnings")))
        << readFile(dir / "log.txt");
}

// Chrome JSON: ts and dur are exact decimals of integer ticks, so adjacent spans never
// overlap, even at a picosecond unit where doubles would round.
TEST(ChromeExport, AdjacentSpansNeverOverlap) {
    auto trace = makeTrace({{"CPU 0", LaneKind::CpuWorker, {}}}, 0);
    trace.metadata[std::string(kTicksPerSecondMetadata)] = "1000000000000";
    const auto state = trace.stateId("Sleeping", StateClass::Sleeping);
    TimeNs t = 139'654'321'012'345;   // ~140 s in ps, near the end spans hold: beyond a double's exact microseconds
    for (int i = 0; i < 200; ++i) {
        const TimeNs next = t + 1 + (i * 7919) % 1000;
        trace.lanes[0].levels.resize(1);
        trace.lanes[0].levels[0].push_back(Span{t, next, state});
        t = next;
    }
    trace.end = t;
    std::ostringstream out;
    writeChromeJson(trace, out);
    // Decimal text to ticks, without doubles: ts has 6 decimals of a microsecond at ps.
    const auto ticks = [](const std::string& text) {
        const auto dot = text.find('.');
        EXPECT_EQ(text.size() - dot - 1, 6U) << text;
        return std::stoll(text.substr(0, dot) + text.substr(dot + 1));
    };
    const std::regex slice(R"re("ph":"X".*"ts":([0-9.]+),"dur":([0-9.]+))re");
    std::vector<std::pair<TimeNs, TimeNs>> spans;
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (std::regex_search(line, m, slice)) {
            spans.emplace_back(ticks(m[1].str()), ticks(m[2].str()));
        }
    }
    ASSERT_EQ(spans.size(), 200U);
    for (std::size_t i = 0; i + 1 < spans.size(); ++i) {
        EXPECT_EQ(spans[i].first + spans[i].second, spans[i + 1].first) << "span " << i;
        EXPECT_EQ(spans[i].first, trace.lanes[0].levels[0][i].start);
    }
}

// Dependencies as Perfetto flow events, bound to the predecessor's and the successor's slices.
TEST(ChromeExport, DependenciesAreFlowEvents) {
    auto trace = makeTrace({{"CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 100}}},
                            {"CPU 1", LaneKind::CpuWorker, {{"Executing", 150, 300}}}},
                           300);
    ASSERT_EQ(trace.tasks.size(), 2U);
    trace.setDependencies(1, {trace.tasks[0].jobId});
    std::ostringstream out;
    writeChromeJson(trace, out);
    const auto doc = nlohmann::json::parse(out.str());
    std::map<std::string, nlohmann::json> flow;
    for (const auto& e : doc.at("traceEvents")) {
        const auto ph = e.at("ph").get<std::string>();
        if (ph == "s" || ph == "f") {
            flow[ph] = e;
        }
    }
    ASSERT_EQ(flow.size(), 2U) << out.str();
    EXPECT_EQ(flow["s"].at("id"), flow["f"].at("id"));
    EXPECT_EQ(flow["s"].at("tid").get<int>(), 1);
    EXPECT_EQ(flow["f"].at("tid").get<int>(), 2);
    EXPECT_EQ(flow["f"].at("bp"), "e");
    EXPECT_EQ(flow["s"].at("ts").get<double>(), 0.0);
    EXPECT_EQ(flow["f"].at("ts").get<double>(), 0.15);
}

} // namespace
} // namespace starscope::tracer
