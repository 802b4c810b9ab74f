// The readers' shared builder: a span running a task finds its task, unless the task ran again
// later (it keeps the times of its last run).

#include "tracer/readers/trace_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace starscope::tracer {
namespace {

using detail::TraceBuilder;

bool hasWarning(const Trace& trace, std::string_view part) {
    return std::any_of(trace.warnings.begin(), trace.warnings.end(),
                       [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

// One worker executing [10,20) and [30,40): job 1 then job 2, or job 1 twice.
Trace twoRuns(bool sameTask) {
    TraceBuilder b;
    const auto lane = b.addLane("CPU 0", LaneKind::CpuWorker, 0, 0);
    const auto executing = b.state(detail::kExecutingState, LaneKind::CpuWorker);
    const auto idle = b.state("Idle", LaneKind::CpuWorker);
    const auto first = b.task(1);
    const auto second = sameTask ? first : b.task(2);
    b.setState(lane, 10, executing, first);
    b.setState(lane, 20, idle);
    b.setState(lane, 30, executing, second);
    b.setState(lane, 40, idle);
    return b.finish(50);
}

TEST(TraceBuilder, TasksRunOnceKeepTheirSpans) {
    const auto trace = twoRuns(false);
    const auto& spans = trace.lanes[0].spans();
    ASSERT_EQ(spans.size(), 4U);
    ASSERT_NE(trace.taskOf(trace.lanes[0], spans[0]), nullptr);
    ASSERT_NE(trace.taskOf(trace.lanes[0], spans[2]), nullptr);
    EXPECT_EQ(trace.taskOf(trace.lanes[0], spans[0])->jobId, 1U);
    EXPECT_EQ(trace.taskOf(trace.lanes[0], spans[2])->jobId, 2U);
    EXPECT_FALSE(hasWarning(trace, "ran again later"));
}

TEST(TraceBuilder, ATaskRunTwiceKeepsItsLastSpan) {
    const auto trace = twoRuns(true);
    const auto& spans = trace.lanes[0].spans();
    ASSERT_EQ(spans.size(), 4U);
    // The first run's span no longer says it runs a task: its times are not the task's.
    EXPECT_EQ(spans[0].runsTask, 0U);
    EXPECT_EQ(trace.stateOf(spans[0]).name, detail::kExecutingState);
    ASSERT_NE(trace.taskOf(trace.lanes[0], spans[2]), nullptr);
    EXPECT_EQ(trace.taskOf(trace.lanes[0], spans[2])->start, 30);
    EXPECT_TRUE(hasWarning(trace, "ran again later"));
}

// A marker the model cannot hold as fields (a slot beyond kMaxMarkerSlot) is kept as its text,
// and the reader says so; a task's codelet and footprint, set apart, are one key once finished.
TEST(TraceBuilder, AMarkerBeyondTheModelIsTextWithAWarning) {
    TraceBuilder b;
    const auto lane = b.addLane("main", LaneKind::MainThread, 0, -1);
    b.addMarker(5, lane, "ss1:batch_begin epoch=0 batch=1 slot=0");
    b.addMarker(6, lane, "ss1:batch_begin epoch=0 batch=2 slot=999");
    const auto job = b.task(1);
    b.setFootprint(job, 0xabc);
    b.setCodelet(job, b.intern("conv_fwd"));
    const auto trace = b.finish(10);
    ASSERT_EQ(trace.markers.size(), 2U);
    EXPECT_TRUE(trace.markers[0].parsed);
    EXPECT_EQ(trace.markers[0].lane, lane);
    EXPECT_FALSE(trace.markers[1].parsed);
    EXPECT_EQ(trace.textOf(trace.markers[1]), "ss1:batch_begin epoch=0 batch=2 slot=999");
    EXPECT_TRUE(hasWarning(trace, "kept as plain text: \"ss1:batch_begin epoch=0 batch=2 slot=999\""));
    EXPECT_EQ(trace.codeletOf(trace.tasks[0]), "conv_fwd");
    EXPECT_EQ(trace.footprintOf(trace.tasks[0]), 0xabcU);
    EXPECT_EQ(trace.codeletKeys.size(), 1U);
}

// What one file of a job adds to a builder (a rank's worker and main thread, its tasks with the
// file's job base, a codelet, a footprint, a dependency, markers, a transfer, warnings, a state
// left open): rank 1 meets its states in another order than rank 0, and a state rank 0 has not.
void addRank(TraceBuilder& b, std::uint64_t rank, std::size_t warnings) {
    const std::string prefix = std::to_string(rank) + "_";
    const auto cpu = b.addLane(prefix + "CPU 0", LaneKind::CpuWorker, 0, 0);
    const auto user = b.addLane(prefix + "main", LaneKind::MainThread, -1, -1);
    const auto executing = b.state(detail::kExecutingState, LaneKind::CpuWorker);
    const auto sleeping = b.state("Sleeping", LaneKind::CpuWorker);
    const auto other = b.state(rank == 0 ? "Scheduling" : "Fetching input", LaneKind::CpuWorker);
    const auto submitting = b.state("Submitting", LaneKind::MainThread);
    const std::uint64_t base = rank << 48;
    const TimeNs t0 = static_cast<TimeNs>(rank) * 5;
    b.setState(user, t0, submitting);
    b.trace().tasks.reserve(4);
    for (std::uint64_t job = 1; job <= 3; ++job) {
        const auto task = b.task(base + (rank == 0 ? job : 4 - job));   // rank 1 out of job order
        b.setCodelet(task, b.intern(rank == 0 ? "gemm" : (job == 2 ? "potrf" : "gemm")));
        b.setFootprint(task, static_cast<std::uint32_t>(job));
        b.taskAt(task).submit = t0 + static_cast<TimeNs>(job);
        const TimeNs at = t0 + static_cast<TimeNs>(job) * 100;
        b.setState(cpu, at, other);
        b.setState(cpu, at + 10, executing, task);
        b.setState(cpu, at + 60, sleeping);
    }
    b.addDependency(base + 2, base + 1);
    b.addDependency(base + 3, base + 2);
    b.addDependency(base + 3, base + 99);   // a job the trace does not hold
    b.addMarker(t0 + 50, user, "ss1:batch_begin epoch=0 batch=" + std::to_string(rank) + " arena=batch" + std::to_string(rank));
    b.addMarker(t0 + 60, user, "plain text of rank " + std::to_string(rank));
    Transfer x;
    x.rank = static_cast<std::int32_t>(rank);
    x.start = t0 + 70;
    x.end = t0 + 90;
    b.trace().transfers.push_back(x);
    b.pushState(user, t0 + 400, submitting);   // left open: closed at the trace's end
    for (std::size_t w = 0; w < warnings; ++w) {
        b.warn("rank " + std::to_string(rank) + " warning " + std::to_string(w));
    }
    b.setMetadata("source." + std::to_string(rank), "rank file");
    for (const auto lane : {cpu, user}) {
        b.trace().lanes[static_cast<std::size_t>(lane)].rank = static_cast<std::int32_t>(rank);
    }
}

// A job's files decoded each into a builder of its own, then absorbed in rank order, give the
// model of the files decoded one after another into one builder.
TEST(TraceBuilder, AbsorbingRanksGivesTheModelOfOneBuilder) {
    for (const std::size_t warnings : {std::size_t{2}, std::size_t{45}}) {   // 45 + 45: past the 50 kept
        TraceBuilder one;
        one.warn("a warning before the ranks");
        addRank(one, 0, warnings);
        addRank(one, 1, warnings);
        TraceBuilder merged;
        merged.warn("a warning before the ranks");
        TraceBuilder rank0;
        TraceBuilder rank1;
        addRank(rank0, 0, warnings);
        addRank(rank1, 1, warnings);
        merged.absorb(std::move(rank0));
        merged.absorb(std::move(rank1));
        const auto expected = one.finish(1000);
        const auto actual = merged.finish(1000);
        EXPECT_EQ(expected.states, actual.states);
        EXPECT_EQ(expected.lanes, actual.lanes);
        EXPECT_EQ(expected.tasks, actual.tasks);
        EXPECT_EQ(expected.dependencies, actual.dependencies);
        EXPECT_EQ(expected.outsideJobs, actual.outsideJobs);
        EXPECT_EQ(expected.markers, actual.markers);
        EXPECT_EQ(expected.warnings, actual.warnings);
        EXPECT_TRUE(expected == actual);
        EXPECT_EQ(actual.states.size(), 5U);   // Fetching input: rank 1's own, numbered after rank 0's
        EXPECT_EQ(actual.tasks.size(), 6U);
    }
}

} // namespace
} // namespace starscope::tracer
