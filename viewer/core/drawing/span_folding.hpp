#pragma once
// The first drawing pass of a Gantt row: find the visible spans with binary searches and fold
// every run of spans narrower than a few pixels into one mark, so the number of marks (and the
// cost of a frame) follows the row's width in pixels, not the number of spans.

#include "tracer/model/trace.hpp"
#include "viewer/core/drawing/lane_index.hpp"
#include "viewer/core/layout/time_view.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace starscope::viewer {

// One mark to paint: a single span (folded == false) or spans [first, last) folded together.
struct DrawRun {
    double x0 = 0.0;   // pixels, clipped to the view
    double x1 = 0.0;
    std::size_t first = 0;
    std::size_t last = 0;
    bool folded = false;

    bool operator==(const DrawRun&) const = default;
};

inline constexpr double kDefaultFoldPx = 2.0;

// Index of the first span ending after timeNs (spans sorted and non-overlapping).
std::size_t firstEndingAfter(std::span<const tracer::Span> spans, double timeNs);
// The same answer among the spans from `from` on (none before it may end after timeNs), found
// through the lane's index (built on the same spans): outward from `from` over its block ends,
// which stay in cache, then within one block. Cheap when the answer lies near `from`, as it
// does for each column of a profile after the one before: a bisection of the whole lane per
// column missed the cache at every step (the first frame of a 10 M-span job of 4 ranks spent
// 12 % of its time there, drawing the rank and kind header rows).
std::size_t firstEndingAfter(std::span<const tracer::Span> spans, const LaneIndex& index, std::size_t from,
                             double timeNs);

// Appends the marks of the spans visible in view to out. A span at least minWidthPx wide is
// its own mark; a narrower one starts a fold that takes every following span ending within
// minWidthPx of its start. Costs O(marks * log(spans)). With the lane's index (built on the
// same spans) searches go through its block ends, which stay in cache, and a fold reaching
// past a block boundary stops at that boundary (the next mark continues from there), so at
// full zoom-out a mark costs about two memory accesses.
void foldSpans(std::span<const tracer::Span> spans, const TimeView& view, double minWidthPx,
               std::vector<DrawRun>& out, const LaneIndex* index = nullptr);

// The span under timeNs, or the nearest one within toleranceNs; nullopt when none.
std::optional<std::size_t> spanAt(std::span<const tracer::Span> spans, double timeNs,
                                  double toleranceNs);

} // namespace starscope::viewer
