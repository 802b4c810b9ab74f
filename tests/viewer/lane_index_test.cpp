#include "viewer/core/drawing/lane_index.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using starscope::tracer::Span;
using starscope::tracer::TimeNs;
using starscope::viewer::LaneIndex;

TEST(LaneIndex, StateTimesMatchAScanForAnyRange) {
    constexpr std::size_t kStates = 5;
    std::mt19937 random(7);
    std::vector<Span> spans;
    TimeNs t = 0;
    for (int i = 0; i < 1000; ++i) {
        const TimeNs length = static_cast<TimeNs>(random() % 100);   // zero lengths included
        spans.push_back({t, t + length, static_cast<std::uint32_t>(random() % kStates)});
        t += length + static_cast<TimeNs>(random() % 3);
    }
    const LaneIndex index(spans, kStates);
    EXPECT_EQ(index.stateCount(), kStates);
    const std::vector<std::pair<std::size_t, std::size_t>> ranges{
        {0, 0}, {0, 1}, {0, 64}, {0, 1000}, {63, 65}, {64, 128}, {1, 999}, {100, 700}, {999, 1000}, {500, 563}};
    for (const auto& [first, last] : ranges) {
        std::vector<TimeNs> expected(kStates, 0);
        for (std::size_t i = first; i < last; ++i) {
            expected[spans[i].state] += spans[i].duration();
        }
        std::vector<TimeNs> actual(kStates, 0);
        index.addStateTimes(spans, first, last, actual.data());
        EXPECT_EQ(actual, expected) << first << ".." << last;
    }
}

TEST(LaneIndex, AddsToWhatIsAlreadyThere) {
    const std::vector<Span> spans{{0, 10, 0, 0}, {10, 30, 1, 1}};
    const LaneIndex index(spans, 2);
    std::vector<TimeNs> times{5, 5};
    index.addStateTimes(spans, 0, 2, times.data());
    EXPECT_EQ(times, (std::vector<TimeNs>{15, 25}));
}

TEST(LaneIndex, EmptyLane) {
    const std::vector<Span> spans;
    const LaneIndex index(spans, 3);
    std::vector<TimeNs> times(3, 0);
    index.addStateTimes(spans, 0, 0, times.data());
    EXPECT_EQ(times, (std::vector<TimeNs>{0, 0, 0}));
}

TEST(LaneIndex, PrefixesAtEveryBoundaryIncludingTheEnd) {
    constexpr std::size_t kStates = 3;
    for (const std::size_t count : {LaneIndex::kBlock, 2 * LaneIndex::kBlock, 2 * LaneIndex::kBlock + 5}) {
        std::vector<Span> spans;
        for (std::size_t i = 0; i < count; ++i) {
            const auto start = static_cast<TimeNs>(10 * i);
            spans.push_back({start, start + static_cast<TimeNs>(i % 7), static_cast<std::uint32_t>(i % kStates)});
        }
        const LaneIndex index(spans, kStates);
        std::vector<TimeNs> expected(kStates, 0);
        for (std::size_t k = 0; k <= count; ++k) {
            std::vector<TimeNs> prefix(kStates, -1);
            index.prefixAt(spans, k, prefix.data());
            EXPECT_EQ(prefix, expected) << count << " spans, k = " << k;
            std::vector<TimeNs> range(kStates, 0);
            index.addStateTimes(spans, 0, k, range.data());
            EXPECT_EQ(range, expected) << count << " spans, k = " << k;
            if (k < count) {
                expected[spans[k].state] += spans[k].duration();
            }
        }
    }
}

TEST(LaneIndex, KeepsColumnsOnlyForTheStatesTheLaneUses) {
    // Two of ten states, as a worker uses none of the main thread's: the others still read 0.
    constexpr std::size_t kStates = 10;
    std::vector<Span> spans;
    for (std::size_t i = 0; i < 3 * LaneIndex::kBlock + 7; ++i) {
        const auto start = static_cast<TimeNs>(5 * i);
        spans.push_back(Span{start, start + static_cast<TimeNs>(1 + i % 4), i % 3 == 0 ? 7u : 2u});
    }
    const LaneIndex index(spans, kStates);
    EXPECT_EQ(index.usedStates(), (std::vector<std::uint32_t>{2, 7}));
    EXPECT_EQ(index.stateCount(), kStates);
    std::vector<TimeNs> expected(kStates, 0);
    for (std::size_t k = 0; k <= spans.size(); ++k) {
        std::vector<TimeNs> prefix(kStates, -1);
        index.prefixAt(spans, k, prefix.data());
        EXPECT_EQ(prefix, expected) << "k = " << k;
        std::vector<TimeNs> range(kStates, 0);
        index.addStateTimes(spans, 0, k, range.data());
        EXPECT_EQ(range, expected) << "k = " << k;
        if (k < spans.size()) {
            expected[spans[k].state] += spans[k].duration();
        }
    }
    std::vector<TimeNs> middle(kStates, 0);
    index.addStateTimes(spans, 5, 2 * LaneIndex::kBlock + 3, middle.data());
    std::vector<TimeNs> scanned(kStates, 0);
    for (std::size_t i = 5; i < 2 * LaneIndex::kBlock + 3; ++i) {
        scanned[spans[i].state] += spans[i].duration();
    }
    EXPECT_EQ(middle, scanned);
}
