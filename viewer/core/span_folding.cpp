#include "viewer/core/span_folding.hpp"

#include <algorithm>
#include <cmath>

namespace starscope::viewer {

using tracer::Span;

namespace {

// Spans are sorted by start and non-overlapping, so their ends are sorted too.
std::size_t firstEndingAfterFrom(const std::vector<Span>& spans, std::size_t from, double timeNs) {
    const auto it = std::partition_point(spans.begin() + static_cast<std::ptrdiff_t>(from), spans.end(),
                                         [timeNs](const Span& s) { return static_cast<double>(s.end) <= timeNs; });
    return static_cast<std::size_t>(it - spans.begin());
}

} // namespace

std::size_t firstEndingAfter(const std::vector<Span>& spans, double timeNs) {
    return firstEndingAfterFrom(spans, 0, timeNs);
}

void foldSpans(const std::vector<Span>& spans, const TimeView& view, double minWidthPx,
               std::vector<DrawRun>& out) {
    const double left = view.leftPx;
    const double right = view.leftPx + view.widthPx;
    const double foldNs = minWidthPx * view.nsPerPixel();
    const auto clip = [left, right](double x) { return std::clamp(x, left, right); };
    std::size_t i = firstEndingAfter(spans, view.startNs);
    while (i < spans.size() && static_cast<double>(spans[i].start) < view.endNs) {
        const Span& span = spans[i];
        const double x0 = view.toPixel(static_cast<double>(span.start));
        const double x1 = view.toPixel(static_cast<double>(span.end));
        if (x1 - x0 >= minWidthPx) {
            out.push_back({clip(x0), clip(x1), i, i + 1, false});
            ++i;
            continue;
        }
        // Every following span that ends within foldNs of this one's start joins the fold; the
        // first one ending later starts the next mark, so each two marks advance >= minWidthPx.
        const double cellEnd = static_cast<double>(span.start) + foldNs;
        const std::size_t last = std::max(i + 1, firstEndingAfterFrom(spans, i + 1, cellEnd));
        const double foldEnd = view.toPixel(static_cast<double>(spans[last - 1].end));
        out.push_back({clip(x0), clip(foldEnd), i, last, true});
        i = last;
    }
}

std::optional<std::size_t> spanAt(const std::vector<Span>& spans, double timeNs, double toleranceNs) {
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
