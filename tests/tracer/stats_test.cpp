// State-class statistics on ranges, summary figures, StarPU's efficiencies, critical path.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace starscope::tracer {
namespace {

using namespace testing;

Trace sample() {
    return makeTrace({{"w0", LaneKind::CpuWorker,
                       {{"Executing", 0, 100}, {"Scheduling", 100, 150}, {"Sleeping", 150, 400}, {"Executing", 400, 500}}},
                      {"w1", LaneKind::CpuWorker, {{"Overhead", 0, 200}, {"Executing", 200, 450}}},
                      {"main", LaneKind::MainThread, {{"Submitting task", 0, 300}}}},
                     500);
}

TEST(Stats, RangeClipsSpansPerClass) {
    const auto trace = sample();
    const auto range = computeRangeStats(trace, 50, 420);
    ASSERT_EQ(range.lanes.size(), 3U);
    const auto& w0 = range.lanes[0].classes;
    EXPECT_EQ(w0.executing, 50 + 20);
    EXPECT_EQ(w0.overhead, 50);
    EXPECT_EQ(w0.sleeping, 250);
    EXPECT_EQ(w0.idle, 0);
    EXPECT_EQ(range.lanes[0].tasks, 1U);   // the task starting at 400; the one at 0 started before
    const auto& w1 = range.lanes[1].classes;
    EXPECT_EQ(w1.overhead, 150);
    EXPECT_EQ(w1.executing, 220);
    EXPECT_EQ(range.lanes[2].classes.user, 250);
    EXPECT_EQ(range.lanes[2].classes.idle, 120);
    EXPECT_EQ(range.workers.executing, 290);
    EXPECT_EQ(range.workers.total(), 2 * 370);
}

TEST(Stats, PerStateTimesOnTheWholeTrace) {
    const auto trace = sample();
    const auto stats = computeStats(trace);
    std::uint32_t scheduling = 0;
    for (std::uint32_t s = 0; s < trace.states.size(); ++s) {
        scheduling = trace.states[s].name == "Scheduling" ? s : scheduling;
    }
    EXPECT_EQ(stats.lanes[0].perState[scheduling], 50);
    EXPECT_EQ(stats.workers.executing, 200 + 250);
}

TEST(Stats, SummaryFiguresAndEfficiencies) {
    const auto trace = sample();
    const auto s = summarize(trace);
    EXPECT_EQ(s.tasks, 3U);
    EXPECT_EQ(s.workers, 2U);
    EXPECT_EQ(s.makespan, 500);
    EXPECT_EQ(s.areaBound, 225);
    EXPECT_DOUBLE_EQ(s.idleness, 1.0 - 450.0 / 1000.0);
    // starpu_trace_state_stats.py: tt=450 ts=50 tr=200 ti=250
    EXPECT_DOUBLE_EQ(s.efficiencies.scheduling, 450.0 / 500.0);
    EXPECT_DOUBLE_EQ(s.efficiencies.runtime, 500.0 / 700.0);
    EXPECT_DOUBLE_EQ(s.efficiencies.pipeline, 700.0 / 950.0);
    EXPECT_DOUBLE_EQ(s.efficiencies.task, 1.0);
    EXPECT_DOUBLE_EQ(s.efficiencies.parallel, (450.0 / 500.0) * (500.0 / 700.0) * (700.0 / 950.0));
}

TEST(Stats, CriticalPathFollowsDependencies) {
    auto trace = sample();
    // jobs 1 (w0, 100 ns), 2 (w0, 100), 3 (w1, 250)
    EXPECT_EQ(criticalPathLength(trace), 250);
    EXPECT_EQ(criticalPath(trace), (std::vector<TaskIndex>{2}));
    trace.setDependencies(1, {1});
    EXPECT_EQ(criticalPathLength(trace), 250);
    trace.setDependencies(2, {2});
    EXPECT_EQ(criticalPathLength(trace), 450);
    // The chain itself, first task first: job 1 -> job 2 -> job 3.
    EXPECT_EQ(criticalPath(trace), (std::vector<TaskIndex>{0, 1, 2}));
    trace.setDependencies(0, {3});   // a cycle from damaged input must not hang
    EXPECT_GE(criticalPathLength(trace), 450);
}

// On random task graphs without a cycle (dependencies on tasks before and after in the table,
// and on jobs the trace does not hold), the critical path is the longest chain a plain
// relaxation in dependency order finds, and criticalPath gives a chain of that length.
TEST(Stats, CriticalPathIsTheLongestChainOfRandomGraphs) {
    for (std::uint32_t seed = 1; seed <= 20; ++seed) {
        std::mt19937 random(seed);
        std::vector<LaneSpec> lanes;
        for (int l = 0; l < 4; ++l) {
            LaneSpec lane{"w" + std::to_string(l), LaneKind::CpuWorker, {}};
            TimeNs t = 0;
            for (int i = 0; i < 100; ++i) {
                const auto length = static_cast<TimeNs>(random() % 1000);
                lane.spans.push_back({"Executing", t, t + length});
                t += length;
            }
            lanes.push_back(std::move(lane));
        }
        auto trace = makeTrace(lanes, 1'000'000);
        trace.metadata[std::string(kDependenciesMetadata)] = "recorded";
        const std::size_t n = trace.tasks.size();
        // A task depends only on tasks earlier in a random order: no cycle.
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::shuffle(order.begin(), order.end(), random);
        std::vector<std::vector<std::size_t>> deps(n);
        for (std::size_t k = 1; k < n; ++k) {
            std::vector<std::uint64_t> jobs;
            for (int d = static_cast<int>(random() % 4); d > 0; --d) {
                const std::size_t dep = order[random() % k];
                deps[order[k]].push_back(dep);
                jobs.push_back(trace.tasks[dep].jobId);
            }
            if (random() % 5 == 0) {
                jobs.push_back(1'000'000 + random() % 10);   // a job outside the trace
            }
            std::sort(jobs.begin(), jobs.end());
            jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
            trace.setDependencies(static_cast<TaskIndex>(order[k]), jobs);
        }
        std::vector<TimeNs> best(n, 0);
        const auto own = [&](std::size_t i) { return static_cast<TimeNs>(trace.tasks[i].end) - trace.tasks[i].start; };
        for (const std::size_t i : order) {
            for (const std::size_t dep : deps[i]) {
                best[i] = std::max(best[i], best[dep]);
            }
            best[i] += own(i);
        }
        const TimeNs longest = *std::max_element(best.begin(), best.end());
        EXPECT_EQ(criticalPathLength(trace), longest) << "seed " << seed;
        const auto path = criticalPath(trace);
        ASSERT_FALSE(path.empty());
        TimeNs length = 0;
        for (std::size_t i = 0; i < path.size(); ++i) {
            length += own(path[i]);
            if (i > 0) {
                EXPECT_NE(std::find(deps[path[i]].begin(), deps[path[i]].end(), path[i - 1]), deps[path[i]].end())
                    << "seed " << seed << ": step " << i << " does not depend on the one before";
            }
        }
        EXPECT_EQ(length, longest) << "seed " << seed;
    }
}

// A damaged trace's cycles neither hang the walk nor break the chain it gives: each task of it
// depends on the one before, and their durations add up to the critical path's length.
TEST(Stats, CriticalPathOfAGraphWithCyclesIsAChainOfItsLength) {
    for (std::uint32_t seed = 1; seed <= 20; ++seed) {
        std::mt19937 random(seed);
        std::vector<LaneSpec> lanes{{"w0", LaneKind::CpuWorker, {}}};
        for (TimeNs t = 0; t < 60 * 100; t += 100) {
            lanes[0].spans.push_back({"Executing", t, t + 1 + static_cast<TimeNs>(random() % 99)});
        }
        auto trace = makeTrace(lanes, 1'000'000);
        trace.metadata[std::string(kDependenciesMetadata)] = "recorded";
        const std::size_t n = trace.tasks.size();
        std::vector<std::vector<std::size_t>> deps(n);
        for (std::size_t i = 0; i < n; ++i) {
            std::vector<std::uint64_t> jobs;
            for (int d = static_cast<int>(random() % 3); d > 0; --d) {
                deps[i].push_back(random() % n);   // any task: cycles, and tasks depending on themselves
                jobs.push_back(trace.tasks[deps[i].back()].jobId);
            }
            std::sort(jobs.begin(), jobs.end());
            jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
            trace.setDependencies(static_cast<TaskIndex>(i), jobs);
        }
        const auto path = criticalPath(trace);
        ASSERT_FALSE(path.empty()) << "seed " << seed;
        TimeNs length = 0;
        for (std::size_t i = 0; i < path.size(); ++i) {
            length += static_cast<TimeNs>(trace.tasks[path[i]].end) - trace.tasks[path[i]].start;
            if (i > 0) {
                EXPECT_NE(std::find(deps[path[i]].begin(), deps[path[i]].end(), path[i - 1]), deps[path[i]].end())
                    << "seed " << seed << ": step " << i;
            }
        }
        EXPECT_EQ(length, criticalPathLength(trace)) << "seed " << seed;
    }
}

// A 2-rank job: rank 0's two workers executed 300 and 100 ns, rank 1's one worker 500 ns. The
// job's bound averages them (900 / 3); rank 1's alone is longer.
TEST(Stats, AreaBoundPerRankBesideTheJobs) {
    auto trace = makeTrace({{"0_CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 300}}},
                            {"0_CPU 1", LaneKind::CpuWorker, {{"Executing", 0, 100}}},
                            {"1_CPU 0", LaneKind::CpuWorker, {{"Executing", 100, 600}}},
                            {"1_main", LaneKind::MainThread, {{"Submitting task", 0, 600}}}},
                           600);
    trace.ranks = {RankInfo{0, 2, "prof_file__0"}, RankInfo{1, 2, "prof_file__1"}};
    for (auto& lane : trace.lanes) {
        lane.rank = lane.name.starts_with("1_") ? 1 : 0;
    }
    const auto s = summarize(trace);
    EXPECT_EQ(s.areaBound, 300);
    EXPECT_EQ(s.rankAreaBounds, (std::vector<RankAreaBound>{{0, 2, 200}, {1, 1, 500}}));

    trace.ranks.clear();
    for (auto& lane : trace.lanes) {
        lane.rank = -1;
    }
    EXPECT_TRUE(summarize(trace).rankAreaBounds.empty());
}

TEST(Stats, GoldenTraceFromBothReadersGivesTheSameSummary) {
    const auto fxt = readTrace(smallProfFile());
    const auto paje = readTrace(smallPaje());
    ASSERT_TRUE(fxt && paje);
    auto a = summarize(*fxt);
    auto b = summarize(*paje);
    // The Paje trace has no task dependencies: only the critical path may differ, and it is
    // n/a there rather than a shorter number.
    ASSERT_TRUE(a.criticalPath.value.has_value()) << a.criticalPath.reason;
    EXPECT_FALSE(b.criticalPath.value.has_value());
    a.criticalPath = b.criticalPath = {};
    EXPECT_EQ(a, b);
}

TEST(Stats, CriticalPathNeedsRecordedDependencies) {
    const auto fxt = readTrace(smallProfFile());
    const auto paje = readTrace(smallPaje());
    ASSERT_TRUE(fxt && paje);
    EXPECT_TRUE(fxt->metadata.contains(std::string(kDependenciesMetadata)));
    EXPECT_EQ(summarize(*fxt).criticalPath, Figure<TimeNs>::known(criticalPathLength(*fxt)));
    EXPECT_EQ(summarize(*paje).criticalPath, Figure<TimeNs>::unavailable("no task dependencies in a Paje trace"));

    // An FxT trace whose tasks carry no dependency (recorded without task events) gives no
    // critical path either: the longest single task is not one.
    auto bare = *fxt;
    bare.metadata.erase(std::string(kDependenciesMetadata));
    bare.dependencies.clear();
    bare.outsideJobs.clear();
    bare.dependencyStarts.clear();
    const auto figure = summarize(bare).criticalPath;
    EXPECT_FALSE(figure.value.has_value());
    EXPECT_EQ(figure.reason, "no task dependencies in the FxT trace (recorded without task events?)");
}

TEST(Stats, TransitionFiguresNeedBatchMarkers) {
    auto trace = sample();
    auto s = summarize(trace);
    EXPECT_TRUE(s.transitions.empty());
    EXPECT_EQ(s.meanTransitionStall, Figure<TimeNs>::unavailable("no starscope markers in the trace"));
    EXPECT_EQ(transitionsUnavailable(trace, findTransitions(trace)), "no starscope markers in the trace");

    addMarker(trace, 10, markers::Kind::BatchBegin, 0, 0);
    s = summarize(trace);
    EXPECT_EQ(s.meanTransitionStall,
              Figure<TimeNs>::unavailable("no batch_end marker in the trace (no batch completed)"));

    addMarker(trace, 120, markers::Kind::BatchEnd, 0, 0);
    addMarker(trace, 380, markers::Kind::BatchBegin, 0, 1);
    s = summarize(trace);
    ASSERT_EQ(s.transitions.size(), 1U);
    EXPECT_TRUE(s.meanTransitionStall.value.has_value()) << s.meanTransitionStall.reason;
    EXPECT_EQ(transitionsUnavailable(trace, findTransitions(trace)), std::nullopt);
}

// `stats` and the viewer's comparison search the markers once and hand their transitions over.
TEST(Stats, SummaryFromTransitionsFoundAlreadyIsTheSame) {
    const auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace) << trace.error().describe();
    const auto transitions = findTransitions(*trace);
    ASSERT_FALSE(transitions.empty());
    EXPECT_EQ(summarize(*trace, BarrierOptions{}, computeStats(*trace), transitions), summarize(*trace));
}

} // namespace
} // namespace starscope::tracer
