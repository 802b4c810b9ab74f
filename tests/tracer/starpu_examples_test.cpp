// StarPU's own example programs (cholesky, sgemm, LU from its source; scripts/build_starpu.sh
// installs them beside starpu_fxt_tool), recorded with FxT by the StarPU the tests are built
// against and read by starscope, against that StarPU's own starpu_fxt_tool. Nobody here wrote
// these programs or their traces; cholesky and sgemm stop and restart profiling.

#include "tests/support/starpu_support.hpp"
#include "tests/support/test_support.hpp"
#include "tests/tracer/recording_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

namespace starscope::tracer {
namespace {

using namespace testing;

struct Example {
    const char* name;
    const char* arguments;
};

class StarpuExample : public ::testing::TestWithParam<Example> {};

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
