#include "viewer/core/layout/time_view.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace starscope::viewer {

TimeView TimeView::zoomedAround(double px, double factor) const {
    assert(factor > 0.0);
    const double anchor = toTime(px);
    TimeView out = *this;
    out.startNs = anchor - (anchor - startNs) / factor;
    out.endNs = anchor + (endNs - anchor) / factor;
    return out;
}

TimeView TimeView::pannedBy(double deltaPx) const {
    const double shift = deltaPx * nsPerPixel();
    TimeView out = *this;
    out.startNs += shift;
    out.endNs += shift;
    return out;
}

TimeView TimeView::showing(double fromNs, double toNs, double minSpanNs) const {
    TimeView out = *this;
    out.startNs = std::min(fromNs, toNs);
    out.endNs = std::max(fromNs, toNs);
    if (out.durationNs() < minSpanNs) {
        const double mid = 0.5 * (out.startNs + out.endNs);
        out.startNs = mid - 0.5 * minSpanNs;
        out.endNs = mid + 0.5 * minSpanNs;
    }
    return out;
}

TimeView TimeView::clampedTo(double minNs, double maxNs, double minSpanNs, double marginNs) const {
    const double lo = minNs - marginNs;
    const double hi = std::max(maxNs, minNs + minSpanNs) + marginNs;
    TimeView out = *this;
    double span = std::max(out.durationNs(), minSpanNs);
    if (span >= hi - lo) {
        out.startNs = lo;
        out.endNs = hi;
        return out;
    }
    if (out.durationNs() < minSpanNs) {
        const double mid = 0.5 * (out.startNs + out.endNs);
        out.startNs = mid - 0.5 * span;
    }
    out.startNs = std::clamp(out.startNs, lo, hi - span);
    out.endNs = out.startNs + span;
    return out;
}

double wheelZoomFactor(double angleDelta) {
    return std::pow(kWheelStep, angleDelta / 120.0);
}

} // namespace starscope::viewer
