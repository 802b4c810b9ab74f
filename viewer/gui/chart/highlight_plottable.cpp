#include "viewer/gui/chart/highlight_plottable.hpp"

#include <algorithm>
#include <cmath>

namespace starscope::viewer {

namespace {

constexpr int kFramePx = 2;
constexpr int kMinInnerPx = 4;   // the inside of the narrowest frame: a white stripe shows through
// Far outside the plot a box's pixels overflow int: kept to the plot plus this margin.
constexpr double kClampMarginPx = 8.0;

} // namespace

HighlightPlottable::HighlightPlottable(QCPAxis* timeAxis, QCPAxis* rowAxis) : DecorationPlottable(timeAxis, rowAxis) {
    setAntialiased(false);
}

QRect HighlightPlottable::frameRect(const HighlightBox& box) const {
    const QRect clip = clipRect();
    const auto clampX = [&](double x) {
        return std::clamp(x, clip.left() - kClampMarginPx, clip.right() + kClampMarginPx);
    };
    double x0 = clampX(keyAxis()->coordToPixel(std::min(box.startTime, box.endTime)));
    double x1 = clampX(keyAxis()->coordToPixel(std::max(box.startTime, box.endTime)));
    const double minWidth = 2 * kFramePx + kMinInnerPx;
    if (x1 - x0 < minWidth) {
        const double centre = (x0 + x1) / 2.0;
        x0 = centre - minWidth / 2.0;
        x1 = centre + minWidth / 2.0;
    }
    const double ya = valueAxis()->coordToPixel(box.row - box.halfHeight);
    const double yb = valueAxis()->coordToPixel(box.row + box.halfHeight);
    const int left = static_cast<int>(std::floor(x0)) - 1;
    const int right = static_cast<int>(std::ceil(x1)) + 1;
    const int top = static_cast<int>(std::floor(std::min(ya, yb))) - 1;
    const int bottom = static_cast<int>(std::ceil(std::max(ya, yb))) + 1;
    return QRect(QPoint(left, top), QPoint(right - 1, bottom - 1));
}

void HighlightPlottable::draw(QCPPainter* painter) {
    if (keyAxis() == nullptr || valueAxis() == nullptr) {
        return;
    }
    for (const HighlightBox& box : m_boxes) {
        const QRect outer = frameRect(box);
        if (!outer.intersects(clipRect())) {
            continue;
        }
        // Filled strips rather than pen outlines: crisp at any scale, same on raster and vector.
        const auto frame = [&](const QRect& r, const QColor& colour, int thickness) {
            painter->fillRect(QRect(r.left(), r.top(), r.width(), thickness), colour);
            painter->fillRect(QRect(r.left(), r.bottom() - thickness + 1, r.width(), thickness), colour);
            painter->fillRect(QRect(r.left(), r.top(), thickness, r.height()), colour);
            painter->fillRect(QRect(r.right() - thickness + 1, r.top(), thickness, r.height()), colour);
        };
        frame(outer, kHighlightFrame, kFramePx);
        frame(outer.adjusted(kFramePx, kFramePx, -kFramePx, -kFramePx), kHighlightInner, 1);
    }
}

} // namespace starscope::viewer
