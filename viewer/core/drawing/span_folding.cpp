#include "viewer/core/drawing/span_folding.hpp"

#include "common/gallop.hpp"

#include <algorithm>
#include <cmath>
#include <span>

namespace starscope::viewer {

using tracer::Span;

namespace {

// Spans are sorted by start and non-overlapping, so their ends are sorted too.
std::size_t firstEndingAfterFrom(std::span<const Span> spans, std::size_t from, double timeNs) {
    const auto it = std::partition_point(spans.begin() + static_cast<std::ptrdiff_t>(from), spans.end(),
                                         [timeNs](const Span& s) { return static_cast<double>(s.end) <= timeNs; });
    return static_cast<std::size_t>(it - spans.begin());
}

// The first block, from the one holding span `from` on, whose last span ends after timeNs
// (blockEnds().size() when none does), from the index's compact block ends.
std::size_t firstBlockEndingAfter(const LaneIndex& index, std::size_t from, double timeNs) {
    const auto& ends = index.blockEnds();
    return gallopPast(ends.size(), from / LaneIndex::kBlock, timeNs, [&ends](std::size_t b) { return static_cast<double>(ends[b]); });
}

// The first span of that block, at `from` or after, ending after timeNs (the block's last does).
std::size_t firstInBlockEndingAfter(std::span<const Span> spans, std::size_t block, std::size_t from, double timeNs) {
    const std::size_t lo = std::max(from, block * LaneIndex::kBlock);
    const std::size_t hi = std::min(spans.size(), (block + 1) * LaneIndex::kBlock);
    const auto it = std::partition_point(spans.begin() + static_cast<std::ptrdiff_t>(lo),
                                         spans.begin() + static_cast<std::ptrdiff_t>(hi),
                                         [timeNs](const Span& s) { return static_cast<double>(s.end) <= timeNs; });
    return static_cast<std::size_t>(it - spans.begin());
}

// First index >= from whose span ends after timeNs.
std::size_t nextEndingAfter(std::span<const Span> spans, const LaneIndex* index, std::size_t from, double timeNs) {
    if (from >= spans.size()) {
        return spans.size();
    }
    if (index == nullptr) {
        return gallopPast(spans.size(), from, timeNs, [&spans](std::size_t i) { return static_cast<double>(spans[i].end); });
    }
    // The block holding the answer, from the compact block ends. When it starts after `from`,
    // stop at its first span: everything before ends in time, and the next mark picks up the
    // rest, so a fold over many blocks touches no span at all (and its colour comes straight
    // from the block prefix). Otherwise bisect inside the block.
    const std::size_t block = firstBlockEndingAfter(*index, from, timeNs);
    if (block * LaneIndex::kBlock > from) {
        return std::min(block * LaneIndex::kBlock, spans.size());
    }
    return firstInBlockEndingAfter(spans, block, from, timeNs);
}

} // namespace

std::size_t firstEndingAfter(std::span<const Span> spans, double timeNs) {
    return firstEndingAfterFrom(spans, 0, timeNs);
}

std::size_t firstEndingAfter(std::span<const Span> spans, const LaneIndex& index, std::size_t from, double timeNs) {
    if (from >= spans.size()) {
        return spans.size();
    }
    // Every block before the first whose last span ends after timeNs ends by then.
    const std::size_t block = firstBlockEndingAfter(index, from, timeNs);
    return block >= index.blockEnds().size() ? spans.size() : firstInBlockEndingAfter(spans, block, from, timeNs);
}

void foldSpans(std::span<const Span> spans, const TimeView& view, double minWidthPx,
               std::vector<DrawRun>& out, const LaneIndex* index) {
    const double left = view.leftPx;
    const double right = view.leftPx + view.widthPx;
    const double foldNs = minWidthPx * view.nsPerPixel();
    const auto clip = [left, right](double x) { return std::clamp(x, left, right); };
    // TimeView::toPixel without its division: this loop runs once per mark.
    const double scale = view.widthPx / view.durationNs();
    const auto toPixel = [&view, scale](tracer::TimeNs t) { return view.leftPx + (static_cast<double>(t) - view.startNs) * scale; };
    std::size_t i = firstEndingAfter(spans, view.startNs);
    while (i < spans.size() && static_cast<double>(spans[i].start) < view.endNs) {
        const Span& span = spans[i];
        const double x0 = toPixel(span.start);
        const double x1 = toPixel(span.end);
        if (x1 - x0 >= minWidthPx) {
            out.push_back({clip(x0), clip(x1), i, i + 1, false});
            ++i;
            continue;
        }
        // Every following span that ends within foldNs of this one's start joins the fold; the
        // first one ending later starts the next mark, so each two marks advance >= minWidthPx.
        const double cellEnd = static_cast<double>(span.start) + foldNs;
        const std::size_t last = std::max(i + 1, nextEndingAfter(spans, index, i + 1, cellEnd));
        const double foldEnd = toPixel(spans[last - 1].end);
        out.push_back({clip(x0), clip(foldEnd), i, last, true});
        i = last;
    }
}

std::optional<std::size_t> spanAt(std::span<const Span> spans, double timeNs, double toleranceNs) {
    const std::size_t i = firstEndingAfter(spans, timeNs);
    if (i < spans.size() && static_cast<double>(spans[i].start) <= timeNs) {
        return i;
    }
    // In a gap (or past either end): the nearer neighbour, if close enough.
    std::optional<std::size_t> best;
    double bestDistance = toleranceNs;
    if (i < spans.size()) {
        const double d = static_cast<double>(spans[i].start) - timeNs;
        if (d <= bestDistance) {
            best = i;
            bestDistance = d;
        }
    }
    if (i > 0) {
        const double d = timeNs - static_cast<double>(spans[i - 1].end);
        if (d <= bestDistance) {
            best = i - 1;
        }
    }
    return best;
}

} // namespace starscope::viewer
