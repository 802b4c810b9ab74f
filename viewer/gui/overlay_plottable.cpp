#include "viewer/gui/overlay_plottable.hpp"

#include "tracer/model/time_unit.hpp"

#include "viewer/core/time_format.hpp"
#include "viewer/gui/qt_support.hpp"

#include <algorithm>
#include <cmath>

namespace starscope::viewer {

namespace {

constexpr int kLabelPadding = 3;
constexpr int kMinBandPx = 3;
constexpr int kTickPx = 8;
const QColor kLabelBackground(255, 255, 255, 210);
const QColor kSelectionFill(255, 200, 0, 60);
const QColor kSelectionEdge(200, 140, 0);

// Qt's raster engine hands a clipped fill taller than about 96 scanlines to its thread pool
// and waits for it; for the thin bands and lines drawn here that dispatch costs far more than
// the fill (tens of milliseconds per frame on a loaded machine). Strips of 64 lines stay on
// the painting thread.
void fillInStrips(QPainter* painter, const QRect& rect, const QColor& colour) {
    constexpr int kStrip = 64;
    for (int y = rect.top(); y <= rect.bottom(); y += kStrip) {
        painter->fillRect(QRect(rect.left(), y, rect.width(), std::min(kStrip, rect.bottom() - y + 1)), colour);
    }
}

// A one-pixel vertical line as a fill: QPen lines go through the same threaded path.
void verticalLine(QPainter* painter, int x, const QRect& area, const QColor& colour) {
    fillInStrips(painter, QRect(x, area.top(), 1, area.height()), colour);
}

// Draws text in a small white box; returns the box so callers can avoid overlaps.
QRect drawLabel(QCPPainter* painter, const QString& text, int x, int y, bool centred) {
    const QFontMetrics metrics(painter->font());
    const int w = metrics.horizontalAdvance(text) + 2 * kLabelPadding;
    const int h = metrics.height();
    const QRect box(centred ? x - w / 2 : x, y, w, h);
    fillInStrips(painter, box, kLabelBackground);
    painter->setPen(QColor(20, 20, 20));
    painter->drawText(box, Qt::AlignCenter, text);
    return box;
}

} // namespace

OverlayPlottable::OverlayPlottable(QCPAxis* timeAxis, QCPAxis* rowAxis) : QCPAbstractPlottable(timeAxis, rowAxis) {
    setSelectable(QCP::stNone);
    setAntialiased(false);
}

void OverlayPlottable::setDocument(std::shared_ptr<const TraceDocument> document) {
    m_document = std::move(document);
    m_barriers.reset();
    m_selection.reset();
    m_rubberBand.reset();
}

void OverlayPlottable::setBarriers(std::shared_ptr<const Barriers> barriers) { m_barriers = std::move(barriers); }

double OverlayPlottable::selectTest(const QPointF&, bool, QVariant*) const { return -1.0; }

QCPRange OverlayPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const {
    foundRange = false;
    return {};
}

QCPRange OverlayPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const {
    foundRange = false;
    return {};
}

void OverlayPlottable::draw(QCPPainter* painter) {
    const QCPAxis* axis = keyAxis();
    if (!m_document || axis == nullptr || axis->axisRect() == nullptr) {
        return;
    }
    const QRect area = axis->axisRect()->rect();
    const TimeView view{axis->range().lower, axis->range().upper, static_cast<double>(area.left()),
                        std::max(1.0, static_cast<double>(area.width()))};
    painter->setFont(mParentPlot->font());
    drawBarriers(painter, view, area);
    drawMarkers(painter, view, area);
    if (m_selection) {
        drawRange(painter, view, area, *m_selection, true);
    }
    if (m_rubberBand) {
        drawRange(painter, view, area, *m_rubberBand, false);
    }
}

void OverlayPlottable::drawBarriers(QCPPainter* painter, const TimeView& view, const QRect& area) {
    if (!m_barriers) {
        return;
    }
    const Barriers& barriers = *m_barriers;
    const QFontMetrics metrics(painter->font());
    int lastLabelRight = std::numeric_limits<int>::min();
    int lastBandRight = std::numeric_limits<int>::min();
    for (std::size_t i = firstBarrierEndingAfter(barriers, view.startNs);
         i < barriers.size() && static_cast<double>(barriers[i].start) < view.endNs; ++i) {
        const auto& barrier = barriers[i];
        const int x0 = static_cast<int>(std::lround(std::max(view.toPixel(static_cast<double>(barrier.start)), view.leftPx)));
        const int x1 = std::max(x0 + 1, static_cast<int>(std::lround(std::min(view.toPixel(static_cast<double>(barrier.end)),
                                                                                view.leftPx + view.widthPx))));
        // Barriers are at least one pixel wide; several within one pixel show as one band.
        if (x1 <= lastBandRight) {
            continue;
        }
        const int left = std::max(x0, lastBandRight);
        lastBandRight = x1;
        if (x1 - left >= kMinBandPx) {
            fillInStrips(painter, QRect(left, area.top(), x1 - left, area.height()), kBarrierFill);
            verticalLine(painter, left, area, kBarrierEdge);
            verticalLine(painter, x1 - 1, area, kBarrierEdge);
        } else {
            // Too thin for a tint to show, and full-height lines would bury the rows when
            // zoomed out: ticks on the top and bottom edges mark it.
            painter->fillRect(QRect(left, area.top(), x1 - left, kTickPx), kBarrierEdge);
            painter->fillRect(QRect(left, area.bottom() - kTickPx + 1, x1 - left, kTickPx), kBarrierEdge);
        }
        const QString text = QString::fromStdString(formatDuration(static_cast<double>(barrier.duration()) * tracer::nsPerTick(m_document->trace)));
        const int width = metrics.horizontalAdvance(text) + 2 * kLabelPadding;
        const int centre = (left + x1) / 2;
        if (centre - width / 2 > lastLabelRight + 2) {
            const QRect box = drawLabel(painter, text, centre, area.bottom() - metrics.height() - 2, true);
            lastLabelRight = box.right();
        }
    }
}

void OverlayPlottable::drawMarkers(QCPPainter* painter, const TimeView& view, const QRect& area) {
    const auto& markers = m_document->trace.markers;
    const auto& batchMarkers = m_document->batchMarkers;
    const auto first = std::partition_point(batchMarkers.begin(), batchMarkers.end(), [&](std::size_t m) {
        return static_cast<double>(markers[m].time) < view.startNs;
    });
    int lastLine = std::numeric_limits<int>::min();
    int lastLabelRight = std::numeric_limits<int>::min();
    const QFontMetrics metrics(painter->font());
    for (auto it = first; it != batchMarkers.end() && static_cast<double>(markers[*it].time) <= view.endNs; ++it) {
        const auto& marker = markers[*it];
        const int x = static_cast<int>(std::lround(view.toPixel(static_cast<double>(marker.time))));
        if (x <= lastLine + 1) {
            continue;   // markers closer than two pixels: one line is enough
        }
        lastLine = x;
        verticalLine(painter, x, area, kMarkerLine);
        const QString text = QStringLiteral("e%1 b%2").arg(marker.marker.epoch).arg(marker.marker.batch);
        if (x + 2 > lastLabelRight + 4 && x + metrics.horizontalAdvance(text) < area.right()) {
            const QRect box = drawLabel(painter, text, x + 2, area.top() + 2, false);
            lastLabelRight = box.right();
        }
    }
}

void OverlayPlottable::drawRange(QCPPainter* painter, const TimeView& view, const QRect& area,
                                 std::pair<double, double> range, bool committed) {
    const double a = std::clamp(view.toPixel(std::min(range.first, range.second)), view.leftPx, view.leftPx + view.widthPx);
    const double b = std::clamp(view.toPixel(std::max(range.first, range.second)), view.leftPx, view.leftPx + view.widthPx);
    const QRect rect(static_cast<int>(a), area.top(), std::max(1, static_cast<int>(b - a)), area.height());
    if (committed) {
        fillInStrips(painter, rect, kSelectionFill);
        painter->setPen(QPen(kSelectionEdge, 1));
    } else {
        painter->setPen(QPen(QColor(30, 30, 30), 1, Qt::DashLine));
    }
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(rect);
    if (committed) {
        drawLabel(painter, QString::fromStdString(formatDuration(std::abs(range.second - range.first) * tracer::nsPerTick(m_document->trace))), rect.center().x(),
                  area.top() + QFontMetrics(painter->font()).height() + 6, true);
    }
}

void OverlayPlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const {
    painter->fillRect(rect, kBarrierFill);
}

} // namespace starscope::viewer
