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
#include "tracer/run_folder/run_folder.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
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

// The example's program in the StarPU prefix the tests run against, or a skip (a user's own StarPU
// may come without them; CI's prefixes are built by the script, so there it is a failure).
std::filesystem::path exampleProgram(const std::string& name) {
    return starscope::testing::starpuFxtTool().parent_path() / ("starpu_example_" + name);
}

bool exampleMissing(const std::filesystem::path& program) {
    if (std::filesystem::exists(program)) {
        return false;
    }
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true") {
        ADD_FAILURE()
            << program
            << " does not exist: scripts/build_starpu.sh installs StarPU's examples there";
    }
    return true;
}

// Records one run of the example with NCPU CPU workers into DIR and converts its one prof file
// with starpu_fxt_tool there; returns the prof file.
std::filesystem::path recordExample(const std::filesystem::path& program,
                                    const std::string& arguments, int ncpu,
                                    const starscope::testing::TempDir& dir) {
    const auto log = dir / "example.log";
    const std::string environment = "STARPU_FXT_TRACE=1 STARPU_FXT_PREFIX='" + dir.path().string()
                                    + "/' STARPU_NCPU=" + std::to_string(ncpu)
                                    + " STARPU_NCUDA=0 STARPU_NOPENCL=0 STARPU_SILENT=1 ";
    EXPECT_EQ(starscope::testing::runCommand(environment + "'" + program.string() + "' " + arguments
                                             + " > '" + log.string() + "' 2>&1"),
              0)
        << starscope::testing::readFile(log);
    const auto files = run::findProfFiles(dir.path());
    if (files.size() != 1U) {
        ADD_FAILURE() << files.size() << " prof files in " << dir.path();
        return {};
    }
    EXPECT_EQ(runStarpuFxtTool(files.front(), dir.path()), 0)
        << starscope::testing::readFile(dir / "tool.log");
    return files.front();
}

TEST_P(StarpuExample, TraceMatchesItsStarpuFxtTool) {
    const auto program = exampleProgram(GetParam().name);
    if (exampleMissing(program)) {
        GTEST_SKIP() << program << " does not exist";
    }
    starscope::testing::TempDir dir;
    const auto profFile = recordExample(program, GetParam().arguments, 2, dir);
    ASSERT_FALSE(HasFailure());
    const auto ours = readTrace(profFile);
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
        EXPECT_NEAR(static_cast<double>(c.all.total) / 1e6, t.totalMs,
                    1e-5 * static_cast<double>(t.tasks) + 1e-4)
            << c.codelet;
        ASSERT_EQ(c.perKind.size(), 1U) << c.codelet << ": CPU workers only";
        EXPECT_EQ(c.perKind.front().kind, WorkerKind::Cpu);
        std::printf("%-28s %6llu tasks %12.6f ms; starpu_fxt_tool %6llu tasks %12.6f ms\n",
                    c.codelet.c_str(), static_cast<unsigned long long>(c.all.count),
                    static_cast<double>(c.all.total) / 1e6,
                    static_cast<unsigned long long>(t.tasks), t.totalMs);
    }
    const bool stopped = summary.workerTotals.notProfiled > 0;
    const bool warned =
        std::any_of(ours->warnings.begin(), ours->warnings.end(), [](const std::string& w) {
            return w.find("profiling was stopped") != std::string::npos;
        });
    // (A stop may also come after the last recorded event: 1.3 records nothing once stopped.)
    EXPECT_TRUE(warned || !stopped);
}

INSTANTIATE_TEST_SUITE_P(FromStarpuSource, StarpuExample,
                         ::testing::Values(Example{"cholesky_implicit", "-size 1920 -nblocks 8"},
                                           Example{"sgemm", "-size 1024 -nblocks 4 -iter 3"},
                                           Example{"lu_implicit_example_float",
                                                   "-size 1024 -nblocks 8"}),
                         [](const auto& param) { return std::string(param.param.name); });

// More CPU workers than the machine has cores (what a trace of a bigger machine holds): the
// StarPU the tests run against must be built for them (--enable-maxcpus; its default is this
// machine's core count), or it drops the extra workers and its starpu_fxt_tool cannot read
// traces of bigger machines.
TEST(StarpuExampleWorkers, MoreWorkersThanCoresAreRecordedAndReadByStarpuFxtTool) {
    const auto program = exampleProgram("cholesky_implicit");
    if (exampleMissing(program)) {
        GTEST_SKIP() << program << " does not exist";
    }
    constexpr int kWorkers = 6;
    starscope::testing::TempDir dir;
    const auto profFile = recordExample(program, "-size 960 -nblocks 4", kWorkers, dir);
    ASSERT_FALSE(HasFailure());
    const auto ours = readTrace(profFile);
    const auto tool = readTrace(dir / "paje.trace");
    ASSERT_TRUE(ours) << ours.error().describe();
    ASSERT_TRUE(tool) << tool.error().describe();
    EXPECT_EQ(summarize(*ours).workers, static_cast<std::size_t>(kWorkers));
    expectSameWorkAsStarpuFxtTool(*ours, *tool);
}

} // namespace
} // namespace starscope::tracer
