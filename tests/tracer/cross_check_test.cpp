// Our FxT reader against starpu_fxt_tool: for the same prof file, the worker state totals of
// the FxT reader equal those of our Paje reader on starpu_fxt_tool's paje.trace, and every
// executed task is found in both with the same worker and times.

#include "tests/support/test_support.hpp"
#include "tests/tracer/trace_checks.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

namespace starscope::tracer {
namespace {

using namespace testing;

// One golden run per StarPU version, each against its own version's starpu_fxt_tool.
class GoldenCrossCheck : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(GoldenCrossCheck, FxtEqualsTheVersionsOwnStarpuFxtToolPaje) {
    const auto [folder, version] = GetParam();
    const auto run = goldenRun(folder);
    const auto fxt = readTrace(run / "prof_file__0");
    const auto paje = readTrace(run / "paje.trace");
    ASSERT_TRUE(fxt) << fxt.error().describe();
    ASSERT_TRUE(paje) << paje.error().describe();
    EXPECT_EQ(fxt->metadata.at("starpu.codes"), version);
    EXPECT_TRUE(fxt->warnings.empty()) << fxt->warnings.front();
    expectFxtMatchesPaje(*fxt, *paje);
    EXPECT_EQ(fxt->markers.size(), paje->markers.size());
}

INSTANTIATE_TEST_SUITE_P(StarpuVersions, GoldenCrossCheck,
                         ::testing::Values(std::pair{"small", "1.3.10"}, std::pair{"small14", "1.4.12"}),
                         [](const auto& param) { return std::string(param.param.first); });

} // namespace
} // namespace starscope::tracer
