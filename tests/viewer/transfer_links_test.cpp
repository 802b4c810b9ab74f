// Which data transfers the chart draws and between which rows: every transfer in a zoomed view,
// one arrow per link per slice of the chart when there are many, and what a tooltip says of
// an arrow (bytes, duration, bandwidth, nodes, the task that needed the data).

#include "viewer/core/links/transfer_links.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <tuple>

using namespace starscope::viewer;
using starscope::tracer::LaneKind;
using starscope::tracer::TimeNs;
using starscope::tracer::Trace;
using starscope::tracer::Transfer;
using starscope::tracer::TransferKind;

namespace {

starscope::tracer::Lane lane(std::string name, LaneKind kind, int node, int worker) {
    starscope::tracer::Lane l;
    l.name = std::move(name);
    l.kind = kind;
    l.memoryNode = node;
    l.workerId = worker;
    return l;
}

// RAM and two GPUs; `count` copies of 1 MB taking 100 us, every 10 us from 0, alternating
// RAM -> GPU 0 and RAM -> GPU 1; the first one for job 7 (a "gemm").
Trace machine(std::size_t count) {
    Trace trace;
    trace.lanes = {lane("CPU 0", LaneKind::CpuWorker, 0, 0), lane("CUDA 0", LaneKind::CudaWorker, 1, 1),
                   lane("CUDA 1", LaneKind::CudaWorker, 2, 2), lane("Memory node 0", LaneKind::MemoryNode, 0, -1),
                   lane("Memory node 1", LaneKind::MemoryNode, 1, -1), lane("Memory node 2", LaneKind::MemoryNode, 2, -1)};
    for (std::size_t i = 0; i < count; ++i) {
        Transfer x;
        x.fromNode = 0;
        x.toNode = 1 + static_cast<std::int32_t>(i % 2);
        x.kind = i % 3 == 0 ? TransferKind::Fetch : TransferKind::Prefetch;
        x.start = static_cast<TimeNs>(i) * 10'000;
        x.end = x.start + 100'000;
        x.size = 1'000'000;
        trace.transfers.push_back(x);
    }
    starscope::tracer::Task task;
    task.jobId = 7;
    trace.setCodelet(task, trace.names.intern("gemm"), 0);
    task.start = 200'000;
    task.end = 300'000;
    task.lane = 1;
    trace.tasks.push_back(task);
    if (!trace.transfers.empty()) {
        trace.transfers[0].job = 7;
    }
    trace.end = static_cast<TimeNs>(count) * 10'000 + 100'000;
    trace.indexTasks();
    return trace;
}

TimeView viewOf(double startNs, double endNs, double widthPx = 1000.0) { return {startNs, endNs, 0.0, widthPx}; }

std::size_t inView(const Trace& trace, const TimeView& view) {
    return static_cast<std::size_t>(std::count_if(trace.transfers.begin(), trace.transfers.end(), [&](const Transfer& x) {
        return static_cast<double>(x.end) >= view.startNs && static_cast<double>(x.start) <= view.endNs;
    }));
}

} // namespace

TEST(TransferLinks, EveryTransferInAZoomedViewIsAnArrowFromItsSourceRowToItsDestinationRow) {
    const Trace trace = machine(500);
    const auto rows = layoutRows(trace);
    const auto laneRows = rowOfLanes(rows, trace);
    const auto ram = memoryNodeRow(trace, laneRows, -1, 0);
    const auto gpu0 = memoryNodeRow(trace, laneRows, -1, 1);
    const auto gpu1 = memoryNodeRow(trace, laneRows, -1, 2);
    ASSERT_GE(ram, 0);
    EXPECT_EQ(rows[static_cast<std::size_t>(ram)].label, "RAM");
    EXPECT_EQ(rows[static_cast<std::size_t>(gpu1)].label, "CUDA 1 memory");

    const TimeView zoomed = viewOf(1'000'000, 1'200'000);
    const auto arrows = visibleTransfers(trace, laneRows, zoomed);
    ASSERT_EQ(arrows.size(), inView(trace, zoomed));
    ASSERT_LE(arrows.size(), LinkBundling{}.maxSingle);
    for (const auto& arrow : arrows) {
        const auto& x = trace.transfers[arrow.first];
        EXPECT_EQ(arrow.count, 1u);
        EXPECT_EQ(arrow.bytes, x.size);
        EXPECT_EQ(arrow.start, x.start);
        EXPECT_EQ(arrow.end, x.end);
        EXPECT_EQ(arrow.fromRow, ram);
        EXPECT_EQ(arrow.toRow, x.toNode == 1 ? gpu0 : gpu1);
    }
}

TEST(TransferLinks, AtFitAllALinksTransfersAreOneArrowPerSliceCarryingTheirCountAndBytes) {
    const Trace trace = machine(500);
    const auto laneRows = rowOfLanes(layoutRows(trace), trace);
    const TimeView all = viewOf(0, static_cast<double>(trace.end));
    const LinkBundling options;
    const auto arrows = visibleTransfers(trace, laneRows, all, options);
    // 500 transfers over 1000 px: two links, two kinds, slices of 64 px.
    EXPECT_LT(arrows.size(), trace.transfers.size());
    EXPECT_LE(arrows.size(), 2 * 2 * static_cast<std::size_t>(1000.0 / options.bucketPx + 1));
    std::size_t count = 0;
    std::uint64_t bytes = 0;
    std::set<std::tuple<double, double, TransferKind, double>> slices;
    for (const auto& arrow : arrows) {
        count += arrow.count;
        bytes += arrow.bytes;
        EXPECT_EQ(arrow.bytes, arrow.count * 1'000'000);
        EXPECT_TRUE(slices
                        .insert({arrow.fromRow, arrow.toRow, trace.transfers[arrow.first].kind,
                                 std::floor(all.toPixel(static_cast<double>(arrow.start)) / options.bucketPx)})
                        .second);
    }
    EXPECT_EQ(count, trace.transfers.size());
    EXPECT_EQ(bytes, 500u * 1'000'000u);
}

TEST(TransferLinks, ATransferWhoseNodeHasNoRowIsNotDrawn) {
    Trace trace = machine(4);
    trace.transfers[1].toNode = 5;   // no lane for node 5
    const auto laneRows = rowOfLanes(layoutRows(trace), trace);
    const auto arrows = visibleTransfers(trace, laneRows, viewOf(0, static_cast<double>(trace.end)));
    ASSERT_EQ(arrows.size(), 3u);
    for (const auto& arrow : arrows) {
        EXPECT_NE(arrow.first, 1u);
    }
}

// Memory nodes folded to their header: every transfer starts and ends on that one row, and none
// is drawn (a horizontal arrow along the header said nothing).
TEST(TransferLinks, TransfersWithinAFoldedGroupAreNotDrawn) {
    Trace trace = machine(4);
    const auto rows = chartRows(layoutRows(trace), {GroupId{-1, LaneGroup::MemoryNodes}});
    const auto laneRows = rowOfLanes(rows, trace);
    ASSERT_EQ(memoryNodeRow(trace, laneRows, -1, 0), memoryNodeRow(trace, laneRows, -1, 1));
    EXPECT_TRUE(visibleTransfers(trace, laneRows, viewOf(0, static_cast<double>(trace.end))).empty());
}

TEST(TransferLinks, TheTooltipGivesBytesDurationBandwidthNodesAndTheTask) {
    const Trace trace = machine(4);
    const auto laneRows = rowOfLanes(layoutRows(trace), trace);
    const auto arrows = visibleTransfers(trace, laneRows, viewOf(0, static_cast<double>(trace.end)));
    ASSERT_EQ(arrows.size(), 4u);
    // 1 MB in 100 us: 10 GB/s.
    EXPECT_EQ(describeTransferArrow(trace, arrows[0], TimeScale{}),
              (std::vector<std::string>{"Fetch RAM -> CUDA 0 memory", "1.00 MB in 100.0 us: 10.00 GB/s, from 0 ns",
                                        "for job 7 (gemm)"}));
    EXPECT_EQ(describeTransferArrow(trace, arrows[1], TimeScale{})[0], "Prefetch RAM -> CUDA 1 memory");
    EXPECT_EQ(describeTransferArrow(trace, arrows[1], TimeScale{})[2], "no task known to need it");
    // A trace in 0.1 ns ticks: the same copy takes a tenth of the time, ten times the bandwidth.
    EXPECT_EQ(describeTransferArrow(trace, arrows[0], TimeScale{0.1, 0})[1], "1.00 MB in 10.0 us: 100.00 GB/s, from 0 ns");

    const Trace busy = machine(500);
    const auto many = visibleTransfers(busy, rowOfLanes(layoutRows(busy), busy), viewOf(0, static_cast<double>(busy.end)));
    ASSERT_GT(many[0].count, 1u);
    const auto text = describeTransferArrow(busy, many[0], TimeScale{});
    EXPECT_EQ(text[0], std::to_string(many[0].count) + " transfers (Fetch) RAM -> CUDA 0 memory");
    EXPECT_EQ(text[2], "zoom in to see each");
}
