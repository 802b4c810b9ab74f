// The tracer on traces recorded now, by the sample program on the StarPU the tests are built
// against, each beside its golden-trace twin's file: barriers at every gated transition, the
// FxT reader's warnings, cancelling and series, and agreement with that StarPU's
// starpu_fxt_tool (the golden runs hold the other versions'). Built only with the recorder.

#include "tests/support/starpu_support.hpp"
#include "tests/support/test_support.hpp"
#include "tests/tracer/recording_support.hpp"
#include "tests/tracer/trace_checks.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/codelet_stats.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/model/starpu_tasks.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <string>

namespace starscope::tracer {
namespace {

using namespace testing;

TEST(Barriers, RecordedGateBarriersAreFoundAtEveryTransition) {
    starscope::testing::TempDir dir;
    ASSERT_EQ(
        recordSample(dir / "run",
                     "--batches 4 --tasks 20 --task-us 100 --load-us 0 --gate-us 3000 --ncpu 2"),
        0);
    const auto trace = readTrace(dir / "run");
    ASSERT_TRUE(trace) << trace.error().describe();
    const auto transitions = findTransitions(*trace);
    ASSERT_EQ(transitions.size(), 4U);
    const auto barriers = findBarriers(*trace);
    const auto main = std::find_if(trace->lanes.begin(), trace->lanes.end(),
                                   [](const Lane& l) { return l.name == "main"; });
    ASSERT_NE(main, trace->lanes.end());
    // The gate keeps every worker idle for 3 ms while the main thread waits for all tasks.
    // How the rest of a transition looks depends on the machine's load, so measure only the
    // time barriers share with the main thread's "Waiting all tasks".
    for (std::int32_t t = 0; t < 3; ++t) {
        TimeNs waited = 0;
        for (const auto& b : barriers) {
            if (b.transition != t) {
                continue;
            }
            for (const auto& span : main->spans()) {
                if (trace->states[span.state].name == "Waiting all tasks") {
                    waited =
                        std::max(waited, std::min(b.end, span.end) - std::max(b.start, span.start));
                }
            }
        }
        EXPECT_GE(waited, 2'000'000) << transitions[static_cast<std::size_t>(t)].label;
    }
}

// StarPU's start-up task (starpu_execute_on_each_worker, what a GPU machine's CUDA initialisation
// runs) as the StarPU the tests run against records it. 1.3.10 writes a TaskExcludeFromDag event
// for it, once taken for a sign of 1.4: the trace was then read with 1.4's layout, its CPU workers
// as CUDA ones and its codelet names cut by 8 bytes ("on_all_wrapper", "pin").
TEST(StarpuTasks, ARecordedStartUpTaskIsStarpusOwnAndTheTraceReadsWhole) {
    starscope::testing::TempDir dir;
    ASSERT_EQ(recordSample(dir / "run", "--batches 2 --tasks 8 --task-us 100 --load-us 0 --startup-us 3000 --ncpu 2"),
              0)
        << starscope::testing::readFile(dir.path() / "run.log");
    const auto trace = readTrace(dir / "run");
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_EQ(trace->metadata.at("starpu.codes").substr(0, 3), starscope::testing::starpuSeries());
    std::size_t workers = 0;
    for (const auto& lane : trace->lanes) {
        if (lane.isWorker()) {
            ++workers;
            EXPECT_EQ(lane.kind, LaneKind::CpuWorker) << lane.name;
        }
    }
    EXPECT_EQ(workers, 2U);
    std::map<std::string, bool> codelets;
    for (const auto& c : computeCodeletStats(*trace)) {
        codelets[c.codelet] = c.internal;
    }
    const std::map<std::string, bool> expected{{"execute_on_all_wrapper", true}, {"sample_spin", false}};
    EXPECT_EQ(codelets, expected);
    // The program's window starts at its own first task, after the 3 ms start-up.
    const auto window = executionWindow(*trace);
    ASSERT_FALSE(window.empty());
    EXPECT_EQ(window.tasks, 16U);
    TimeNs startupEnd = -1;
    for (const auto& task : trace->tasks) {
        if (task.start >= 0 && !(window.first <= task.start && task.end <= window.last)) {
            startupEnd = std::max<TimeNs>(startupEnd, task.end);
        }
    }
    EXPECT_GE(startupEnd, 0) << "the start-up tasks lie before the program's window";
    EXPECT_LE(startupEnd, window.first);
    EXPECT_EQ(summarize(*trace).makespan, window.length());
}

TEST(FxtReader, WorkersWithoutAnyTaskAreAWarning) {
    starscope::testing::TempDir dir;
    ASSERT_EQ(recordSample(dir / "run", "--batches 1 --tasks 0 --load-us 0 --ncpu 2"), 0)
        << starscope::testing::readFile(dir.path() / "run.log");
    const auto trace = readTrace(dir / "run");
    ASSERT_TRUE(trace) << trace.error().describe();
    const bool warned =
        std::any_of(trace->warnings.begin(), trace->warnings.end(), [](const std::string& w) {
            return w.find("no task execution") != std::string::npos;
        });
    EXPECT_TRUE(warned);
}

TEST(FxtReader, CancelsWhenProgressSaysStop) {
    ReadOptions options;
    options.progress = [](double) { return false; };
    // A small file may finish before the first progress report; a bigger one cannot.
    starscope::testing::TempDir dir;
    ASSERT_EQ(
        recordSample(dir / "run", "--batches 2 --tasks 3000 --task-us 0 --load-us 0 --ncpu 2"), 0);
    const auto cancelled = readTrace(dir / "run", options);
    ASSERT_FALSE(cancelled);
    EXPECT_EQ(cancelled.error().code, ErrorCode::Cancelled);
}

TEST(FxtReader, FreshRecordingWithBarriersBetweenBatches) {
    starscope::testing::TempDir dir;
    ASSERT_EQ(
        recordSample(dir / "run",
                     "--batches 4 --tasks 40 --task-us 100 --load-us 0 --gate-us 2000 --ncpu 2"),
        0)
        << starscope::testing::readFile(dir.path() / "run.log");
    const auto trace = readTrace(dir / "run");
    ASSERT_TRUE(trace) << trace.error().describe();
    std::size_t executed = 0;
    for (const auto& task : trace->tasks) {
        executed += task.start >= 0 ? 1U : 0U;
    }
    EXPECT_EQ(executed, 4U * 40U + 3U); // plus one gate task per transition
    EXPECT_EQ(trace->metadata.at("format"), "fxt");
    // The layout is recognised from the trace: the codes of the StarPU series that recorded it.
    EXPECT_EQ(trace->metadata.at("starpu.codes").substr(0, 3), starscope::testing::starpuSeries());
}

TEST(CrossCheck, FreshRecordingFxtEqualsStarpuFxtToolPaje) {
    starscope::testing::TempDir dir;
    const auto run = dir / "run";
    ASSERT_EQ(
        recordSample(
            run,
            "--batches 5 --tasks 200 --task-us 50 --load-us 300 --gate-us 500 --ncpu 2 --chains 3"),
        0)
        << starscope::testing::readFile(dir.path() / "run.log");
    const auto files = run::findProfFiles(run);
    ASSERT_EQ(files.size(), 1U);
    ASSERT_EQ(runStarpuFxtTool(files.front(), run), 0)
        << starscope::testing::readFile(run / "tool.log");
    const auto fxt = readTrace(run);
    const auto paje = readTrace(run / "paje.trace");
    ASSERT_TRUE(fxt) << fxt.error().describe();
    ASSERT_TRUE(paje) << paje.error().describe();
    expectFxtMatchesPaje(*fxt, *paje);
}

TEST(ProfilingMask, FreshRecordingWithTheBuiltStarpu) {
    starscope::testing::TempDir dir;
    const auto run = dir / "run";
    ASSERT_EQ(recordSample(
                  run, "--batches 4 --tasks 8 --task-us 300 --load-us 2000 --gate-us 3000 --ncpu 2 "
                       "--chains 2 --unprofiled-batch 1"),
              0)
        << starscope::testing::readFile(dir.path() / "run.log");
    const auto files = run::findProfFiles(run);
    ASSERT_EQ(files.size(), 1U);
    std::filesystem::rename(files.front(), run / "prof_file__0");
    ASSERT_EQ(runStarpuFxtTool(run / "prof_file__0", run), 0)
        << starscope::testing::readFile(run / "tool.log");
    expectProfilingMaskHonoured(run);
}

} // namespace
} // namespace starscope::tracer
