#include "viewer/gui/chart/link_plottable.hpp"

#include <algorithm>
#include <cmath>

namespace starscope::viewer {

namespace {

constexpr double kHeadLengthPx = 11.0;
constexpr double kHeadHalfWidthPx = 5.0;
constexpr double kTailRadiusPx = 2.5;
// Zoomed far in, a link's ends may lie millions of pixels outside the plot: the segment is cut
// to the plot (with this margin for heads and halos) before Qt sees it.
constexpr double kClipMarginPx = 16.0;
// Opaque: a translucent halo went through Qt's blending of a translucent antialiased stroke,
// which took more than half of a frame of a 4-rank job at 1/100 zoom (replot bench, 102 M
// spans: 90 -> 37 ms a frame, the arrows looking alike).
const QColor kHalo(255, 255, 255);

// Liang-Barsky: the part of [a, b] inside r, if any.
std::optional<std::pair<QPointF, QPointF>> clipSegment(QPointF a, QPointF b, const QRectF& r) {
    const double dx = b.x() - a.x();
    const double dy = b.y() - a.y();
    double t0 = 0.0;
    double t1 = 1.0;
    const auto edge = [&](double p, double q) {
        if (p == 0.0) {
            return q >= 0.0;
        }
        const double t = q / p;
        if (p < 0.0) {
            if (t > t1) {
                return false;
            }
            t0 = std::max(t0, t);
        } else {
            if (t < t0) {
                return false;
            }
            t1 = std::min(t1, t);
        }
        return true;
    };
    if (!edge(-dx, a.x() - r.left()) || !edge(dx, r.right() - a.x()) || !edge(-dy, a.y() - r.top())
        || !edge(dy, r.bottom() - a.y())) {
        return std::nullopt;
    }
    return std::make_pair(QPointF(a.x() + t0 * dx, a.y() + t0 * dy), QPointF(a.x() + t1 * dx, a.y() + t1 * dy));
}

QPolygonF arrowHead(const QPointF& from, const QPointF& tip) {
    const double dx = tip.x() - from.x();
    const double dy = tip.y() - from.y();
    const double length = std::hypot(dx, dy);
    // A link with both ends on one pixel points right, as time runs.
    const double ux = length > 0.0 ? dx / length : 1.0;
    const double uy = length > 0.0 ? dy / length : 0.0;
    const QPointF base(tip.x() - ux * kHeadLengthPx, tip.y() - uy * kHeadLengthPx);
    return QPolygonF({tip, QPointF(base.x() - uy * kHeadHalfWidthPx, base.y() + ux * kHeadHalfWidthPx),
                      QPointF(base.x() + uy * kHeadHalfWidthPx, base.y() - ux * kHeadHalfWidthPx)});
}

} // namespace

double bundleLineWidth(std::size_t count, double single) {
    return std::min(single + std::log2(static_cast<double>(std::max<std::size_t>(count, 1))) * 0.6, 4.0);
}

double distanceToSegment(const QPointF& p, const QPointF& a, const QPointF& b) {
    const double dx = b.x() - a.x();
    const double dy = b.y() - a.y();
    const double lengthSquared = dx * dx + dy * dy;
    double t = 0.0;
    if (lengthSquared > 0.0) {
        t = std::clamp(((p.x() - a.x()) * dx + (p.y() - a.y()) * dy) / lengthSquared, 0.0, 1.0);
    }
    return std::hypot(p.x() - (a.x() + t * dx), p.y() - (a.y() + t * dy));
}

LinkPlottable::LinkPlottable(QCPAxis* timeAxis, QCPAxis* rowAxis) : DecorationPlottable(timeAxis, rowAxis) {
    setAntialiased(true);
}

QPointF LinkPlottable::fromPixel(const Link& link) const {
    return {keyAxis()->coordToPixel(link.fromTime), valueAxis()->coordToPixel(link.fromRow)};
}

QPointF LinkPlottable::toPixel(const Link& link) const {
    return {keyAxis()->coordToPixel(link.toTime), valueAxis()->coordToPixel(link.toRow)};
}

std::optional<LinkHit> LinkPlottable::hitTest(const QPointF& pos, double tolerancePx) const {
    if (keyAxis() == nullptr || valueAxis() == nullptr) {
        return std::nullopt;
    }
    std::optional<LinkHit> bestEnd;
    std::optional<LinkHit> bestShaft;
    for (std::size_t i = 0; i < m_links.size(); ++i) {
        const QPointF a = fromPixel(m_links[i]);
        const QPointF b = toPixel(m_links[i]);
        const double toA = std::hypot(pos.x() - a.x(), pos.y() - a.y());
        const double toB = std::hypot(pos.x() - b.x(), pos.y() - b.y());
        const double end = std::min(toA, toB);
        if (end <= tolerancePx && (!bestEnd || end < bestEnd->distancePx)) {
            bestEnd = LinkHit{i, toB <= toA ? LinkPart::To : LinkPart::From, end};
        }
        const double shaft = distanceToSegment(pos, a, b);
        if (shaft <= tolerancePx && (!bestShaft || shaft < bestShaft->distancePx)) {
            bestShaft = LinkHit{i, LinkPart::Shaft, shaft};
        }
    }
    return bestEnd ? bestEnd : bestShaft;
}

void LinkPlottable::draw(QCPPainter* painter) {
    if (m_links.empty() || keyAxis() == nullptr || valueAxis() == nullptr) {
        return;
    }
    const QRectF bounds = QRectF(clipRect()).adjusted(-kClipMarginPx, -kClipMarginPx, kClipMarginPx, kClipMarginPx);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    for (const Link& link : m_links) {
        const double width = link.width > 0.0 ? link.width : m_lineWidth;
        // Flat caps: the tail's dot and the head cover the ends, and Qt strokes a round cap as
        // a curve, which took half of a frame of a 4-rank job at 1/100 zoom (about 140
        // arrows: 100 -> 54 ms a frame).
        const QPen halo(kHalo, width + 2.0, Qt::SolidLine, Qt::FlatCap);
        const QPointF a = fromPixel(link);
        const QPointF b = toPixel(link);
        const auto visible = clipSegment(a, b, bounds);
        if (!visible) {
            continue;
        }
        const QLineF line(visible->first, visible->second);
        painter->setBrush(Qt::NoBrush);
        painter->setPen(halo);
        painter->drawLine(line);
        painter->setPen(QPen(link.colour, width, Qt::SolidLine, Qt::FlatCap));
        painter->drawLine(line);
        painter->setPen(Qt::NoPen);
        painter->setBrush(link.colour);
        if (bounds.contains(a)) {
            painter->drawEllipse(a, kTailRadiusPx, kTailRadiusPx);
        }
        if (bounds.contains(b)) {
            painter->drawPolygon(arrowHead(a, b));
        }
    }
    painter->restore();
}

} // namespace starscope::viewer
