#pragma once
// What is drawn over the Gantt rows: barrier bands labelled with their duration, batch
// markers as labelled vertical lines, the selected time range and the rubber band. It sits on
// its own buffered layer, so moving the selection repaints this layer only.

#include "viewer/core/time_view.hpp"
#include "viewer/core/trace_document.hpp"

#include <qcustomplot.h>

#include <memory>
#include <optional>

namespace starscope::viewer {

inline const QColor kBarrierFill(40, 90, 220, 45);
inline const QColor kBarrierEdge(70, 110, 220);
inline const QColor kMarkerLine(70, 70, 70);

class OverlayPlottable : public QCPAbstractPlottable {
    Q_OBJECT
public:
    OverlayPlottable(QCPAxis* timeAxis, QCPAxis* rowAxis);

    void setDocument(std::shared_ptr<const TraceDocument> document);
    void setBarriers(std::shared_ptr<const Barriers> barriers);
    const std::shared_ptr<const Barriers>& barriers() const { return m_barriers; }
    // A committed range selection (shaded) and a rubber band in progress (outlined).
    void setSelection(std::optional<std::pair<double, double>> rangeNs) { m_selection = rangeNs; }
    void setRubberBand(std::optional<std::pair<double, double>> rangeNs) { m_rubberBand = rangeNs; }
    const std::optional<std::pair<double, double>>& selection() const { return m_selection; }

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    void drawBarriers(QCPPainter* painter, const TimeView& view, const QRect& area);
    void drawMarkers(QCPPainter* painter, const TimeView& view, const QRect& area);
    void drawRange(QCPPainter* painter, const TimeView& view, const QRect& area, std::pair<double, double> range,
                   bool committed);

    std::shared_ptr<const TraceDocument> m_document;
    std::shared_ptr<const Barriers> m_barriers;
    std::optional<std::pair<double, double>> m_selection;
    std::optional<std::pair<double, double>> m_rubberBand;
};

} // namespace starscope::viewer
