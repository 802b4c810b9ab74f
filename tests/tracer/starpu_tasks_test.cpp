// StarPU's own tasks (tracer/model/starpu_tasks.hpp) and the figures that leave them out: a
// trace whose workers each run StarPU's start-up task (starpu_execute_on_each_worker's
// "execute_on_all_wrapper", CUDA's initialisation on a GPU job) long before the program's first
// task has the figures of the same trace with that time spent initialising instead. The same
// on a recorded trace: recorded_traces_test.cpp.

#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/area_bound.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/codelet_stats.hpp"
#include "tracer/analysis/machine.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/model/starpu_tasks.hpp"

#include <gtest/gtest.h>
#include <string>

namespace starscope::tracer {
namespace {

using namespace testing;

constexpr TimeNs kUs = 1000;

// Two CPU workers and a CUDA one. Each first runs `startup` (0-300, 0-200, 0-400 us), then
// sleeps until the program's gemm tasks: 1000-2000 and 2000-2500 on CPU 0, 1200-2200 on CPU 1,
// 1100-1600 on CUDA 0. With startup "Initializing" the start is runtime work without a task.
Trace startupTrace(const std::string& startup) {
    auto trace = makeTrace({{"CPU 0",
                             LaneKind::CpuWorker,
                             {{startup, 0, 300 * kUs},
                              {"Sleeping", 300 * kUs, 1000 * kUs},
                              {"Executing", 1000 * kUs, 2000 * kUs},
                              {"Executing", 2000 * kUs, 2500 * kUs}}},
                            {"CPU 1",
                             LaneKind::CpuWorker,
                             {{startup, 0, 200 * kUs},
                              {"Sleeping", 200 * kUs, 1200 * kUs},
                              {"Executing", 1200 * kUs, 2200 * kUs}}},
                            {"CUDA 0",
                             LaneKind::CudaWorker,
                             {{startup, 0, 400 * kUs},
                              {"Sleeping", 400 * kUs, 1100 * kUs},
                              {"Executing", 1100 * kUs, 1600 * kUs}}},
                            {"main", LaneKind::MainThread, {{"Submitting task", 0, 3000 * kUs}}}},
                           3000 * kUs);
    const auto gemm = trace.names.intern("gemm");
    const auto wrapper = trace.names.intern("execute_on_all_wrapper");
    for (auto& task : trace.tasks.edit()) {
        trace.setCodelet(task, task.start == 0 ? wrapper : gemm, 0);
    }
    trace.indexTasks();
    return trace;
}

TEST(StarpuTasks, TheStartUpTaskIsStarpusOwn) {
    EXPECT_TRUE(isStarpuInternalCodelet("execute_on_all_wrapper"));
    EXPECT_TRUE(isStarpuInternalCodelet("_starpu_data_acquire_post"));
    EXPECT_FALSE(isStarpuInternalCodelet("execute_on_all"));
    EXPECT_FALSE(isStarpuInternalCodelet("gemm"));

    const auto trace = startupTrace("Executing");
    const StarpuTasks starpu(trace);
    EXPECT_TRUE(starpu.any());
    std::size_t own = 0;
    for (const auto& task : trace.tasks) {
        own += starpu.contains(task) ? 1U : 0U;
        EXPECT_EQ(starpu.contains(task), task.start == 0);
    }
    EXPECT_EQ(own, 3U);
    EXPECT_FALSE(StarpuTasks(startupTrace("Initializing")).any());
}

TEST(StarpuTasks, TheExecutionWindowIsTheProgramsTasks) {
    const auto window = executionWindow(startupTrace("Executing"));
    EXPECT_EQ(window.first, 1000 * kUs);
    EXPECT_EQ(window.last, 2500 * kUs);
    EXPECT_EQ(window.tasks, 4U);
    EXPECT_EQ(window.length(), 1500 * kUs);
    EXPECT_EQ(window, executionWindow(startupTrace("Initializing")));
}

TEST(StarpuTasks, TheStartUpTaskIsNoFigureOfTheProgram) {
    const auto withTask = startupTrace("Executing");
    const auto without = startupTrace("Initializing");
    auto s = summarize(withTask);
    const auto expected = summarize(without);
    EXPECT_EQ(s.makespan, 1500 * kUs); // 2500 us with the start-up task opening it
    EXPECT_EQ(s.workerTotals.executing, 3000 * kUs);
    EXPECT_EQ(s.areaBound, 1000 * kUs);
    EXPECT_EQ(s.barrierCount, 0U); // the 600 us between start-up and the program's first task
    EXPECT_EQ(s.tasks, 7U);        // every task that ran is still counted as such
    s.tasks = expected.tasks;
    EXPECT_EQ(s, expected);

    // Per kind of worker: the CUDA worker's 400 us of start-up are not its executing time.
    const auto machine = machineFigures(withTask, computeStats(withTask));
    const auto reference = machineFigures(without, computeStats(without));
    ASSERT_EQ(machine.kinds.size(), 2U);
    ASSERT_EQ(reference.kinds.size(), 2U);
    for (std::size_t k = 0; k < 2; ++k) {
        EXPECT_EQ(machine.kinds[k].times, reference.kinds[k].times) << k;
        EXPECT_EQ(machine.kinds[k].idleness, reference.kinds[k].idleness) << k;
    }
    EXPECT_EQ(machine.kinds[1].times.executing, 500 * kUs);
    ASSERT_TRUE(machine.areaBound.value) << machine.areaBound.reason;
    ASSERT_TRUE(reference.areaBound.value) << reference.areaBound.reason;
    EXPECT_EQ(machine.areaBound.value->bound, reference.areaBound.value->bound);
}

TEST(StarpuTasks, TheStartUpTaskKeepsItsOwnCodeletRow) {
    const auto table = computeCodeletStats(startupTrace("Executing"));
    ASSERT_EQ(table.size(), 2U);
    EXPECT_EQ(table[0].codelet, "gemm");
    EXPECT_FALSE(table[0].internal);
    EXPECT_EQ(table[1].codelet, "execute_on_all_wrapper");
    EXPECT_TRUE(table[1].internal);
    EXPECT_EQ(table[1].all.count, 3U);
    EXPECT_EQ(table[1].all.total, 900 * kUs);
}

TEST(StarpuTasks, TheCursorFindsEverySpansTask) {
    // Span by span in time order, the cursor finds what taskIndexOf's search finds; after a
    // jump ahead, and back in time too.
    auto trace = startupTrace("Executing");
    for (const auto& lane : trace.lanes) {
        LaneTaskCursor cursor(trace, lane);
        for (const auto& span : lane.spans()) {
            EXPECT_EQ(cursor.taskOf(span), trace.taskIndexOf(lane, span))
                << lane.name << " " << span.start;
        }
    }
    const auto& lane = trace.lanes[0];
    LaneTaskCursor late(trace, lane);
    EXPECT_EQ(late.taskOf(lane.spans()[3]), trace.taskIndexOf(lane, lane.spans()[3]));
    EXPECT_EQ(late.taskOf(lane.spans()[0]),
              trace.taskIndexOf(lane, lane.spans()[0])); // back in time
    EXPECT_EQ(late.taskOf(lane.spans()[1]), kNoTask);
}

} // namespace
} // namespace starscope::tracer
