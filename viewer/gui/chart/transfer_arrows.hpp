#pragma once
// Data transfers between memory nodes on the chart: an arrow (link_plottable.hpp) from the
// source node's row at the copy's start to the destination node's row at its end, coloured by
// why StarPU copied (fetch, task prefetch, prefetch, idle fetch), for the transfers in view
// (transfer_links.hpp picks them, and folds a link's transfers into one thicker arrow per slice
// of the chart when there are many). Shown or hidden as a whole; the tooltip of an arrow gives
// its bytes, duration, achieved bandwidth, nodes and the task that needed the data.

#include "viewer/core/links/transfer_links.hpp"
#include "viewer/gui/chart/arrow_layer.hpp"

#include <QColor>

namespace starscope::viewer {

// The arrow colour of a kind of transfer: blues for what a task needs now or soon, violet for
// a prefetch, grey-blue for a copy made while idle; apart from the codelets' greens, the
// sleeping red, the waiting-for-data amber and the MPI messages' black.
QColor transferColour(tracer::TransferKind kind);

class TransferArrows : public ArrowLayer {
public:
    // Adds its plottable to the axes' plot, on layer.
    TransferArrows(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer);

    // The arrow under pos described (describeTransferArrow, as HTML); empty when none.
    QString tooltipAt(const QPointF& pos) const;

    const std::vector<TransferArrow>& arrows() const { return m_arrows; }

protected:
    std::vector<Link> layOut(const TimeView& view, const std::vector<Row>& rows,
                             const std::vector<std::int32_t>& laneRows) override;
    void forgetLayout() override { m_arrows.clear(); }

private:
    std::vector<TransferArrow> m_arrows;   // one per link
};

} // namespace starscope::viewer
