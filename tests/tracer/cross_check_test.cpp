// Our FxT reader against starpu_fxt_tool: for the same prof file, the worker state totals of
// the FxT reader equal those of our Paje reader on starpu_fxt_tool's paje.trace, and every
// executed task is found in both with the same worker and times.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

namespace starscope::tracer {
namespace {

using namespace testing;

void expectSameWorkerStates(const Trace& fxt, const Trace& paje) {
    const auto a = workerStateTotals(fxt);
    const auto b = workerStateTotals(paje);
    ASSERT_FALSE(a.empty());
    for (const auto& [key, total] : a) {
        const auto it = b.find(key);
        ASSERT_NE(it, b.end()) << "worker " << std::get<0>(key) << " state " << std::get<2>(key) << " level "
                               << std::get<1>(key) << " missing from the Paje trace";
        EXPECT_LE(std::fabs(static_cast<double>(total - it->second)), 0.001 * static_cast<double>(total))
            << "worker " << std::get<0>(key) << " state " << std::get<2>(key) << ": fxt " << total << " ns, paje "
            << it->second << " ns";
    }
    for (const auto& [key, total] : b) {
        EXPECT_TRUE(a.contains(key)) << "state " << std::get<2>(key) << " of worker " << std::get<0>(key)
                                     << " only in the Paje trace";
    }
}

void expectSameExecutedTasks(const Trace& fxt, const Trace& paje) {
    std::map<std::uint64_t, const Task*> byJob;
    for (const auto& task : paje.tasks) {
        byJob[task.jobId] = &task;
    }
    std::size_t executed = 0;
    for (const auto& task : fxt.tasks) {
        if (task.start < 0) {
            continue;
        }
        ++executed;
        const auto it = byJob.find(task.jobId);
        ASSERT_NE(it, byJob.end()) << "job " << task.jobId << " not in the Paje trace";
        const Task& other = *it->second;
        EXPECT_EQ(task.start, other.start) << "job " << task.jobId;
        EXPECT_EQ(task.end, other.end) << "job " << task.jobId;
        EXPECT_EQ(fxt.lanes[static_cast<std::size_t>(task.lane)].workerId,
                  paje.lanes[static_cast<std::size_t>(other.lane)].workerId)
            << "job " << task.jobId;
        EXPECT_EQ(fxt.codeletOf(task), paje.codeletOf(other));
        EXPECT_EQ(fxt.footprintOf(task), paje.footprintOf(other)) << "job " << task.jobId;
    }
    EXPECT_EQ(executed, paje.tasks.size());
}

void expectSameWorkers(const Trace& fxt, const Trace& paje) {
    std::size_t matched = 0;
    for (const auto& lane : fxt.lanes) {
        for (const auto& other : paje.lanes) {
            if (lane.isWorker() && other.isWorker() && lane.workerId == other.workerId) {
                ++matched;
                EXPECT_EQ(lane.name, other.name);
                EXPECT_EQ(lane.kind, other.kind);
                EXPECT_EQ(lane.memoryNode, other.memoryNode);
            }
        }
    }
    EXPECT_EQ(matched, 2U);
}

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
    expectSameWorkers(*fxt, *paje);
    expectSameWorkerStates(*fxt, *paje);
    expectSameExecutedTasks(*fxt, *paje);
    EXPECT_EQ(fxt->markers.size(), paje->markers.size());
}

INSTANTIATE_TEST_SUITE_P(StarpuVersions, GoldenCrossCheck,
                         ::testing::Values(std::pair{"small", "1.3.10"}, std::pair{"small14", "1.4.12"}),
                         [](const auto& param) { return std::string(param.param.first); });

TEST(CrossCheck, FreshRecordingFxtEqualsStarpuFxtToolPaje) {
    starscope::testing::TempDir dir;
    const auto run = dir / "run";
    ASSERT_EQ(recordSample(run, "--batches 5 --tasks 200 --task-us 50 --load-us 300 --gate-us 500 --ncpu 2 --chains 3"), 0)
        << starscope::testing::readFile(dir.path() / "run.log");
    const auto files = findProfFiles(run);
    ASSERT_EQ(files.size(), 1U);
    ASSERT_EQ(runStarpuFxtTool(files.front(), run), 0) << starscope::testing::readFile(run / "tool.log");
    const auto fxt = readTrace(run);
    const auto paje = readTrace(run / "paje.trace");
    ASSERT_TRUE(fxt) << fxt.error().describe();
    ASSERT_TRUE(paje) << paje.error().describe();
    expectSameWorkers(*fxt, *paje);
    expectSameWorkerStates(*fxt, *paje);
    expectSameExecutedTasks(*fxt, *paje);
}

} // namespace
} // namespace starscope::tracer
