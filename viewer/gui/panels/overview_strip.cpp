#include "viewer/gui/panels/overview_strip.hpp"

#include "viewer/core/drawing/overview_profile.hpp"
#include "viewer/gui/chart/overlay_plottable.hpp"
#include "viewer/gui/chart/qt_support.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

namespace starscope::viewer {

namespace {

constexpr int kHeight = 54;
constexpr int kPaddingX = 6;
constexpr int kPaddingY = 4;
constexpr int kBarrierTickPx = 6;
constexpr int kMinFramePx = 5;
const QColor kStripBackground(240, 240, 240);
const QColor kOutside(0, 0, 0, 80);
const QColor kFrame(20, 60, 170);

} // namespace

OverviewStrip::OverviewStrip(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("overviewStrip"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setMouseTracking(false);
    setCursor(Qt::OpenHandCursor);
    setToolTip(tr("The whole trace: worker time executing (green), in the runtime (grey) and sleeping (red); "
                  "blue ticks are barriers. Drag the frame to move the chart, click to jump, wheel to zoom."));
}

QSize OverviewStrip::sizeHint() const { return {600, kHeight}; }
QSize OverviewStrip::minimumSizeHint() const { return {100, kHeight}; }

void OverviewStrip::setDocument(std::shared_ptr<const TraceDocument> document) {
    m_document = std::move(document);
    m_barriers.reset();
    m_stack = m_document ? StateStack(m_document->trace, m_document->palette) : StateStack();
    if (m_document) {
        std::tie(m_windowStart, m_windowEnd) = fitAllWindow(*m_document);
    }
    rebuildPicture();
    update();
}

void OverviewStrip::setBarriers(std::shared_ptr<const Barriers> barriers) {
    m_barriers = std::move(barriers);
    update();
}

void OverviewStrip::setWindow(double startNs, double endNs) {
    m_windowStart = startNs;
    m_windowEnd = endNs;
    update();
}

QRect OverviewStrip::plotArea() const {
    return rect().adjusted(kPaddingX, kPaddingY, -kPaddingX, -kPaddingY);
}

TimeView OverviewStrip::mapping() const {
    const QRect area = plotArea();
    TimeView view{0.0, 1.0, static_cast<double>(area.left()), std::max(1.0, static_cast<double>(area.width()))};
    if (m_document) {
        std::tie(view.startNs, view.endNs) = fitAllWindow(*m_document);
    }
    return view;
}

QRect OverviewStrip::windowRect() const {
    const QRect area = plotArea();
    const TimeView view = mapping();
    const double right = view.leftPx + view.widthPx;
    double x0 = std::clamp(view.toPixel(m_windowStart), view.leftPx, right);
    double x1 = std::clamp(view.toPixel(m_windowEnd), view.leftPx, right);
    if (x1 - x0 < kMinFramePx) {
        // A deep zoom is still a frame one can see and grab.
        const double centre = (x0 + x1) / 2.0;
        x0 = std::clamp(centre - kMinFramePx / 2.0, view.leftPx, right - kMinFramePx);
        x1 = x0 + kMinFramePx;
    }
    const int left = static_cast<int>(std::floor(x0));
    return {left, area.top(), std::max(kMinFramePx, static_cast<int>(std::ceil(x1)) - left), area.height()};
}

void OverviewStrip::rebuildPicture() {
    const QRect area = plotArea();
    if (!m_document || area.width() <= 0 || area.height() <= 0) {
        m_picture = QImage();
        return;
    }
    const TimeView view = mapping();
    const auto columns = static_cast<std::size_t>(area.width());
    const OverviewProfile profile = workerProfile(*m_document, view.startNs, view.endNs, columns);
    m_picture = QImage(area.width(), area.height(), QImage::Format_RGB32);
    m_picture.fill(kStripBackground);
    std::vector<StackBand> bands;
    for (std::size_t c = 0; c < profile.columns; ++c) {
        m_stack.stack(profile.column(c), profile.extents[c], area.height(), bands);
        int line = 0;
        for (const StackBand& band : bands) {
            if (!band.empty) {
                const QRgb pixel = qRgb(band.colour.r, band.colour.g, band.colour.b);
                for (int y = line; y < line + band.pixels; ++y) {
                    reinterpret_cast<QRgb*>(m_picture.scanLine(y))[c] = pixel;
                }
            }
            line += band.pixels;
        }
    }
}

void OverviewStrip::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    rebuildPicture();
}

void OverviewStrip::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().window());
    const QRect area = plotArea();
    if (!m_document || m_picture.isNull()) {
        painter.setPen(palette().color(QPalette::Disabled, QPalette::Text));
        painter.drawText(area, Qt::AlignCenter, tr("overview of the whole trace"));
        return;
    }
    painter.drawImage(area.topLeft(), m_picture);
    const TimeView view = mapping();
    if (m_barriers) {
        // One tick per barrier, at least a pixel wide, like the chart's bands.
        int lastRight = std::numeric_limits<int>::min();
        for (const auto& barrier : *m_barriers) {
            const int x0 = static_cast<int>(std::lround(view.toPixel(static_cast<double>(barrier.start))));
            const int x1 = std::max(x0 + 1, static_cast<int>(std::lround(view.toPixel(static_cast<double>(barrier.end)))));
            if (x1 <= lastRight) {
                continue;
            }
            const int left = std::max(x0, lastRight);
            lastRight = x1;
            painter.fillRect(QRect(left, area.top(), x1 - left, kBarrierTickPx), kBarrierEdge);
        }
    }
    // Outside the window dimmed, the window framed.
    const QRect frame = windowRect();
    painter.fillRect(QRect(area.left(), area.top(), frame.left() - area.left(), area.height()), kOutside);
    painter.fillRect(QRect(frame.right() + 1, area.top(), area.right() - frame.right(), area.height()), kOutside);
    painter.setPen(QPen(kFrame, 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(frame.adjusted(1, 1, -1, -1));
}

void OverviewStrip::requestStartingAt(double startNs) {
    const double duration = m_windowEnd - m_windowStart;
    emit windowRequested(startNs, startNs + duration);
}

void OverviewStrip::mousePressEvent(QMouseEvent* event) {
    if (!m_document || event->button() != Qt::LeftButton) {
        return;
    }
    const double t = mapping().toTime(event->position().x());
    const double duration = m_windowEnd - m_windowStart;
    if (windowRect().contains(event->position().toPoint())) {
        m_grabOffsetNs = t - m_windowStart;
    } else {
        // A click elsewhere centres the window there, and the drag goes on from it.
        m_grabOffsetNs = duration / 2.0;
        requestStartingAt(t - m_grabOffsetNs);
    }
    m_dragging = true;
    setCursor(Qt::ClosedHandCursor);
    event->accept();
}

void OverviewStrip::mouseMoveEvent(QMouseEvent* event) {
    if (!m_dragging) {
        return;
    }
    requestStartingAt(mapping().toTime(event->position().x()) - m_grabOffsetNs);
    event->accept();
}

void OverviewStrip::mouseReleaseEvent(QMouseEvent* event) {
    if (!m_dragging) {
        return;
    }
    m_dragging = false;
    setCursor(Qt::OpenHandCursor);
    event->accept();
}

void OverviewStrip::wheelEvent(QWheelEvent* event) {
    if (!m_document) {
        return;
    }
    // Zooms the chart's window around the time under the cursor, as the chart's wheel does.
    const double factor = wheelZoomFactor(event->angleDelta().y());
    const double t = mapping().toTime(event->position().x());
    const double start = t - (t - m_windowStart) / factor;
    const double end = t + (m_windowEnd - t) / factor;
    emit windowRequested(start, end);
    event->accept();
}

} // namespace starscope::viewer
