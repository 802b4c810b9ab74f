#include "viewer/gui/chart/message_arrows.hpp"

#include "tracer/model/time_unit.hpp"
#include "viewer/core/time_format.hpp"
#include "viewer/gui/chart/link_plottable.hpp"

namespace starscope::viewer {

MessageArrows::MessageArrows(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer) {
    m_links = new LinkPlottable(timeAxis, rowAxis);
    m_links->setLayer(layer);
    m_links->setName(QStringLiteral("message between ranks"));
    m_links->setLineWidth(1.5);
}

void MessageArrows::setDocument(std::shared_ptr<const TraceDocument> document) {
    m_document = std::move(document);
    m_arrows.clear();
    m_links->clearLinks();
}

void MessageArrows::setVisible(bool visible) {
    m_visible = visible;
    m_links->setVisible(visible);
}

void MessageArrows::refresh(const TimeView& view, const std::vector<Row>& rows, const std::vector<std::int32_t>& laneRows,
                            double spacingPx) {
    m_arrows.clear();
    if (m_document && m_visible) {
        m_arrows = visibleMessages(m_document->trace, rows, laneRows, view, spacingPx);
    }
    std::vector<Link> links;
    links.reserve(m_arrows.size());
    for (const MessageArrow& arrow : m_arrows) {
        const auto& m = m_document->trace.messages[arrow.message];
        links.push_back({static_cast<double>(m.start), arrow.fromRow, static_cast<double>(m.end), arrow.toRow, kMessageArrow});
    }
    m_links->setLinks(std::move(links));
}

QString MessageArrows::tooltipAt(const QPointF& pos) const {
    if (!m_document || !m_visible) {
        return {};
    }
    const auto hit = m_links->hitTest(pos);
    if (!hit || hit->link >= m_arrows.size()) {
        return {};
    }
    const auto& trace = m_document->trace;
    const auto& m = trace.messages[m_arrows[hit->link].message];
    const TimeScale& scale = m_document->time;
    const auto at = [&scale](tracer::TimeNs t) { return QString::fromStdString(formatDuration(scale.timeNs(static_cast<double>(t)))); };
    const auto lasting = [&scale](tracer::TimeNs t) {
        return QString::fromStdString(formatDuration(scale.durationNs(static_cast<double>(t))));
    };
    return QStringLiteral("<b>message rank %1 &rarr; rank %2</b><br>%3 B, tag %4<br>sent at %5, received %6 later")
        .arg(m.fromRank)
        .arg(m.toRank)
        .arg(QString::fromStdString(groupThousands(m.size)))
        .arg(m.tag)
        .arg(at(m.start), lasting(m.duration()));
}

} // namespace starscope::viewer
