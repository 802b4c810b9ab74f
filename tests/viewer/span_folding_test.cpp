#include "viewer/core/drawing/span_folding.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using starscope::tracer::Span;
using starscope::tracer::TimeNs;
using namespace starscope::viewer;

namespace {

std::vector<DrawRun> fold(const std::vector<Span>& spans, const TimeView& view, double minPx = 2.0) {
    std::vector<DrawRun> runs;
    foldSpans(spans, view, minPx, runs);
    return runs;
}

// Back-to-back spans of the given length starting at 0.
std::vector<Span> uniform(std::size_t count, TimeNs length) {
    std::vector<Span> spans;
    spans.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        const auto start = static_cast<TimeNs>(i) * length;
        spans.push_back({start, start + length, static_cast<std::uint32_t>(i % 2)});
    }
    return spans;
}

// Runs cover visible spans [first, last) exactly once, in order.
void expectContiguous(const std::vector<DrawRun>& runs, std::size_t first, std::size_t last) {
    ASSERT_FALSE(runs.empty());
    EXPECT_EQ(runs.front().first, first);
    EXPECT_EQ(runs.back().last, last);
    for (std::size_t i = 1; i < runs.size(); ++i) {
        EXPECT_EQ(runs[i].first, runs[i - 1].last) << "run " << i;
        EXPECT_GE(runs[i].x0 + 1e-9, runs[i - 1].x0) << "run " << i;
    }
}

} // namespace

TEST(SpanFolding, WideSpansAreTheirOwnMarks) {
    const auto spans = uniform(10, 100);   // 1000 ns on 1000 px: each span 100 px
    const auto runs = fold(spans, TimeView{0.0, 1000.0, 0.0, 1000.0});
    ASSERT_EQ(runs.size(), 10u);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        EXPECT_FALSE(runs[i].folded);
        EXPECT_EQ(runs[i].first, i);
        EXPECT_EQ(runs[i].last, i + 1);
        EXPECT_NEAR(runs[i].x0, 100.0 * static_cast<double>(i), 1e-9);
        EXPECT_NEAR(runs[i].x1, 100.0 * static_cast<double>(i + 1), 1e-9);
    }
}

TEST(SpanFolding, OnlyVisibleSpansAreVisitedAndEdgesAreClipped) {
    const auto spans = uniform(100, 10);   // [0, 1000)
    // Window [255, 455) on 200 px starting at x = 50: 1 ns per pixel, 10 px spans.
    const auto runs = fold(spans, TimeView{255.0, 455.0, 50.0, 200.0});
    expectContiguous(runs, 25, 46);
    EXPECT_NEAR(runs.front().x0, 50.0, 1e-9);
    EXPECT_NEAR(runs.front().x1, 55.0, 1e-9);
    EXPECT_NEAR(runs.back().x1, 250.0, 1e-9);
    EXPECT_TRUE(fold(spans, TimeView{2000.0, 3000.0, 0.0, 100.0}).empty());
}

TEST(SpanFolding, NarrowSpansFoldIntoMarksAboutMinWidthWide) {
    const auto spans = uniform(1'000'000, 1);   // 1 M spans of 1 ns on 1000 px
    const auto runs = fold(spans, TimeView{0.0, 1e6, 0.0, 1000.0});
    expectContiguous(runs, 0, spans.size());
    // The mark count follows the pixels: about one mark per 2 px, whatever the span count.
    EXPECT_LE(runs.size(), 1000u);
    EXPECT_GE(runs.size(), 400u);
    for (const auto& run : runs) {
        EXPECT_TRUE(run.folded);
        EXPECT_LE(run.x1 - run.x0, 2.0 + 1e-9);
    }
}

TEST(SpanFolding, AWideSpanAfterNarrowOnesStaysSeparate) {
    std::vector<Span> spans;
    for (TimeNs t = 0; t < 50; ++t) {
        spans.push_back({t, t + 1, 0});   // 0.5 px each
    }
    spans.push_back({50, 150, 1});        // 50 px
    spans.push_back({150, 151, 0});
    const auto runs = fold(spans, TimeView{0.0, 200.0, 0.0, 100.0});
    expectContiguous(runs, 0, spans.size());
    const auto wide = std::find_if(runs.begin(), runs.end(), [](const DrawRun& r) { return r.first == 50; });
    ASSERT_NE(wide, runs.end());
    EXPECT_FALSE(wide->folded);
    EXPECT_EQ(wide->last, 51u);
    EXPECT_NEAR(wide->x0, 25.0, 1e-9);
    EXPECT_NEAR(wide->x1, 75.0, 1e-9);
    EXPECT_TRUE(runs.back().folded);
    EXPECT_EQ(runs.back().first, 51u);
}

TEST(SpanFolding, SpansWithGapsFoldOnlyWhenClose) {
    // Two 1 ns spans 100 px apart are two marks, not one mark bridging the gap.
    const std::vector<Span> spans{{0, 1, 0}, {100, 101, 0}};
    const auto runs = fold(spans, TimeView{0.0, 200.0, 0.0, 200.0});
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_NEAR(runs[0].x1, 1.0, 1e-9);
    EXPECT_NEAR(runs[1].x0, 100.0, 1e-9);
}

TEST(SpanFolding, ZoomingInUnfolds) {
    const auto spans = uniform(1000, 10);
    const auto far = fold(spans, TimeView{0.0, 10'000.0, 0.0, 100.0});
    const auto near = fold(spans, TimeView{0.0, 100.0, 0.0, 100.0});
    EXPECT_TRUE(far.front().folded);
    EXPECT_LT(far.size(), 100u);
    ASSERT_EQ(near.size(), 10u);
    EXPECT_FALSE(near.front().folded);
}

TEST(SpanFolding, SpanAtFindsTheSpanOrTheNearestWithinTolerance) {
    const std::vector<Span> spans{{10, 20, 0}, {30, 40, 1}, {40, 41, 0}};
    EXPECT_EQ(spanAt(spans, 15.0, 0.0), 0u);
    EXPECT_EQ(spanAt(spans, 10.0, 0.0), 0u);
    EXPECT_EQ(spanAt(spans, 40.5, 0.0), 2u);
    EXPECT_FALSE(spanAt(spans, 25.0, 2.0).has_value());
    EXPECT_EQ(spanAt(spans, 21.0, 2.0), 0u);
    EXPECT_EQ(spanAt(spans, 28.5, 2.0), 1u);
    EXPECT_EQ(spanAt(spans, 42.0, 1.0), 2u);
    EXPECT_FALSE(spanAt(spans, 5.0, 1.0).has_value());
    EXPECT_FALSE(spanAt({}, 5.0, 100.0).has_value());
}

TEST(SpanFolding, FirstEndingAfter) {
    const std::vector<Span> spans{{10, 20, 0, 0}, {30, 40, 1, 1}};
    EXPECT_EQ(firstEndingAfter(spans, 0.0), 0u);
    EXPECT_EQ(firstEndingAfter(spans, 20.0), 1u);
    EXPECT_EQ(firstEndingAfter(spans, 19.9), 0u);
    EXPECT_EQ(firstEndingAfter(spans, 40.0), 2u);
}

TEST(SpanFolding, TheLaneIndexKeepsMarksContiguousAndFewAndExactWhenZoomedIn) {
    // Irregular spans and gaps at several zoom levels: with the index, folds may stop at block
    // boundaries, but marks still cover every visible span once, in order, stay about the
    // fold width, and are exactly the plain marks once nothing folds across a block.
    std::vector<Span> spans;
    TimeNs t = 0;
    for (std::size_t i = 0; i < 20'000; ++i) {
        const TimeNs length = static_cast<TimeNs>((i * 7919) % 97 + (i % 500 == 0 ? 50'000 : 0));
        spans.push_back({t, t + length, static_cast<std::uint32_t>(i % 3)});
        t += length + static_cast<TimeNs>((i * 104729) % 13);
    }
    const LaneIndex index(spans, 3);
    const double total = static_cast<double>(t);
    for (const double window : {total, total / 7.0, total / 300.0, 500.0}) {
        for (const double start : {0.0, total / 3.0, total - window}) {
            const TimeView view{start, start + window, 5.0, 900.0};
            std::vector<DrawRun> plain;
            std::vector<DrawRun> indexed;
            foldSpans(spans, view, 2.0, plain);
            foldSpans(spans, view, 2.0, indexed, &index);
            ASSERT_FALSE(plain.empty());
            // Every span starting before the view's end is covered; a last fold may also
            // swallow invisible spans beyond it, differently with and without the index.
            const auto visibleEnd = static_cast<std::size_t>(
                std::partition_point(spans.begin(), spans.end(),
                                     [&](const Span& s) { return static_cast<double>(s.start) < view.endNs; })
                - spans.begin());
            expectContiguous(indexed, plain.front().first, indexed.back().last);
            EXPECT_GE(indexed.back().last, visibleEnd);
            EXPECT_LT(indexed.back().first, visibleEnd);
            EXPECT_LE(indexed.size(), 2 * plain.size() + 2) << "window " << window;
            for (const auto& run : indexed) {
                if (run.folded) {
                    EXPECT_LE(run.x1 - run.x0, 2.0 + 1e-6);
                }
            }
            if (window == 500.0) {
                EXPECT_EQ(plain, indexed) << "start " << start;
            }
        }
    }
}

// Through the lane's index, from any span on, the first span ending after a time is the one a
// bisection of the whole lane finds (when none before `from` ends after it): spans with gaps
// and of no length, times before, inside and after the lane, on block boundaries and not.
TEST(SpanFolding, IndexedSearchFromASpanFindsWhatABisectionFinds) {
    std::mt19937 random(3);
    for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{31}, std::size_t{32}, std::size_t{33},
                                    std::size_t{1000}}) {
        std::vector<Span> spans;
        TimeNs t = 5;
        for (std::size_t i = 0; i < count; ++i) {
            const auto length = static_cast<TimeNs>(random() % 4 == 0 ? 0 : random() % 100);
            spans.push_back({t, t + length, static_cast<std::uint32_t>(random() % 3)});
            t += length + static_cast<TimeNs>(random() % 3 == 0 ? random() % 50 : 0);
        }
        const LaneIndex index(spans, 3);
        for (int probe = 0; probe < 2000; ++probe) {
            const double time = static_cast<double>(random() % static_cast<std::uint32_t>(t + 20)) - 10.0
                                + (probe % 2 == 0 ? 0.0 : 0.5);
            const std::size_t expected = firstEndingAfter(spans, time);
            const std::size_t from = expected == 0 ? 0 : random() % (expected + 1);
            EXPECT_EQ(firstEndingAfter(spans, index, from, time), expected)
                << count << " spans, time " << time << ", from " << from;
        }
    }
}
