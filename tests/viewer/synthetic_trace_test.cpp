#include "tests/support/synthetic_trace.hpp"

#include <gtest/gtest.h>

using namespace starscope::viewer;
using starscope::tracer::StateClass;
using starscope::tracer::TimeNs;

namespace {

void expectWellFormed(const starscope::tracer::Trace& trace) {
    for (const auto& lane : trace.lanes) {
        const auto& spans = lane.spans();
        for (std::size_t i = 0; i < spans.size(); ++i) {
            EXPECT_LE(spans[i].start, spans[i].end) << lane.name << " span " << i;
            if (i > 0) {
                EXPECT_LE(spans[i - 1].end, spans[i].start) << lane.name << " span " << i;
            }
            EXPECT_LT(spans[i].state, trace.states.size());
            EXPECT_LE(spans[i].end, trace.end);
        }
    }
}

} // namespace

TEST(SyntheticTrace, ExactLayoutWithoutJitter) {
    SyntheticOptions options;
    options.cpuWorkers = 3;
    options.batchesPerEpoch = 2;
    options.epochs = 2;
    options.tasksPerWorker = 4;
    const auto trace = makeSyntheticTrace(options);
    expectWellFormed(trace);
    ASSERT_EQ(trace.lanes.size(), 4u);
    EXPECT_EQ(trace.tasks.size(), 4u * 3u * 4u);
    EXPECT_EQ(trace.markers.size(), 8u);
    const TimeNs period = options.period();
    EXPECT_EQ(period, 20'000 + 4 * 55'000 + 400'000);
    // Batch 1 begins one period in; its first task runs after submission and one Scheduling.
    EXPECT_EQ(trace.markers[2].time, period);
    EXPECT_EQ(trace.markers[2].batch, 1);
    EXPECT_EQ(trace.markers[4].epoch, 1);
    const auto& cpu1 = trace.lanes[1].spans();
    const auto firstExec = std::find_if(cpu1.begin(), cpu1.end(), [&](const auto& s) {
        return s.start >= period && trace.states[s.state].cls == StateClass::Executing;
    });
    ASSERT_NE(firstExec, cpu1.end());
    EXPECT_EQ(firstExec->start, period + 20'000 + 5'000);
    EXPECT_EQ(firstExec->duration(), 50'000);
    const auto* task = trace.taskOf(trace.lanes[1], *firstExec);
    ASSERT_NE(task, nullptr);
    EXPECT_EQ(task->start, firstExec->start);
    EXPECT_EQ(task->lane, 1);
    // Between batches every worker sleeps: batch end .. next batch's work start.
    const TimeNs batchEnd = 20'000 + 4 * 55'000;
    for (std::size_t w = 0; w < 3; ++w) {
        const auto& spans = trace.lanes[w].spans();
        const auto it = std::find_if(spans.begin(), spans.end(), [&](const auto& s) { return s.start == batchEnd; });
        ASSERT_NE(it, spans.end());
        EXPECT_EQ(trace.states[it->state].name, "Sleeping");
        EXPECT_EQ(it->end, period + 20'000);
    }
    EXPECT_EQ(trace.lanes[3].kind, starscope::tracer::LaneKind::MainThread);
    EXPECT_EQ(trace.end, 3 * period + batchEnd);
}

TEST(SyntheticTrace, JitterKeepsTheTraceWellFormedAndIsDeterministic) {
    SyntheticOptions options;
    options.jitter = 0.5;
    options.seed = 42;
    const auto a = makeSyntheticTrace(options);
    const auto b = makeSyntheticTrace(options);
    expectWellFormed(a);
    EXPECT_EQ(a, b);
    options.seed = 43;
    EXPECT_NE(makeSyntheticTrace(options), a);
}
