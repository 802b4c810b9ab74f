#pragma once
// Time <-> pixel mapping and the zoom/pan math of the Gantt view. Plain values, no Qt, so the
// arithmetic is unit-tested on its own and the widgets only forward mouse and key events.

namespace starscope::viewer {

// The visible time window [startNs, endNs] mapped onto [leftPx, leftPx + widthPx].
struct TimeView {
    double startNs = 0.0;
    double endNs = 1.0;
    double leftPx = 0.0;
    double widthPx = 1.0;

    double durationNs() const { return endNs - startNs; }
    double nsPerPixel() const { return durationNs() / widthPx; }
    double toPixel(double ns) const { return leftPx + (ns - startNs) * widthPx / durationNs(); }
    double toTime(double px) const { return startNs + (px - leftPx) * durationNs() / widthPx; }

    // Zooms by factor (> 1 zooms in) keeping the time under pixel px where it is.
    TimeView zoomedAround(double px, double factor) const;
    // Moves the window by deltaPx pixels (positive: later times come into view).
    TimeView pannedBy(double deltaPx) const;
    // The window [fromNs, toNs], in any order; an empty range becomes minSpanNs wide.
    TimeView showing(double fromNs, double toNs, double minSpanNs = 1.0) const;
    // Keeps the window inside [minNs, maxNs] (plus margin on each side) and at least
    // minSpanNs wide; a window wider than the bounds becomes the bounds.
    TimeView clampedTo(double minNs, double maxNs, double minSpanNs = 1.0, double marginNs = 0.0) const;
};

// The wheel: one notch (120 units of QWheelEvent::angleDelta) zooms by kWheelStep.
inline constexpr double kWheelStep = 1.25;
double wheelZoomFactor(double angleDelta);

} // namespace starscope::viewer
