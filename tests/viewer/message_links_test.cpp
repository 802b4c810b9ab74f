// Which StarPU-MPI messages the chart draws as arrows, between which rows: every message in
// view once zoomed in, one arrow per pair of rows and slice of the chart carrying their count
// and bytes when there are many, a collapsed rank's messages on its header row, none outside
// the view; and what a tooltip says of an arrow.

#include "tests/support/synthetic_trace.hpp"
#include "tracer/analysis/machine.hpp"
#include "viewer/core/links/message_links.hpp"
#include "viewer/core/format/time_format.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

using namespace starscope::viewer;
using starscope::tracer::LaneKind;
using starscope::tracer::Message;
using starscope::tracer::Trace;

namespace {

struct Layout {
    std::vector<Row> rows;
    std::vector<std::int32_t> laneRows;
};

Layout layOut(const starscope::tracer::Trace& trace, const std::set<std::int32_t>& collapsed) {
    Layout out;
    std::set<GroupId> folded;
    for (const std::int32_t rank : collapsed) {
        folded.insert({rank, LaneGroup::Rank});
    }
    out.rows = chartRows(layoutRows(trace), folded);
    out.laneRows = rowOfLanes(out.rows, trace);
    return out;
}

std::int32_t mpiRow(const starscope::tracer::Trace& trace, const Layout& layout, std::int32_t rank) {
    for (std::size_t lane = 0; lane < trace.lanes.size(); ++lane) {
        if (trace.lanes[lane].kind == LaneKind::MpiThread && trace.lanes[lane].rank == rank) {
            return layout.laneRows[lane];
        }
    }
    return -2;
}

std::size_t inView(const Trace& trace, const TimeView& view) {
    return static_cast<std::size_t>(std::count_if(trace.messages.begin(), trace.messages.end(), [&](const Message& m) {
        return static_cast<double>(m.end) >= view.startNs && static_cast<double>(m.start) <= view.endNs;
    }));
}

// 3 ranks exchanging 800 messages over 200 batches.
Trace busyRanks() {
    SyntheticOptions options;
    options.batchesPerEpoch = 200;
    return makeSyntheticRanksTrace(options, 3);
}

} // namespace

TEST(MessageLinks, EveryMessageInViewRunsBetweenTheRanksMpiThreadRows) {
    const auto trace = makeSyntheticRanksTrace(SyntheticOptions{}, 2);
    ASSERT_EQ(trace.messages.size(), 8u);   // 4 batches, one each way
    const Layout layout = layOut(trace, {});
    const TimeView all{0.0, static_cast<double>(trace.end), 0.0, 100'000.0};
    const auto arrows = visibleMessages(trace, layout.rows, layout.laneRows, all);
    ASSERT_EQ(arrows.size(), 8u);
    for (std::size_t i = 0; i < arrows.size(); ++i) {
        const auto& m = trace.messages[arrows[i].first];
        EXPECT_EQ(arrows[i].first, i);
        EXPECT_EQ(arrows[i].count, 1u);
        EXPECT_EQ(arrows[i].bytes, m.size);
        EXPECT_EQ(arrows[i].start, m.start);
        EXPECT_EQ(arrows[i].end, m.end);
        EXPECT_EQ(arrows[i].fromRow, mpiRow(trace, layout, m.fromRank));
        EXPECT_EQ(arrows[i].toRow, mpiRow(trace, layout, m.toRank));
    }
    EXPECT_NE(arrows[0].fromRow, arrows[0].toRow);
}

TEST(MessageLinks, OnlyMessagesInFlightDuringTheViewAreDrawn) {
    const auto trace = makeSyntheticRanksTrace(SyntheticOptions{}, 2);
    const Layout layout = layOut(trace, {});
    // Batch 0: rank 1's update 560-600 us, rank 0's reply 620-660 us.
    const TimeView before{0.0, 500'000.0, 0.0, 1000.0};
    EXPECT_TRUE(visibleMessages(trace, layout.rows, layout.laneRows, before).empty());
    const TimeView first{590'000.0, 610'000.0, 0.0, 1000.0};
    const auto arrows = visibleMessages(trace, layout.rows, layout.laneRows, first);
    ASSERT_EQ(arrows.size(), 1u);
    EXPECT_EQ(trace.messages[arrows[0].first].fromRank, 1);
}

TEST(MessageLinks, ACollapsedRanksMessagesStartAndEndOnItsHeader) {
    const auto trace = makeSyntheticRanksTrace(SyntheticOptions{}, 2);
    const Layout layout = layOut(trace, {1});
    const auto header = rowsOfRank(layout.rows, 1);
    ASSERT_TRUE(header);
    const TimeView all{0.0, static_cast<double>(trace.end), 0.0, 100'000.0};
    const auto arrows = visibleMessages(trace, layout.rows, layout.laneRows, all);
    ASSERT_EQ(arrows.size(), 8u);
    for (const auto& arrow : arrows) {
        const auto& m = trace.messages[arrow.first];
        EXPECT_EQ(m.fromRank == 1 ? arrow.fromRow : arrow.toRow, static_cast<double>(header->first));
    }
}

// At fit-all a busy job's messages are one arrow per pair of rows and slice of the chart,
// carrying their count and bytes: the arrows' counts add up to the messages in view.
TEST(MessageLinks, AtFitAllThePairOfRowsMessagesAreOneArrowPerSliceCarryingTheirCountAndBytes) {
    const Trace trace = busyRanks();
    ASSERT_EQ(trace.messages.size(), 800u);
    const Layout layout = layOut(trace, {});
    const LinkBundling bundling;
    const TimeView all{0.0, static_cast<double>(trace.end), 0.0, 1600.0};
    const auto arrows = visibleMessages(trace, layout.rows, layout.laneRows, all, bundling);
    // 4 pairs of MPI rows (0 <-> 1, 0 <-> 2), 25 slices of 64 px.
    EXPECT_LE(arrows.size(), 4u * static_cast<std::size_t>(std::ceil(1600.0 / bundling.bucketPx)));
    EXPECT_LT(arrows.size(), trace.messages.size() / 4);
    std::size_t count = 0;
    std::uint64_t bytes = 0;
    std::set<std::tuple<double, double, double>> slices;
    for (const auto& arrow : arrows) {
        EXPECT_GT(arrow.count, 1u);
        count += arrow.count;
        bytes += arrow.bytes;
        EXPECT_LE(arrow.start, arrow.end);
        EXPECT_TRUE(slices.insert({arrow.fromRow, arrow.toRow, std::floor(all.toPixel(static_cast<double>(arrow.start)) / bundling.bucketPx)})
                        .second)
            << "two arrows for one pair of rows and slice";
        const auto& first = trace.messages[arrow.first];
        EXPECT_EQ(arrow.fromRow, mpiRow(trace, layout, first.fromRank));
        EXPECT_EQ(arrow.toRow, mpiRow(trace, layout, first.toRank));
    }
    EXPECT_EQ(count, inView(trace, all));
    std::uint64_t allBytes = 0;
    for (const auto& m : trace.messages) {
        allBytes += m.size;
    }
    EXPECT_EQ(bytes, allBytes);

    // Half the job in view: the arrows stand for exactly the messages in flight in it.
    const TimeView half{0.0, static_cast<double>(trace.end) / 2.0, 0.0, 1600.0};
    count = 0;
    for (const auto& arrow : visibleMessages(trace, layout.rows, layout.laneRows, half, bundling)) {
        count += arrow.count;
    }
    EXPECT_EQ(count, inView(trace, half));
    EXPECT_LT(count, trace.messages.size());
}

TEST(MessageLinks, ZoomedInEachMessageIsItsOwnArrow) {
    const Trace trace = busyRanks();
    const Layout layout = layOut(trace, {});
    // Ten batches of the 200: 40 messages at most.
    const auto& first = trace.messages[trace.messages.size() / 2];
    const TimeView zoomed{static_cast<double>(first.start), static_cast<double>(first.start) + static_cast<double>(trace.end) / 20.0,
                          0.0, 1600.0};
    const auto arrows = visibleMessages(trace, layout.rows, layout.laneRows, zoomed);
    ASSERT_GT(arrows.size(), 4u);
    ASSERT_LE(inView(trace, zoomed), LinkBundling{}.maxSingle);
    EXPECT_EQ(arrows.size(), inView(trace, zoomed));
    for (std::size_t i = 0; i < arrows.size(); ++i) {
        EXPECT_EQ(arrows[i].count, 1u);
        EXPECT_EQ(arrows[i].start, trace.messages[arrows[i].first].start);
        if (i > 0) {
            EXPECT_GT(arrows[i].first, arrows[i - 1].first) << "in message order";
        }
    }
    // A row without its rank shown: no arrow.
    Layout partial = layout;
    partial.rows.clear();
    partial.laneRows.assign(trace.lanes.size(), -1);
    EXPECT_TRUE(visibleMessages(trace, partial.rows, partial.laneRows, zoomed).empty());
}

TEST(MessageLinks, TheTooltipGivesRanksSizeTagAndTimesOrABundlesCountBytesAndSpan) {
    const Trace trace = busyRanks();
    const Layout layout = layOut(trace, {});
    const TimeView batch0{590'000.0, 610'000.0, 0.0, 1000.0};
    const auto one = visibleMessages(trace, layout.rows, layout.laneRows, batch0);
    ASSERT_EQ(one.size(), 1u);
    const auto& m = trace.messages[one[0].first];
    ASSERT_EQ(m.size, 4096u);
    // Batch 0: rank 1's update 560-600 us.
    EXPECT_EQ(describeMessageArrow(trace, one[0], TimeScale{}),
              (std::vector<std::string>{"message rank 1 -> rank 0", "4,096 B, tag " + std::to_string(m.tag),
                                        "sent at 560.0 us, received 40.0 us later"}));

    const TimeView all{0.0, static_cast<double>(trace.end), 0.0, 1600.0};
    const auto bundles = visibleMessages(trace, layout.rows, layout.laneRows, all);
    ASSERT_GT(bundles[0].count, 1u);
    const auto text = describeMessageArrow(trace, bundles[0], TimeScale{});
    ASSERT_EQ(text.size(), 3u);
    const auto& first = trace.messages[bundles[0].first];
    EXPECT_EQ(text[0], std::to_string(bundles[0].count) + " messages rank " + std::to_string(first.fromRank) + " -> rank "
                           + std::to_string(first.toRank));
    EXPECT_EQ(text[1], starscope::tracer::formatBytes(static_cast<double>(bundles[0].bytes)) + " from "
                           + formatDuration(static_cast<double>(bundles[0].start)) + " to "
                           + formatDuration(static_cast<double>(bundles[0].end)));
    EXPECT_EQ(text[2], "zoom in to see each");
}

TEST(MessageLinks, TheReachSkipsOnlyMessagesThatEndBeforeTheView) {
    auto trace = makeSyntheticRanksTrace(SyntheticOptions{}, 2);
    ASSERT_GE(trace.messages.size(), 4u);
    // The first message stays in flight to the end: every view must still find it.
    trace.messages[0].end = trace.end;
    const Layout layout = layOut(trace, {});
    const MessageReach reach(trace);
    EXPECT_EQ(reach.firstReaching(0.0), 0u);
    EXPECT_EQ(reach.firstReaching(static_cast<double>(trace.end) + 1.0), trace.messages.size());
    const double length = static_cast<double>(trace.end);
    const auto sent = static_cast<double>(trace.messages[0].start);
    for (int from = 0; from < 20; ++from) {
        const double step = (length - sent) / 20.0;
        const TimeView view{sent + step * from, sent + step * (from + 1), 0.0, 1000.0};
        const auto looked = visibleMessages(trace, layout.rows, layout.laneRows, view, {}, &reach);
        EXPECT_EQ(looked, visibleMessages(trace, layout.rows, layout.laneRows, view)) << "view " << from;
        ASSERT_FALSE(looked.empty());
        EXPECT_EQ(looked.front().first, 0u) << "view " << from;
    }
    // Once the long message ends sooner, a late view does not start its look at it.
    trace.messages[0].end = trace.messages[0].start + 1;
    EXPECT_GT(MessageReach(trace).firstReaching(length / 2.0), 0u);
}
