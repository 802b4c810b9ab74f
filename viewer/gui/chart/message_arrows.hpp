#pragma once
// StarPU-MPI messages on the chart: an arrow (link_plottable.hpp) from the sender's MPI
// communication thread row at the send to the receiver's at the receive's end, for the
// messages in view (message_links.hpp picks them and their rows, and bundles those of a pair of
// rows per slice of the chart into one thicker arrow when there are many). Shown or hidden as a
// whole; the tooltip of an arrow names its ranks, size, tag and times, or a bundle's count,
// bytes and time span.

#include "viewer/core/links/message_links.hpp"
#include "viewer/gui/chart/arrow_layer.hpp"

#include <QColor>

namespace starscope::viewer {

inline const QColor kMessageArrow(20, 20, 20);

class MessageArrows : public ArrowLayer {
public:
    // Adds its plottable to the axes' plot, on layer.
    MessageArrows(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer);

    // The arrow under pos described (describeMessageArrow, as HTML); empty when none.
    QString tooltipAt(const QPointF& pos) const;

    const std::vector<MessageArrow>& arrows() const { return m_arrows; }

protected:
    std::vector<Link> layOut(const TimeView& view, const std::vector<Row>& rows,
                             const std::vector<std::int32_t>& laneRows) override;
    void forgetLayout() override { m_arrows.clear(); }
    void documentChanged(const TraceDocument* document) override;

private:
    MessageReach m_reach;                 // of the document's messages
    std::vector<MessageArrow> m_arrows;   // one per link
};

} // namespace starscope::viewer
