// Barrier detection: gaps where no worker executes, thresholds, attribution to batch
// transitions and to the main thread's state.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/model/time_unit.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/report/duration_format.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace starscope::tracer {
namespace {

using namespace testing;
using markers::Kind;

// Two workers; executing [0,100) [100,300) on w0 and [50,120) [500,600) on w1 (us*1000).
Trace twoWorkers() {
    return makeTrace({{"w0", LaneKind::CpuWorker,
                       {{"Executing", 0, 100'000}, {"Executing", 100'000, 300'000}, {"Sleeping", 300'000, 700'000},
                        {"Executing", 700'000, 710'000}}},
                      {"w1", LaneKind::CpuWorker,
                       {{"Executing", 50'000, 120'000}, {"Scheduling", 120'000, 500'000}, {"Executing", 500'000, 600'000}}},
                      {"main", LaneKind::MainThread,
                       {{"Submitting task", 0, 250'000}, {"Waiting all tasks", 250'000, 480'000}}}},
                     1'000'000);
}

TEST(Barriers, GapsWhereNoWorkerExecutesLongerThanTheThreshold) {
    const auto trace = twoWorkers();
    const auto barriers = findBarriers(trace);
    ASSERT_EQ(barriers.size(), 1U);   // [600,700) is exactly 100 us: not longer than the threshold
    EXPECT_EQ(barriers[0].start, 300'000);
    EXPECT_EQ(barriers[0].end, 500'000);
    EXPECT_EQ(barriers[0].transition, -1);
    EXPECT_EQ(barriers[0].mainThreadState, "Waiting all tasks");   // 180 us of the 200
    BarrierOptions low;
    low.threshold = 50'000;
    const auto more = findBarriers(trace, low);
    ASSERT_EQ(more.size(), 2U);
    EXPECT_EQ(more[1].start, 600'000);
    EXPECT_EQ(more[1].end, 700'000);
    EXPECT_EQ(more[1].mainThreadState, "Application code");   // main thread outside StarPU
}

// Whatever the number of workers (a few are scanned, many go through a heap), the barriers are
// the gaps longer than the threshold in the union of their executing spans.
TEST(Barriers, AnyNumberOfWorkersGivesTheGapsOfTheirUnion) {
    for (const int workers : {1, 3, 8, 9, 40}) {
        std::mt19937 random(static_cast<std::uint32_t>(workers));
        std::uniform_int_distribution<TimeNs> length(1'000, 400'000);
        std::vector<LaneSpec> lanes;
        std::vector<std::pair<TimeNs, TimeNs>> executing;
        for (int w = 0; w < workers; ++w) {
            LaneSpec lane{"w" + std::to_string(w), LaneKind::CpuWorker, {}};
            TimeNs t = length(random);
            for (int i = 0; i < 60; ++i) {
                const TimeNs run = length(random);
                const TimeNs idle = length(random) * static_cast<TimeNs>(workers);
                lane.spans.push_back({"Executing", t, t + run});
                lane.spans.push_back({i % 2 == 0 ? "Sleeping" : "Scheduling", t + run, t + run + idle});
                executing.emplace_back(t, t + run);
                t += run + idle;
            }
            lanes.push_back(std::move(lane));
        }
        TimeNs end = 0;
        for (const auto& [from, to] : executing) {
            end = std::max(end, to);
        }
        const auto trace = makeTrace(lanes, end + 1);
        std::sort(executing.begin(), executing.end());
        std::vector<std::pair<TimeNs, TimeNs>> expected;
        TimeNs covered = executing.front().second;
        for (const auto& [from, to] : executing) {
            if (from - covered > 100'000) {
                expected.emplace_back(covered, from);
            }
            covered = std::max(covered, to);
        }
        std::vector<std::pair<TimeNs, TimeNs>> found;
        for (const auto& b : findBarriers(trace)) {
            found.emplace_back(b.start, b.end);
        }
        EXPECT_EQ(found, expected) << workers << " workers";
        EXPECT_FALSE(expected.empty()) << workers << " workers: the test needs barriers";
    }
}

// The barriers of the job and of each rank are the gaps longer than the threshold in the union
// of the scope's covering spans (executing, not profiled), between its first and its last: found
// here by sorting those spans and sweeping them, on random jobs with spans of no length, lanes
// that never execute, idle time between spans and other lanes' states.
std::vector<std::pair<TimeNs, TimeNs>> unionGaps(const Trace& trace, std::optional<std::int32_t> rank, TimeNs threshold) {
    std::vector<std::pair<TimeNs, TimeNs>> covering;
    for (const auto& lane : trace.lanes) {
        if (!lane.isWorker() || (rank && lane.rank != *rank)) {
            continue;
        }
        for (const auto& span : lane.spans()) {
            const auto cls = trace.states[span.state].cls;
            if (cls == StateClass::Executing || cls == StateClass::NotProfiled) {
                covering.emplace_back(span.start, span.end);
            }
        }
    }
    std::sort(covering.begin(), covering.end());
    std::vector<std::pair<TimeNs, TimeNs>> gaps;
    TimeNs covered = covering.empty() ? 0 : covering.front().second;
    for (const auto& [from, to] : covering) {
        if (from > covered && from - covered > threshold) {
            gaps.emplace_back(covered, from);
        }
        covered = std::max(covered, to);
    }
    return gaps;
}

TEST(Barriers, JobAndRankBarriersAreTheGapsOfEachScopesUnion) {
    const char* states[] = {"Executing", "Executing", "Sleeping", "Scheduling", "Not profiled", "Executing"};
    for (std::uint32_t seed = 1; seed <= 30; ++seed) {
        std::mt19937 random(seed);
        const int ranks = static_cast<int>(random() % 4);   // 0: a one-process trace
        std::vector<LaneSpec> lanes;
        std::vector<std::int32_t> rankOf;
        for (int r = 0; r < std::max(ranks, 1); ++r) {
            lanes.push_back({"main " + std::to_string(r), LaneKind::MainThread, {{"Submitting task", 0, 1'000}}});
            rankOf.push_back(ranks == 0 ? -1 : r);
            const int workers = 1 + static_cast<int>(random() % 12);
            for (int w = 0; w < workers; ++w) {
                LaneSpec lane{"w" + std::to_string(r) + "." + std::to_string(w), LaneKind::CpuWorker, {}};
                TimeNs t = static_cast<TimeNs>(random() % 300'000);
                // Some lanes never execute (only sleeping and scheduling).
                const bool idle = random() % 9 == 0;
                const int spans = static_cast<int>(random() % 200);
                for (int i = 0; i < spans; ++i) {
                    std::string state = states[random() % std::size(states)];
                    if (idle && state != "Sleeping") {
                        state = "Scheduling";
                    }
                    // Spans of no length, short ones and long ones; sometimes nothing between.
                    const int shape = static_cast<int>(random() % 10);
                    const TimeNs length = shape == 0 ? 0 : shape < 6 ? static_cast<TimeNs>(random() % 20'000)
                                                                       : static_cast<TimeNs>(random() % 400'000);
                    lane.spans.push_back({state, t, t + length});
                    t += length + (random() % 3 == 0 ? static_cast<TimeNs>(random() % 150'000) : 0);
                }
                lanes.push_back(std::move(lane));
                rankOf.push_back(ranks == 0 ? -1 : r);
            }
        }
        TimeNs end = 1'000;
        for (const auto& lane : lanes) {
            for (const auto& span : lane.spans) {
                end = std::max(end, span.end);
            }
        }
        auto trace = makeTrace(lanes, end + 1);
        for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
            trace.lanes[l].rank = rankOf[l];
        }
        for (int r = 0; r < ranks; ++r) {
            trace.ranks.push_back(RankInfo{r, ranks, "rank " + std::to_string(r), 1, 0, 0, 0, 0});
        }
        for (const TimeNs threshold : {TimeNs{0}, TimeNs{5'000}, TimeNs{100'000}}) {
            BarrierOptions options;
            options.threshold = threshold;
            std::vector<std::pair<TimeNs, TimeNs>> expected = unionGaps(trace, std::nullopt, threshold);
            const std::size_t job = expected.size();
            for (int r = 0; r < ranks; ++r) {
                const auto mine = unionGaps(trace, r, threshold);
                expected.insert(expected.end(), mine.begin(), mine.end());
            }
            std::vector<std::pair<TimeNs, TimeNs>> found;
            std::vector<std::int32_t> foundRanks;
            for (const auto& b : findJobAndRankBarriers(trace, options)) {
                found.emplace_back(b.start, b.end);
                foundRanks.push_back(b.rank);
            }
            EXPECT_EQ(found, expected) << "seed " << seed << ", threshold " << threshold;
            // The job's come first, then each rank's in rank order.
            EXPECT_TRUE(std::is_sorted(foundRanks.begin(), foundRanks.end())) << "seed " << seed;
            EXPECT_EQ(std::count(foundRanks.begin(), foundRanks.end(), -1), static_cast<std::ptrdiff_t>(job));
            // One scope alone gives the same intervals.
            for (int r = 0; r < ranks; ++r) {
                options.rank = r;
                std::vector<std::pair<TimeNs, TimeNs>> alone;
                for (const auto& b : findBarriers(trace, options)) {
                    alone.emplace_back(b.start, b.end);
                }
                EXPECT_EQ(alone, unionGaps(trace, r, threshold)) << "seed " << seed << ", rank " << r;
            }
        }
    }
}

TEST(Barriers, StartUpAndShutDownAreNotBarriers) {
    const auto trace = makeTrace({{"w0", LaneKind::CpuWorker, {{"Sleeping", 0, 5'000'000}, {"Executing", 5'000'000, 5'100'000}}}},
                                 20'000'000);
    EXPECT_TRUE(findBarriers(trace).empty());
    EXPECT_TRUE(findBarriers(makeTrace({{"w0", LaneKind::CpuWorker, {{"Sleeping", 0, 1'000'000}}}}, 1'000'000)).empty());
}

TEST(Barriers, AttributedToTheTransitionTheyOverlapMost) {
    auto trace = twoWorkers();
    addMarker(trace, 10'000, Kind::BatchBegin, 0, 0);
    addMarker(trace, 240'000, Kind::BatchEnd, 0, 0);
    addMarker(trace, 490'000, Kind::BatchBegin, 0, 1);
    addMarker(trace, 590'000, Kind::BatchEnd, 0, 1);
    addMarker(trace, 690'000, Kind::BatchBegin, 1, 0);
    addMarker(trace, 705'000, Kind::BatchEnd, 1, 0);
    const auto transitions = findTransitions(trace);
    ASSERT_EQ(transitions.size(), 3U);
    EXPECT_EQ(transitions[0].label, "epoch 0 batch 0->1");
    EXPECT_EQ(transitions[0].start, 240'000);
    EXPECT_EQ(transitions[0].end, 490'000);
    EXPECT_EQ(transitions[1].label, "epoch 0 batch 1->epoch 1 batch 0");
    EXPECT_EQ(transitions[2].label, "epoch 1 batch 0->end");
    EXPECT_EQ(transitions[2].end, trace.end);
    BarrierOptions low;
    low.threshold = 50'000;
    const auto barriers = findBarriers(trace, low);
    ASSERT_EQ(barriers.size(), 2U);
    EXPECT_EQ(barriers[0].transition, 0);
    EXPECT_EQ(barriers[0].transitionLabel, "epoch 0 batch 0->1");
    EXPECT_EQ(barriers[1].transition, 1);
}

// Of several reset waits, the first to begin among those overlapping a barrier names its arena:
// here one that began long before it (and still runs), not a shorter one inside it, nor one
// that ended before it.
TEST(Barriers, TheFirstOverlappingResetWaitNamesTheArena) {
    auto trace = twoWorkers();   // one barrier: [300, 500) us
    const auto wait = [&](TimeNs begin, TimeNs end, const char* arena) {
        trace.markers.push_back(trace.makeMarker(begin, markers::Marker{Kind::ResetWaitBegin, 0, 0, -1, 1, arena}));
        trace.markers.push_back(trace.makeMarker(end, markers::Marker{Kind::ResetWaitEnd, 0, 0, -1, 1, arena}));
    };
    // Waits of one rank do not overlap each other: these are three ranks' (markers in time order).
    wait(10'000, 290'000, "ended before");
    trace.markers.back().rank = 0;
    trace.markers[trace.markers.size() - 2].rank = 0;
    wait(20'000, 900'000, "long");
    trace.markers.back().rank = 1;
    trace.markers[trace.markers.size() - 2].rank = 1;
    wait(350'000, 360'000, "inside");
    trace.markers.back().rank = 2;
    trace.markers[trace.markers.size() - 2].rank = 2;
    std::stable_sort(trace.markers.begin(), trace.markers.end(),
                     [](const MarkerEvent& a, const MarkerEvent& b) { return a.time < b.time; });
    const auto barriers = findBarriers(trace);
    ASSERT_EQ(barriers.size(), 1U);
    EXPECT_EQ(barriers[0].cause, BarrierCause::ArenaReset);
    EXPECT_EQ(barriers[0].arena, "long");
}

// StarPU's "fxt flush" event inside a barrier names the trace's own writing as its cause, before
// the arena reset the main thread was in; one outside every barrier changes nothing.
TEST(Barriers, AFxtFlushInsideABarrierIsItsCause) {
    auto trace = twoWorkers();
    addMarker(trace, 310'000, Kind::ResetWaitBegin, 0, 0);
    addMarker(trace, 470'000, Kind::ResetWaitEnd, 0, 0);
    const auto flushAt = [&](TimeNs time) {
        auto flush = trace.makeMarker(time, "fxt flush");
        flush.lane = 2;
        trace.markers.push_back(flush);
        std::stable_sort(trace.markers.begin(), trace.markers.end(),
                         [](const MarkerEvent& a, const MarkerEvent& b) { return a.time < b.time; });
    };
    auto barriers = findBarriers(trace);
    ASSERT_EQ(barriers.size(), 1U);
    EXPECT_EQ(barriers[0].cause, BarrierCause::ArenaReset);
    flushAt(200'000);   // while w0 executed: no barrier there
    barriers = findBarriers(trace);
    ASSERT_EQ(barriers.size(), 1U);
    EXPECT_EQ(barriers[0].cause, BarrierCause::ArenaReset);
    flushAt(480'000);
    barriers = findBarriers(trace);
    ASSERT_EQ(barriers.size(), 1U);
    EXPECT_EQ(barriers[0].cause, BarrierCause::TraceFlush);
    EXPECT_EQ(causeName(barriers[0].cause), "trace flush");
    const auto summary = summarize(trace);
    EXPECT_EQ(summary.barrierTraceFlush, 200'000);
    EXPECT_EQ(summary.barrierTotal, 200'000);
}

// A copy between memory nodes ending inside a barrier is its cause, before the arena reset the
// main thread was in: the last one to end is named, with the task it was for.
TEST(Barriers, TheLastTransferToEndInsideABarrierIsItsCause) {
    auto trace = twoWorkers();   // one barrier: [300, 500) us
    addMarker(trace, 310'000, Kind::ResetWaitBegin, 0, 0);
    addMarker(trace, 470'000, Kind::ResetWaitEnd, 0, 0);
    trace.transfers = {Transfer{-1, 0, 1, TransferKind::Fetch, 100'000, 290'000, 4096, 0},   // ends before
                       Transfer{-1, 0, 1, TransferKind::Fetch, 250'000, 420'000, 4096, 7},
                       Transfer{-1, 1, 0, TransferKind::Prefetch, 260'000, 380'000, 8192, 0},
                       Transfer{-1, 0, 2, TransferKind::Fetch, 450'000, 520'000, 4096, 0}};   // ends after
    const auto barriers = findBarriers(trace);
    ASSERT_EQ(barriers.size(), 1U);
    EXPECT_EQ(barriers[0].cause, BarrierCause::DataTransfer);
    EXPECT_EQ(barriers[0].transfer, 1);
    EXPECT_EQ(describeCause(trace, barriers[0]), "data transfer (node 0 -> 1, 4096 B, 170.0 us, for job 7)");
}

TEST(Barriers, BarrierOutsideEveryTransitionHasNone) {
    auto trace = twoWorkers();
    addMarker(trace, 600'000, Kind::BatchEnd, 0, 0);
    addMarker(trace, 650'000, Kind::BatchBegin, 0, 1);
    const auto barriers = findBarriers(trace);
    ASSERT_EQ(barriers.size(), 1U);
    EXPECT_EQ(barriers[0].transition, -1);
    EXPECT_TRUE(barriers[0].transitionLabel.empty());
}

TEST(Barriers, GoldenTraceBarriersFallInBatchTransitionsWhileMainWaits) {
    const auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    const auto transitions = findTransitions(*trace);
    ASSERT_EQ(transitions.size(), 3U);
    EXPECT_EQ(transitions[0].label, "epoch 0 batch 0->1");
    EXPECT_EQ(transitions[1].label, "epoch 0 batch 1->2");
    const auto barriers = findBarriers(*trace);
    // The gate holds every worker idle for at least 1.5 ms at each of the two transitions
    // while the main thread is in starpu_task_wait_for_all.
    for (const int t : {0, 1}) {
        bool found = false;
        for (const auto& b : barriers) {
            if (b.transition == t && b.duration() >= 1'400'000) {
                found = true;
                EXPECT_EQ(b.mainThreadState, "Waiting all tasks");
            }
        }
        EXPECT_TRUE(found) << "no barrier at " << transitions[static_cast<std::size_t>(t)].label;
    }
}

} // namespace
} // namespace starscope::tracer

namespace starscope::tracer {
namespace {

// Rank 1's barrier from 200 us to 900 us is the last message into rank 1 from another rank to
// arrive during it: not one that arrived before or after, not rank 1's own, not one into
// rank 0; of two arriving at the same time, the later one in the trace.
TEST(BarrierMessages, TheLastMessageIntoTheRankArrivingDuringTheBarrierIsItsCause) {
    auto trace = makeTrace({{"0_CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 2'000'000}}},
                            {"1_CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 200'000}, {"Executing", 900'000, 2'000'000}}}},
                           2'000'000);
    trace.lanes[0].rank = 0;
    trace.lanes[1].rank = 1;
    trace.ranks = {RankInfo{0, 2, "a", 1, 0, 0, 0, 0}, RankInfo{1, 2, "b", 1, 0, 0, 0, 0}};
    const auto message = [&](std::int32_t from, std::int32_t to, TimeNs start, TimeNs end) {
        Message m;
        m.fromRank = from;
        m.toRank = to;
        m.start = start;
        m.end = end;
        m.tag = static_cast<std::int32_t>(trace.messages.size());
        trace.messages.push_back(m);
    };
    message(0, 1, 50'000, 150'000);    // 0: arrived before
    message(0, 1, 100'000, 700'000);   // 1: arrives during, tied with 2
    message(0, 1, 120'000, 700'000);   // 2: the same arrival, later in the trace: the cause
    message(0, 1, 150'000, 400'000);   // 3: arrives during, earlier
    message(1, 1, 160'000, 850'000);   // 4: rank 1's own
    message(1, 0, 170'000, 860'000);   // 5: into rank 0
    message(0, 1, 800'000, 950'000);   // 6: arrives after
    // Rank 1's one barrier.
    const auto rankOne = [&trace] {
        const auto barriers = findJobAndRankBarriers(trace);
        const auto it = std::find_if(barriers.begin(), barriers.end(), [](const Barrier& b) { return b.rank == 1; });
        EXPECT_NE(it, barriers.end());
        return it == barriers.end() ? Barrier{} : *it;
    };
    auto rank1 = std::make_optional(rankOne());
    EXPECT_EQ(rank1->start, 200'000);
    EXPECT_EQ(rank1->end, 900'000);
    EXPECT_EQ(rank1->cause, BarrierCause::DataFromRank);
    EXPECT_EQ(rank1->message, 2);
    EXPECT_EQ(rank1->fromRank, 0);

    // Without the tie, the next latest arrival; without any, no message.
    trace.messages.erase(trace.messages.begin() + 1, trace.messages.begin() + 3);
    rank1 = rankOne();
    EXPECT_EQ(trace.messages[static_cast<std::size_t>(rank1->message)].end, 400'000);
    trace.messages = {trace.messages.front(), trace.messages.back()};
    rank1 = rankOne();
    EXPECT_EQ(rank1->message, -1);
    EXPECT_NE(rank1->cause, BarrierCause::DataFromRank);
}

// Figures and thresholds follow the trace's unit: a 50 us gap in picoseconds is no barrier
// (threshold 100 us), a 200 us one is; durations print in the finer unit.
TEST(Barriers, FinerUnitReachesBarriersAndDurations) {
    constexpr TimeNs kPsPerUs = 1'000'000;
    Trace trace = makeTrace({{"CPU 0",
                              LaneKind::CpuWorker,
                              {{"Executing", 0, 10 * kPsPerUs},
                               {"Sleeping", 10 * kPsPerUs, 60 * kPsPerUs},
                               {"Executing", 60 * kPsPerUs, 70 * kPsPerUs},
                               {"Sleeping", 70 * kPsPerUs, 270 * kPsPerUs},
                               {"Executing", 270 * kPsPerUs, 280 * kPsPerUs}}}},
                            280 * kPsPerUs);
    trace.metadata[std::string(kTicksPerSecondMetadata)] = "1000000000000";
    ASSERT_EQ(ticksPerSecond(trace), 1'000'000'000'000);
    const auto barriers = findBarriers(trace, BarrierOptions{});
    ASSERT_EQ(barriers.size(), 1U);
    EXPECT_EQ(barriers[0].start, 70 * kPsPerUs);
    EXPECT_EQ(formatDuration(barriers[0].duration(), ticksPerSecond(trace)), "200.0 us");
    EXPECT_EQ(formatDuration(3, 10'000'000'000'000), "0.3 ps");
    EXPECT_EQ(formatDuration(1'500, 1'000'000'000'000), "1.500 ns");
    EXPECT_EQ(formatDuration(1'500, kNsPerSecond), "1.5 us");
    EXPECT_EQ(formatDuration(7, kNsPerSecond), "7 ns");
    std::ostringstream csv;
    writeBarriersCsv(barriers, csv, ticksPerSecond(trace));
    EXPECT_NE(csv.str().find("70000.000,270000.000,200000.000"), std::string::npos) << csv.str();
    // A malformed unit (a hand-edited native file) reads as nanoseconds.
    trace.metadata[std::string(kTicksPerSecondMetadata)] = "12345";
    EXPECT_EQ(ticksPerSecond(trace), kNsPerSecond);
}

// The viewer and `barriers` search the markers once and hand their transitions over: the same
// barriers, the job's and each rank's, as a search of their own.
TEST(Barriers, OfTheJobAndRanksFromTransitionsFoundAlreadyAreTheSame) {
    const auto trace = readTrace(goldenRun("ranks13"));
    ASSERT_TRUE(trace) << trace.error().describe();
    ASSERT_FALSE(trace->ranks.empty());
    const auto barriers = findJobAndRankBarriers(*trace);
    ASSERT_FALSE(barriers.empty());
    EXPECT_EQ(findJobAndRankBarriers(*trace, findTransitions(*trace), BarrierOptions{}), barriers);
}

} // namespace
} // namespace starscope::tracer
