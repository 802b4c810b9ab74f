// Which StarPU-MPI messages the chart draws as arrows, between which rows: every message in
// view once zoomed in, one arrow per pixel slot and pair of rows zoomed out, a collapsed
// rank's messages on its header row, none outside the view.

#include "tests/support/synthetic_trace.hpp"
#include "viewer/core/message_links.hpp"

#include <gtest/gtest.h>

using namespace starscope::viewer;
using starscope::tracer::LaneKind;

namespace {

struct Layout {
    std::vector<Row> rows;
    std::vector<std::int32_t> laneRows;
};

Layout layOut(const starscope::tracer::Trace& trace, const std::set<std::int32_t>& collapsed) {
    Layout out;
    out.rows = chartRows(layoutRows(trace), collapsed);
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

} // namespace

TEST(MessageLinks, EveryMessageInViewRunsBetweenTheRanksMpiThreadRows) {
    const auto trace = makeSyntheticRanksTrace(SyntheticOptions{}, 2);
    ASSERT_EQ(trace.messages.size(), 8u);   // 4 batches, one each way
    const Layout layout = layOut(trace, {});
    const TimeView all{0.0, static_cast<double>(trace.end), 0.0, 100'000.0};
    const auto arrows = visibleMessages(trace, layout.rows, layout.laneRows, all);
    ASSERT_EQ(arrows.size(), 8u);
    for (std::size_t i = 0; i < arrows.size(); ++i) {
        const auto& m = trace.messages[arrows[i].message];
        EXPECT_EQ(arrows[i].message, i);
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
    EXPECT_EQ(trace.messages[arrows[0].message].fromRank, 1);
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
        const auto& m = trace.messages[arrow.message];
        EXPECT_EQ(m.fromRank == 1 ? arrow.fromRow : arrow.toRow, static_cast<double>(header->first));
    }
}

TEST(MessageLinks, ZoomedOutArrowsOnTheSamePixelsAreDrawnOnce) {
    SyntheticOptions options;
    options.batchesPerEpoch = 200;
    const auto trace = makeSyntheticRanksTrace(options, 3);
    ASSERT_EQ(trace.messages.size(), 800u);
    const Layout layout = layOut(trace, {});
    // 40 pixels for 200 batches: 21 slots of 2 pixels per pair of rows (4 pairs), a message
    // ending in the next slot at most once per slot.
    const TimeView narrow{0.0, static_cast<double>(trace.end), 0.0, 40.0};
    const auto arrows = visibleMessages(trace, layout.rows, layout.laneRows, narrow);
    EXPECT_LE(arrows.size(), 4u * 2u * 21u);
    EXPECT_GE(arrows.size(), 4u);
    // A row without its rank shown: no arrow.
    Layout partial = layout;
    partial.rows.clear();
    partial.laneRows.assign(trace.lanes.size(), -1);
    EXPECT_TRUE(visibleMessages(trace, partial.rows, partial.laneRows, narrow).empty());
}
