#pragma once
// Data transfers between memory nodes on the chart: an arrow (link_plottable.hpp) from the
// source node's row at the copy's start to the destination node's row at its end, coloured by
// why StarPU copied (fetch, task prefetch, prefetch, idle fetch), for the transfers in view
// (transfer_links.hpp picks them, and folds a link's transfers into one thicker arrow per slice
// of the chart when there are many). Shown or hidden as a whole; the tooltip of an arrow gives
// its bytes, duration, achieved bandwidth, nodes and the task that needed the data.

#include "viewer/core/trace_document.hpp"
#include "viewer/core/transfer_links.hpp"

#include <QColor>
#include <QString>

#include <memory>
#include <vector>

class QCPAxis;
class QPointF;

namespace starscope::viewer {

class LinkPlottable;

// The arrow colour of a kind of transfer: blues for what a task needs now or soon, violet for
// a prefetch, grey-blue for a copy made while idle; apart from the codelets' greens, the
// sleeping red, the waiting-for-data amber and the MPI messages' black.
QColor transferColour(tracer::TransferKind kind);

class TransferArrows {
public:
    // Adds its plottable to the axes' plot, on layer.
    TransferArrows(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer);

    void setDocument(std::shared_ptr<const TraceDocument> document);
    void setVisible(bool visible);
    bool isVisible() const { return m_visible; }
    // Lays the arrows out for the view and the rows drawn (GanttPlottable's rowOfLane).
    void refresh(const TimeView& view, const std::vector<std::int32_t>& laneRows);

    // The arrow under pos described (describeTransferArrow, as HTML); empty when none.
    QString tooltipAt(const QPointF& pos) const;

    LinkPlottable* links() const { return m_links; }
    const std::vector<TransferArrow>& arrows() const { return m_arrows; }

private:
    std::shared_ptr<const TraceDocument> m_document;
    LinkPlottable* m_links = nullptr;
    std::vector<TransferArrow> m_arrows;   // one per link of m_links
    bool m_visible = true;
};

} // namespace starscope::viewer
