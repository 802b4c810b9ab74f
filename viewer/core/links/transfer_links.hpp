#pragma once
// Data transfers between memory nodes as arrows on the chart: which transfers to draw in a view
// and between which rows. An arrow runs from the source node's row at the copy's start to the
// destination node's row at its end. A GPU run copies thousands of tiles: past
// LinkBundling::maxSingle transfers in view, those of one link (same rows) and kind starting in
// one slice of the chart are drawn as one arrow that carries their count and bytes
// (link_bundles.hpp, shared with the MPI messages), so the picture at fit-all keeps one arrow
// per link and kind per slice and zoomed in shows every copy.

#include "tracer/model/trace.hpp"
#include "viewer/core/layout/lane_layout.hpp"
#include "viewer/core/links/link_bundles.hpp"
#include "viewer/core/layout/time_view.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace starscope::viewer {

// An arrow of transfers: first indexes Trace::transfers, category is their TransferKind.
using TransferArrow = LinkArrow;

// The chart row of the memory node lane of (rank, node); -1 when no row shows it.
// laneRows: rowOfLanes(rows, trace).
std::int32_t memoryNodeRow(const tracer::Trace& trace, const std::vector<std::int32_t>& laneRows, std::int32_t rank,
                           std::int32_t node);

// The transfers in flight during the view with both nodes on a row, two different rows (a
// folded group of memory nodes is one row, and its transfers are not drawn): one arrow each, in
// transfer order, when at most options.maxSingle; otherwise one per link and kind per slice,
// in order of their first transfer (LinkBundler).
std::vector<TransferArrow> visibleTransfers(const tracer::Trace& trace, const std::vector<std::int32_t>& laneRows,
                                            const TimeView& view, const LinkBundling& options = {});

// The name of a memory node as the rows call it ("RAM", "CUDA 0 memory"): memoryNodeLabel of
// its lane, "node N" when it has none.
std::string memoryNodeName(const tracer::Trace& trace, std::int32_t rank, std::int32_t node);

// What a tooltip says of an arrow, one line each, times through scale:
//   "Fetch RAM -> CUDA 0 memory" / "3.69 MB in 1.90 ms: 1.94 GB/s" / "for job 42 (POTRF)";
// an aggregated arrow: "12 transfers (Prefetch) RAM -> CUDA 0 memory" / "12.00 MB from 1.2 ms
// to 3.4 ms" /
// "zoom in to see each".
std::vector<std::string> describeTransferArrow(const tracer::Trace& trace, const TransferArrow& arrow,
                                               const TimeScale& scale);

// Bytes per second of a transfer (0 when it took no time).
double transferBandwidth(std::uint64_t bytes, double seconds);

} // namespace starscope::viewer
