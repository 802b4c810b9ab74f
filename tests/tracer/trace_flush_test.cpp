// FxT's buffer flushes, on hand-built input: the thread that wrote the buffer found from the
// events around libfxt's fut_start_flush / fut_stop_flush, its lane "Trace flush" over whatever
// it did (a task it ran kept as the longer part beside it), the barriers it causes, the figures
// without it. recorded_flushes_test.cpp checks them on traces StarPU records.

#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/analysis/trace_flushes.hpp"
#include "tracer/readers/fxt/buffer_flushes.hpp"
#include "tracer/readers/trace_builder.hpp"

#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

namespace starscope::tracer {
namespace {

using namespace testing;
using detail::BufferFlushes;

TEST(BufferFlushes, TheFirstThreadSeenAfterStarpusEventAndNotDuringTheWriteWroteIt) {
    BufferFlushes flushes;
    EXPECT_FALSE(flushes.pending());
    flushes.start(100);
    flushes.stop(200);
    EXPECT_FALSE(flushes.threadEvent(1)); // recorded into the next buffer meanwhile
    flushes.callback();
    EXPECT_FALSE(flushes.threadEvent(-1)); // an event of no known thread tells nothing
    EXPECT_FALSE(flushes.threadEvent(1));
    EXPECT_EQ(flushes.threadEvent(2), (BufferFlushes::Flush{2, 100, 200}));
    EXPECT_FALSE(flushes.pending());
    EXPECT_FALSE(flushes.threadEvent(3));
    flushes.finish();
    EXPECT_EQ(flushes.attributed(), 1U);
    EXPECT_EQ(flushes.unattributed(), 0U);
}

TEST(BufferFlushes, WithoutStarpusEventAFlushFindsNoThread) {
    BufferFlushes flushes;
    flushes.start(100);
    flushes.stop(200);
    EXPECT_FALSE(flushes.threadEvent(2));
    flushes.start(300); // the next flush: the first one stays without a thread
    flushes.stop(400);
    EXPECT_FALSE(flushes.threadEvent(3));
    flushes.finish();
    EXPECT_EQ(flushes.attributed(), 0U);
    EXPECT_EQ(flushes.unattributed(), 2U);
}

// One worker runs job 1 from 10 to `end`, interrupted by a flush [50,80); the main thread waits
// from 0 to 40, interrupted by a flush [20,30).
Trace interrupted(TimeNs end) {
    detail::TraceBuilder b;
    const auto worker = b.addLane("CPU 0", LaneKind::CpuWorker, 0, 0);
    const auto main = b.addLane("main", LaneKind::MainThread, -1, -1);
    const auto executing = b.state(detail::kExecutingState, LaneKind::CpuWorker);
    b.setState(worker, 10, executing, b.task(1));
    b.interruptState(worker, 50, 80, b.state(kTraceFlushState, LaneKind::CpuWorker));
    b.setState(worker, end, b.state("Overhead", LaneKind::CpuWorker));
    b.pushState(main, 0, b.state("Waiting all tasks", LaneKind::MainThread));
    b.interruptState(main, 20, 30, b.state(kTraceFlushState, LaneKind::MainThread));
    b.popState(main, 40);
    return b.finish(300);
}

TEST(TraceBuilder, AnInterruptedTaskIsItsLongerPartAndTheStatesResume) {
    // Executing, the flush, executing again, overhead: the task is the longer part.
    for (const TimeNs end : {TimeNs{100}, TimeNs{200}}) {
        const auto trace = interrupted(end);
        const auto& spans = trace.lanes[0].spans();
        ASSERT_EQ(spans.size(), 4U) << end;
        EXPECT_EQ(trace.stateOf(spans[1]).name, kTraceFlushState);
        EXPECT_EQ(trace.stateOf(spans[1]).cls, StateClass::Tracing);
        EXPECT_EQ(std::make_pair(spans[1].start, spans[1].end),
                  std::make_pair(TimeNs{50}, TimeNs{80}));
        EXPECT_EQ(trace.stateOf(spans[2]).name, detail::kExecutingState);
        ASSERT_EQ(trace.tasks.size(), 1U);
        const auto& task = trace.tasks[0];
        const bool before = end == 100; // 40 ns before the flush, 20 after; else 120 after
        EXPECT_EQ(task.start, before ? 10 : 80) << end;
        EXPECT_EQ(task.end, before ? 50 : end) << end;
        EXPECT_EQ(spans[0].runsTask, before ? 1U : 0U) << end;
        EXPECT_EQ(spans[2].runsTask, before ? 0U : 1U) << end;
        EXPECT_EQ(trace.taskOf(trace.lanes[0], spans[before ? 0 : 2]), &task);
        EXPECT_TRUE(trace.warnings.empty());
        // The main thread's state (its first push is its base level) around the flush.
        const auto& main = trace.lanes[1].spans();
        ASSERT_EQ(main.size(), 3U);
        EXPECT_EQ(trace.stateOf(main[0]).name, "Waiting all tasks");
        EXPECT_EQ(trace.stateOf(main[1]).cls, StateClass::Tracing);
        EXPECT_EQ(trace.stateOf(main[2]).name, "Waiting all tasks");
        EXPECT_EQ(std::make_pair(main[2].start, main[2].end),
                  std::make_pair(TimeNs{30}, TimeNs{40}));
    }
}

// Worker A executes [0,100), writes the trace [100,150) and executes [150,300); worker B
// executes [0,90), sleeps [90,200) and executes [200,300): no worker executes in [100,150).
Trace handBuilt() {
    return makeTrace({{"A",
                       LaneKind::CpuWorker,
                       {{"Executing", 0, 100},
                        {std::string(kTraceFlushState), 100, 150},
                        {"Executing", 150, 300}}},
                      {"B",
                       LaneKind::CpuWorker,
                       {{"Executing", 0, 90}, {"Sleeping", 90, 200}, {"Executing", 200, 300}}}},
                     300);
}

TEST(TraceFlushes, AreTheTracingSpansAndCauseTheBarriersTheyOverlap) {
    const auto trace = handBuilt();
    EXPECT_EQ(findTraceFlushes(trace), (std::vector<TraceFlush>{{0, -1, 100, 150}}));
    EXPECT_TRUE(findTraceFlushes(trace, 3).empty());
    BarrierOptions options;
    options.threshold = 10;
    const auto barriers = findBarriers(trace, options);
    ASSERT_EQ(barriers.size(), 1U);
    EXPECT_EQ(barriers[0].start, 100);
    EXPECT_EQ(barriers[0].end, 150);
    EXPECT_EQ(barriers[0].cause, BarrierCause::TraceFlush);
    EXPECT_TRUE(
        findTraceFlushes(makeTrace({{"A", LaneKind::CpuWorker, {{"Executing", 0, 10}}}}, 10))
            .empty());
}

TEST(TraceFlushes, FiguresWithoutThemCutTheirTimeOutOfTheTimeline) {
    const auto trace = handBuilt();
    BarrierOptions options;
    options.threshold = 10;
    const auto s = summarize(trace, options);
    EXPECT_EQ(s.makespan, 300);
    EXPECT_EQ(s.workerTotals.executing, 440);
    EXPECT_EQ(s.workerTotals.tracing, 50);
    EXPECT_EQ(s.barrierCount, 1U);
    EXPECT_DOUBLE_EQ(s.barrierShare, 50.0 / 300.0);
    EXPECT_EQ(s.traceFlushes, 1U);
    EXPECT_EQ(s.traceFlushTotal, 50);
    EXPECT_EQ(s.traceFlushMax, 50);
    const auto& w = s.withoutTracing;
    EXPECT_EQ(w.makespan, 250);
    EXPECT_EQ(w.workerTotals.executing, 440);
    EXPECT_EQ(w.workerTotals.sleeping, 60);
    EXPECT_EQ(w.workerTotals.tracing, 0);
    EXPECT_DOUBLE_EQ(w.idleness, 1.0 - 440.0 / 500.0);
    EXPECT_EQ(w.barrierCount, 0U); // the barrier was the flush
    EXPECT_EQ(w.barrierTotal, 0);
    EXPECT_DOUBLE_EQ(w.barrierShare, 0.0);
}

TEST(TraceFlushes, WithoutAnyTheFiguresWithoutThemAreTheFigures) {
    const auto trace =
        makeTrace({{"A",
                    LaneKind::CpuWorker,
                    {{"Executing", 0, 100}, {"Sleeping", 100, 150}, {"Executing", 150, 300}}}},
                  300);
    BarrierOptions options;
    options.threshold = 10;
    const auto s = summarize(trace, options);
    EXPECT_EQ(s.traceFlushes, 0U);
    EXPECT_EQ(s.withoutTracing.makespan, s.makespan);
    EXPECT_EQ(s.withoutTracing.workerTotals, s.workerTotals);
    EXPECT_EQ(s.withoutTracing.idleness, s.idleness);
    EXPECT_EQ(s.withoutTracing.barrierCount, s.barrierCount);
    EXPECT_EQ(s.withoutTracing.barrierTotal, s.barrierTotal);
    EXPECT_EQ(s.withoutTracing.barrierShare, s.barrierShare);
}

} // namespace
} // namespace starscope::tracer
