// The CNN's trace as starscope reads it against the conversion by the starpu_fxt_tool of the
// StarPU the tests are built against (1.3.10 in the default build, 1.4.12 in the starpu14
// leg): per-worker executing and sleeping within 1 %, the same executed tasks. On 2 and 4
// StarPU-MPI ranks (record --ranks N, oversubscribed here), the same over all the run's prof
// files, each rank's clock within 10 us of the tool's and its MPI links as our messages.

#include "tests/support/starpu_support.hpp"
#include "tests/support/test_support.hpp"
#include "tests/tracer/recording_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/run_folder/run_folder.hpp"
#include "tests/workloads/starpu_mpi.hpp"

#include <gtest/gtest.h>

#include <iostream>

namespace {

using starscope::testing::TempDir;
namespace tracer = starscope::tracer;

TEST(RecordCrossCheck, CnnTraceMatchesTheStarpuFxtToolOfItsVersion) {
    TempDir dir;
    const auto run = dir / "run";
    const auto log = dir / "log.txt";
    ASSERT_EQ(starscope::testing::runCommand(std::string("'") + STARSCOPE_BINARY
                                             + "' record --arenas single --loader naive --batches 4 --batch-size 32 "
                                               "--chunk 16 --workers 2 --test-images 200 --out '"
                                             + run.string() + "' > '" + log.string() + "' 2>&1"),
              0)
        << starscope::testing::readFile(log);
    const auto files = tracer::run::findProfFiles(run);
    ASSERT_EQ(files.size(), 1U);
    ASSERT_EQ(starscope::testing::runCommand("cd '" + run.string() + "' && '"
                                             + starscope::testing::starpuFxtTool().string() + "' -i '"
                                             + files.front().string() + "' > tool.log 2>&1"),
              0)
        << starscope::testing::readFile(run / "tool.log");

    const auto ours = tracer::readTrace(files.front());
    const auto tool = tracer::readTrace(run / "paje.trace");
    ASSERT_TRUE(ours) << ours.error().describe();
    ASSERT_TRUE(tool) << tool.error().describe();
    EXPECT_EQ(ours->metadata.at("starpu.codes").substr(0, 3), starscope::testing::starpuSeries());

    // The comparison every tracer cross-check uses (tests/tracer/tracer_test_support.hpp).
    tracer::testing::expectSameWorkAsStarpuFxtTool(*ours, *tool);
    const auto summary = tracer::summarize(*ours);
    EXPECT_EQ(summary.workers, 2U);
    const auto tasks = summary.tasks;
    // 4 batches of 2 chunks (3 layer tasks each) and 2 SGD tasks, then 4 test chunks of 50
    // images (conv+pool and dense).
    EXPECT_EQ(tasks, 4U * (2 * 3 + 2) + 4U * 2);
}

class RecordRanksCrossCheck : public ::testing::TestWithParam<int> {};

TEST_P(RecordRanksCrossCheck, CnnRanksMatchTheStarpuFxtToolOfItsVersion) {
    REQUIRE_STARPU_MPI();
    const int ranks = GetParam();
    TempDir dir;
    const auto run = dir / "run";
    const auto log = dir / "log.txt";
    // Root and more ranks than cores: Open MPI's documented overrides (record adds --oversubscribe).
    ASSERT_EQ(starscope::testing::runCommand(
                  std::string("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 '") + STARSCOPE_BINARY
                  + "' record --ranks " + std::to_string(ranks)
                  + " --epochs 1 --batches 20 --batch-size 32 --chunk 8 --workers 1 --train-images 4000 "
                    "--test-images 200 --out '"
                  + run.string() + "' > '" + log.string() + "' 2>&1"),
              0)
        << starscope::testing::readFile(log);
    const auto files = tracer::run::findProfFiles(run);
    ASSERT_EQ(files.size(), static_cast<std::size_t>(ranks));
    ASSERT_EQ(tracer::testing::runStarpuFxtTool(files, run), 0) << starscope::testing::readFile(run / "tool.log");

    const auto ours = tracer::readTrace(run);
    const auto tool = tracer::readTrace(run / "paje.trace");
    ASSERT_TRUE(ours) << ours.error().describe();
    ASSERT_TRUE(tool) << tool.error().describe();
    EXPECT_EQ(ours->metadata.at("starpu.codes").substr(0, 3), starscope::testing::starpuSeries());
    std::cout << ranks << " ranks, StarPU " << ours->metadata.at("starpu.codes") << ":\n";
    tracer::testing::expectSameRanksAsStarpuFxtTool(*ours, *tool, run / "paje.trace", static_cast<std::size_t>(ranks));
}

INSTANTIATE_TEST_SUITE_P(Ranks, RecordRanksCrossCheck, ::testing::Values(2, 4),
                         [](const auto& param) { return std::to_string(param.param) + "ranks"; });

} // namespace
