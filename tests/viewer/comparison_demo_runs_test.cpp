// The comparison on the demo's two runs (runs/single-naive and runs/double-advanced, recorded by
// scripts/demo.sh): StarPU's start-up comes before the program's first task, by a different time
// in each run, so an axis whose 0 was the first span of any lane put the runs out of step and
// stretched "normalized" over more than the table's makespan.

#include "tests/support/test_support.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/model/starpu_tasks.hpp"
#include "viewer/core/comparison/comparison.hpp"

#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>
#include <vector>

using namespace starscope::viewer;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> demoRuns() {
    const fs::path runs = starscope::testing::sourceDir() / "runs";
    return {runs / "single-naive", runs / "double-advanced"};
}

bool recorded(const std::vector<fs::path>& runs) {
    for (const auto& run : runs) {
        std::error_code error;
        if (!fs::is_directory(run, error)) {
            return false;
        }
    }
    return true;
}

} // namespace

class DemoRuns : public ::testing::Test {
protected:
    void SetUp() override {
        if (!recorded(demoRuns())) {
            GTEST_SKIP()
                << "the demo's runs are not recorded here: scripts/demo.sh records them in runs/";
        }
        auto loaded = loadComparison(demoRuns(), starscope::tracer::BarrierOptions{}.threshold);
        ASSERT_TRUE(loaded) << loaded.error().message;
        m_loaded = std::move(*loaded);
        for (const auto& run : m_loaded.runs) {
            const TraceDocument& d = *run.document;
            ASSERT_FALSE(d.execution.empty()) << d.source;
            std::printf("%s: spans from %.3f to %.3f ms, the program's tasks from %.3f to %.3f ms "
                        "(makespan %.3f ms)\n",
                        d.source.c_str(),
                        d.time.durationNs(static_cast<double>(d.activityBegin)) / 1e6,
                        d.time.durationNs(static_cast<double>(d.activityEnd)) / 1e6,
                        d.time.durationNs(static_cast<double>(d.execution.first)) / 1e6,
                        d.time.durationNs(static_cast<double>(d.execution.last)) / 1e6,
                        d.time.durationNs(static_cast<double>(d.execution.length())) / 1e6);
        }
        // The runs' start-ups differ: aligned on their first spans, their first tasks would not
        // meet.
        const auto startUp = [](const ComparedRun& run) {
            return run.document->execution.first - run.document->activityBegin;
        };
        ASSERT_GT(startUp(m_loaded.runs[0]), 0);
        ASSERT_NE(startUp(m_loaded.runs[0]), startUp(m_loaded.runs[1]));
    }

    LoadedComparison m_loaded;
};

TEST_F(DemoRuns, AlignedOnStartTheProgramsFirstTasksSitAtZeroInBothPanels) {
    auto aligned = alignRuns(m_loaded.runs, {AlignMode::Start, 0});
    ASSERT_TRUE(aligned) << aligned.error().message;
    ASSERT_EQ(aligned->size(), 2U);
    for (const auto& run : *aligned) {
        const TraceDocument& d = *run.document;
        const auto window = starscope::tracer::executionWindow(d.trace);
        EXPECT_EQ(d.time.timeNs(static_cast<double>(window.first)), 0.0) << d.source;
        EXPECT_EQ(d.time.zeroTick, (*aligned)[0].document->time.zeroTick);
    }
}

TEST_F(DemoRuns, NormalizedSpansTheTablesMakespan) {
    auto aligned = alignRuns(m_loaded.runs, {AlignMode::Normalized, 0});
    ASSERT_TRUE(aligned) << aligned.error().message;
    for (std::size_t i = 0; i < aligned->size(); ++i) {
        const TraceDocument& d = *(*aligned)[i].document;
        const auto window = starscope::tracer::executionWindow(d.trace);
        // 0 % is the first task of the program, 100 % its last task's end...
        EXPECT_EQ(window.first, d.time.zeroTick) << d.source;
        EXPECT_NEAR(static_cast<double>(window.last - d.time.zeroTick), kNormalizedSpanNs, 1.0)
            << d.source;
        // ...and those 100 % read as the makespan the table shows.
        const auto& makespan = m_loaded.figures[i].makespanNs.value;
        ASSERT_TRUE(makespan) << d.source;
        EXPECT_NEAR(d.time.durationNs(kNormalizedSpanNs), *makespan, 1.0) << d.source;
    }
}
