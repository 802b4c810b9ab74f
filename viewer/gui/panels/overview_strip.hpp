#pragma once
// A strip under the chart with the whole trace at once: per pixel column, the share of worker
// time executing, in runtime overhead and sleeping (stacked as in the chart's folded columns),
// ticks for the barriers, and the chart's current window as a frame that can be dragged (or
// clicked to jump, or wheeled to zoom). It asks for a new window through windowRequested and
// is told the chart's window through setWindow; it never moves the chart itself.

#include "viewer/core/drawing/state_stack.hpp"
#include "viewer/core/layout/time_view.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <QImage>
#include <QWidget>

#include <memory>
#include <utility>

namespace starscope::viewer {

class OverviewStrip : public QWidget {
    Q_OBJECT
public:
    explicit OverviewStrip(QWidget* parent = nullptr);

    void setDocument(std::shared_ptr<const TraceDocument> document);
    void setBarriers(std::shared_ptr<const Barriers> barriers);
    // The chart's window, in trace ticks; only repaints.
    void setWindow(double startNs, double endNs);
    std::pair<double, double> window() const { return {m_windowStart, m_windowEnd}; }
    // The whole trace mapped onto the strip's columns.
    TimeView mapping() const;
    // The frame that shows the window, in widget pixels (at least a few pixels wide).
    QRect windowRect() const;
    // The stacked picture of the workers' states, one column per pixel (empty with no trace).
    const QImage& picture() const { return m_picture; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void windowRequested(double startNs, double endNs);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    QRect plotArea() const;
    void rebuildPicture();
    void requestStartingAt(double startNs);

    std::shared_ptr<const TraceDocument> m_document;
    std::shared_ptr<const Barriers> m_barriers;
    StateStack m_stack;
    QImage m_picture;
    double m_windowStart = 0.0;
    double m_windowEnd = 0.0;
    bool m_dragging = false;
    double m_grabOffsetNs = 0.0;   // from the window's start to the time under the cursor
};

} // namespace starscope::viewer
