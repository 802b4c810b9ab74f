// StarPU's own example programs (cholesky, sgemm, LU from its source; scripts/build_starpu.sh
// installs them beside starpu_fxt_tool), recorded with FxT by the StarPU the tests are built
// against and read by starscope, against that StarPU's own starpu_fxt_tool. Nobody here wrote
// these programs or their traces; cholesky and sgemm stop and restart profiling.

#include "tests/support/starpu_support.hpp"
#include "tests/support/test_support.hpp"
#include "tests/tracer/recording_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/codelet_stats.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace starscope::tracer {
namespace {

using namespace testing;

struct Example {
    const char* name;
    const char* arguments;
};

class StarpuExample : public ::testing::TestWithParam<Example> {};

struct ToolCodelet {
    std::uint64_t tasks = 0;
    double totalMs = 0;
};

// Per codelet, the executed tasks and their time in starpu_fxt_tool's tasks.rec (a record per
// task, blank-line separated; times in ms).
std::map<std::string, ToolCodelet> toolCodelets(const std::filesystem::path& tasksRec) {
    std::map<std::string, ToolCodelet> out;
    std::ifstream in(tasksRec);
    std::string line;
    std::string name;
    double start = -1;
    double end = -1;
    const auto flush = [&] {
        if (start >= 0 && end >= start) {
            auto& c = out[name];
            ++c.tasks;
            c.totalMs += end - start;
        }
        name.clear();
        start = end = -1;
    };
    while (std::getline(in, line)) {
        if (line.empty()) {
            flush();
        } else if (line.starts_with("Name: ")) {
            name = line.substr(6);
        } else if (line.starts_with("StartTime: ")) {
            start = std::stod(line.substr(11));
        } else if (line.starts_with("EndTime: ")) {
            end = std::stod(line.substr(9));
        }
    }
    flush();
    return out;
}

TEST_P(StarpuExample, TraceMatchesItsStarpuFxtTool) {
    const auto program = starscope::testing::starpuFxtTool().parent_path() / ("starpu_example_" + std::string(GetParam().name));
    if (!std::filesystem::exists(program)) {
        // A user's own StarPU may come without them; CI's prefixes are built by the script.
        const char* ci = std::getenv("CI");
        if (ci != nullptr && std::string(ci) == "true") {
            FAIL() << program << " does not exist: scripts/build_starpu.sh installs StarPU's examples there";
        }
        GTEST_SKIP() << program << " does not exist: scripts/build_starpu.sh installs StarPU's examples there";
    }
    starscope::testing::TempDir dir;
    const auto log = dir / "example.log";
    const std::string environment = "STARPU_FXT_TRACE=1 STARPU_FXT_PREFIX='" + dir.path().string()
                                    + "/' STARPU_NCPU=2 STARPU_NCUDA=0 STARPU_NOPENCL=0 STARPU_SILENT=1 ";
    ASSERT_EQ(starscope::testing::runCommand(environment + "'" + program.string() + "' " + GetParam().arguments + " > '"
                                             + log.string() + "' 2>&1"),
              0)
        << starscope::testing::readFile(log);
    const auto files = findProfFiles(dir.path());
    ASSERT_EQ(files.size(), 1U);
    ASSERT_EQ(runStarpuFxtTool(files.front(), dir.path()), 0) << starscope::testing::readFile(dir / "tool.log");

    const auto ours = readTrace(files.front());
    const auto tool = readTrace(dir / "paje.trace");
    ASSERT_TRUE(ours) << ours.error().describe();
    ASSERT_TRUE(tool) << tool.error().describe();
    EXPECT_EQ(ours->metadata.at("starpu.codes").substr(0, 3), starscope::testing::starpuSeries());
    const auto summary = summarize(*ours);
    EXPECT_GT(summary.tasks, 10U);
    expectSameWorkAsStarpuFxtTool(*ours, *tool);
    // The codelet table against the tool's tasks.rec: the same tasks per codelet, the same time.
    const auto toolTable = toolCodelets(dir / "tasks.rec");
    const auto codelets = computeCodeletStats(*ours);
    ASSERT_EQ(codelets.size(), toolTable.size());
    for (const auto& c : codelets) {
        ASSERT_TRUE(toolTable.contains(c.codelet)) << c.codelet;
        const auto& t = toolTable.at(c.codelet);
        EXPECT_EQ(c.all.count, t.tasks) << c.codelet;
        EXPECT_NEAR(static_cast<double>(c.all.total) / 1e6, t.totalMs, 1e-5 * static_cast<double>(t.tasks) + 1e-4)
            << c.codelet;
        ASSERT_EQ(c.perKind.size(), 1U) << c.codelet << ": CPU workers only";
        EXPECT_EQ(c.perKind.front().kind, WorkerKind::Cpu);
        std::printf("%-28s %6llu tasks %12.6f ms; starpu_fxt_tool %6llu tasks %12.6f ms\n", c.codelet.c_str(),
                    static_cast<unsigned long long>(c.all.count), static_cast<double>(c.all.total) / 1e6,
                    static_cast<unsigned long long>(t.tasks), t.totalMs);
    }
    const bool stopped = summary.workerTotals.notProfiled > 0;
    const bool warned = std::any_of(ours->warnings.begin(), ours->warnings.end(), [](const std::string& w) {
        return w.find("profiling was stopped") != std::string::npos;
    });
    // (A stop may also come after the last recorded event: 1.3 records nothing once stopped.)
    EXPECT_TRUE(warned || !stopped);
}

INSTANTIATE_TEST_SUITE_P(FromStarpuSource, StarpuExample,
                         ::testing::Values(Example{"cholesky_implicit", "-size 1920 -nblocks 8"},
                                           Example{"sgemm", "-size 1024 -nblocks 4 -iter 3"},
                                           Example{"lu_implicit_example_float", "-size 1024 -nblocks 8"}),
                         [](const auto& param) { return std::string(param.param.name); });

} // namespace
} // namespace starscope::tracer
