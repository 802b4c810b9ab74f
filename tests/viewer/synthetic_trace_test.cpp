#include "tests/support/synthetic_job.hpp"
#include "tests/support/synthetic_trace.hpp"
#include "tests/support/test_support.hpp"
#include "tracer/native/native_format.hpp"

#include <gtest/gtest.h>

#include <sstream>

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

// Job ids of a rank used to be r * 1,000,000 + k: a rank past a million tasks took the next
// rank's ids, and a lookup by job found the wrong task.
TEST(SyntheticTrace, RanksKeepTheirJobIdsApartPastAMillionTasks) {
    SyntheticOptions options;
    options.cpuWorkers = 1;
    options.batchesPerEpoch = 1001;
    options.tasksPerWorker = 1000;
    options.taskNs = 1'000;
    options.overheadNs = 100;
    options.submitNs = 1'000;
    const auto trace = makeSyntheticRanksTrace(options, 2);
    ASSERT_EQ(trace.tasks.size(), 2'002'000u);
    for (std::size_t i = 1; i < trace.tasks.size(); ++i) {
        ASSERT_LT(trace.tasks[i - 1].jobId, trace.tasks[i].jobId) << "task " << i;
    }
    EXPECT_EQ(trace.tasks[1'001'000].jobId, std::uint64_t{1} << 48);
}

TEST(SyntheticTrace, DependenciesChainEachWorkersTasksAcrossRanks) {
    SyntheticOptions options;
    options.cpuWorkers = 2;
    options.batchesPerEpoch = 3;
    options.tasksPerWorker = 4;
    options.dependencies = true;
    const auto trace = makeSyntheticRanksTrace(options, 2);
    ASSERT_EQ(trace.tasks.size(), 48u);
    EXPECT_EQ(trace.metadata.at(std::string(starscope::tracer::kDependenciesMetadata)), "recorded");
    EXPECT_TRUE(trace.outsideJobs.empty());
    const auto perRank = trace.tasks.size() / 2;
    for (std::size_t i = 0; i < trace.tasks.size(); ++i) {
        const auto deps = trace.dependenciesOf(static_cast<starscope::tracer::TaskIndex>(i));
        const std::size_t inRank = i % perRank;
        std::vector<std::uint64_t> jobs(deps.begin(), deps.end());
        if (inRank < 8 && inRank % 4 == 0) {
            // A worker's first task of the first batch waits for nothing.
            EXPECT_TRUE(jobs.empty()) << "task " << i;
            continue;
        }
        ASSERT_EQ(jobs.size(), 1u) << "task " << i;
        const std::size_t waitedFor = inRank % 4 > 0 ? i - 1 : i - 8 + 3;
        EXPECT_EQ(jobs.front(), trace.tasks[waitedFor].jobId) << "task " << i;
        EXPECT_EQ(trace.tasks[waitedFor].lane, trace.tasks[i].lane) << "task " << i;
    }
}

// A task's jitter is drawn from where it is, not from a sequence shared by every lane: a worker
// added to the job leaves the others' lanes as they were.
TEST(SyntheticTrace, JitterOfATaskDependsOnWhereItIsOnly) {
    SyntheticOptions options{.cpuWorkers = 2, .jitter = 0.4};
    const auto two = makeSyntheticTrace(options);
    options.cpuWorkers = 3;
    const auto three = makeSyntheticTrace(options);
    EXPECT_EQ(two.lanes[0].spans(), three.lanes[0].spans());
    EXPECT_EQ(two.lanes[1].spans(), three.lanes[1].spans());
    EXPECT_NE(two.lanes[0].spans(), two.lanes[1].spans());
}

// The job streamed into a file a few records at a time is the file of the trace collected
// whole: the same bytes, read back as the same trace (job ids, dependencies, markers and
// messages merged across ranks in the order the collected trace has them).
TEST(SyntheticTrace, StreamedJobIsTheFileOfTheWholeTrace) {
    const SyntheticOptions options{.cpuWorkers = 3,
                                   .epochs = 2,
                                   .batchesPerEpoch = 5,
                                   .tasksPerWorker = 3,
                                   .barrierNs = 1'000'000,
                                   .jitter = 0.3,
                                   .dependencies = true};
    for (const int ranks : {0, 1, 2, 4}) {
        const SyntheticJob job(options, ranks);
        const auto stream = job.stream();
        const starscope::testing::TempDir dir;
        const auto file = dir / "job.sstrace";
        const auto written = starscope::tracer::writeNativeFile(stream, file);
        ASSERT_TRUE(written) << written.error().describe();
        const auto whole = ranks == 0 ? makeSyntheticTrace(options) : makeSyntheticRanksTrace(options, ranks);
        EXPECT_EQ(stream.spanCount(), whole.spanCount());
        std::ostringstream bytes;
        starscope::tracer::writeNative(whole, bytes);
        EXPECT_TRUE(starscope::testing::readFile(file) == bytes.str()) << ranks << " ranks";
        auto back = starscope::tracer::readNative(file);
        ASSERT_TRUE(back) << back.error().describe();
        back->metadata.erase("format");
        EXPECT_EQ(*back, whole) << ranks << " ranks";
        expectWellFormed(whole);
        EXPECT_EQ(whole.messages.size(), ranks > 1 ? 2u * static_cast<std::size_t>(ranks - 1) * 10u : 0u);
        EXPECT_TRUE(std::is_sorted(whole.markers.begin(), whole.markers.end(),
                                   [](const auto& a, const auto& b) { return a.time < b.time; }));
        EXPECT_TRUE(std::is_sorted(whole.messages.begin(), whole.messages.end(),
                                   [](const auto& a, const auto& b) { return a.start < b.start; }));
    }
}
