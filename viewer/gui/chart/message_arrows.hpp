#pragma once
// StarPU-MPI messages on the chart: an arrow (link_plottable.hpp) from the sender's MPI
// communication thread row at the send to the receiver's at the receive's end, for the
// messages in view (message_links.hpp picks them and their rows, and bundles those of a pair of
// rows per slice of the chart into one thicker arrow when there are many). Shown or hidden as a
// whole; the tooltip of an arrow names its ranks, size, tag and times, or a bundle's count,
// bytes and time span.

#include "viewer/core/message_links.hpp"
#include "viewer/core/trace_document.hpp"

#include <QColor>
#include <QString>

#include <memory>
#include <vector>

class QCPAxis;
class QPointF;

namespace starscope::viewer {

class LinkPlottable;

inline const QColor kMessageArrow(20, 20, 20);

class MessageArrows {
public:
    // Adds its plottable to the axes' plot, on layer.
    MessageArrows(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer);

    void setDocument(std::shared_ptr<const TraceDocument> document);
    void setVisible(bool visible);
    bool isVisible() const { return m_visible; }
    // Lays the arrows out for the view and the rows drawn (GanttPlottable's rows and rowOfLane).
    void refresh(const TimeView& view, const std::vector<Row>& rows, const std::vector<std::int32_t>& laneRows);

    // The arrow under pos described (describeMessageArrow, as HTML); empty when none.
    QString tooltipAt(const QPointF& pos) const;

    LinkPlottable* links() const { return m_links; }
    const std::vector<MessageArrow>& arrows() const { return m_arrows; }

private:
    std::shared_ptr<const TraceDocument> m_document;
    MessageReach m_reach;   // of m_document's messages
    LinkPlottable* m_links = nullptr;
    std::vector<MessageArrow> m_arrows;   // one per link of m_links
    bool m_visible = true;
};

} // namespace starscope::viewer
