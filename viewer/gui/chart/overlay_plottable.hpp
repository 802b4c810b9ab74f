#pragma once
// What is drawn over the Gantt rows: barrier bands labelled with their duration, batch
// markers as labelled vertical lines, the selected time range and the rubber band, both with
// their length. It sits on its own buffered layer, so moving the selection repaints this layer
// only; its labels are painted by a second plottable on a layer above (labelPlottable), over
// anything drawn on the overlay after it (message and dependency arrows crossed them). Every barrier
// keeps a band at least one pixel wide at any zoom; labels that would overlap are dropped,
// longest barriers first kept (label_layout.hpp), and the tooltip names what is hidden. In a
// trace of several StarPU-MPI ranks the job's barriers span every rank's rows and each rank's
// own barriers are banded, in another tint, over that rank's rows only.

#include "viewer/core/layout/time_view.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <qcustomplot.h>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace starscope::viewer {

inline const QColor kBarrierFill(40, 90, 220, 45);
inline const QColor kBarrierEdge(70, 110, 220);
inline const QColor kRankBarrierFill(0, 160, 170, 50);
inline const QColor kRankBarrierEdge(0, 130, 140);
inline const QColor kMarkerLine(70, 70, 70);

// The labels the last draw kept, in widget pixels: batch labels along the top, barrier
// durations along the bottom (with the barrier each names), each rank's barrier durations on
// the second line of its rows, and the length of the range selected or being dragged. None
// overlaps another of its line.
struct OverlayLabels {
    struct Label {
        QRect box;
        QString text;
    };
    std::vector<QRect> batch;
    std::vector<QRect> barrier;
    std::vector<std::size_t> barrierIndex;
    std::vector<Label> rankBarrier;
    std::optional<Label> range;
};

class OverlayPlottable : public QCPAbstractPlottable {
    Q_OBJECT
public:
    OverlayPlottable(QCPAxis* timeAxis, QCPAxis* rowAxis);

    void setDocument(std::shared_ptr<const TraceDocument> document);
    void setBarriers(std::shared_ptr<const Barriers> barriers);
    const std::shared_ptr<const Barriers>& barriers() const { return m_barriers; }
    // Each rank's barriers (JobAndRankBarriers::ranks) and the chart's rows they are drawn in.
    void setRankBarriers(std::shared_ptr<const Barriers> barriers) { m_rankBarriers = std::move(barriers); }
    const std::shared_ptr<const Barriers>& rankBarriers() const { return m_rankBarriers; }
    void setRows(std::vector<Row> rows) { m_rows = std::move(rows); }
    // A committed range selection (shaded) and a rubber band in progress (outlined).
    void setSelection(std::optional<std::pair<double, double>> rangeNs) { m_selection = rangeNs; }
    void setRubberBand(std::optional<std::pair<double, double>> rangeNs) { m_rubberBand = rangeNs; }
    const std::optional<std::pair<double, double>>& selection() const { return m_selection; }
    const OverlayLabels& labels() const { return m_labels; }
    // Paints the labels of the last draw: put it on a layer above every other overlay drawing.
    QCPAbstractPlottable* labelPlottable() const { return m_labelPlottable; }
    // Rich text naming the barriers and batch starts within a few pixels of pos (those whose
    // labels did not fit too); empty when there is none.
    QString tooltipAt(const QPointF& pos) const;

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    void drawBarriers(QCPPainter* painter, const TimeView& view, const QRect& area);
    void drawRankBarriers(QCPPainter* painter, const TimeView& view, const QRect& area);
    // The pixel rows [top, bottom] of a rank's rows; nullopt when none is visible.
    std::optional<std::pair<int, int>> rankPixels(std::int32_t rank) const;
    void drawMarkers(QCPPainter* painter, const TimeView& view, const QRect& area);
    void drawRange(QCPPainter* painter, const TimeView& view, const QRect& area, std::pair<double, double> range,
                   bool committed);
    // Keeps a label for the label plottable to paint.
    void addLabel(const QRect& box, const QString& text) { m_pendingLabels.emplace_back(box, text); }

    std::shared_ptr<const TraceDocument> m_document;
    std::shared_ptr<const Barriers> m_barriers;
    std::shared_ptr<const Barriers> m_rankBarriers;
    std::vector<Row> m_rows;
    std::optional<std::pair<double, double>> m_selection;
    std::optional<std::pair<double, double>> m_rubberBand;
    OverlayLabels m_labels;
    std::vector<std::pair<QRect, QString>> m_pendingLabels;   // painted by m_labelPlottable
    QCPAbstractPlottable* m_labelPlottable = nullptr;         // owned by the plot
    TimeView m_lastView;
    QRect m_lastArea;
};

} // namespace starscope::viewer
