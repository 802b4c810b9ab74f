#include "viewer/gui/chart/message_arrows.hpp"

#include "viewer/gui/chart/link_plottable.hpp"
#include "viewer/gui/chart/qt_support.hpp"

namespace starscope::viewer {

namespace {

constexpr double kMessageLineWidth = 1.5;

} // namespace

MessageArrows::MessageArrows(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer) {
    m_links = new LinkPlottable(timeAxis, rowAxis);
    m_links->setLayer(layer);
    m_links->setName(QStringLiteral("message between ranks"));
    m_links->setLineWidth(kMessageLineWidth);
}

void MessageArrows::setDocument(std::shared_ptr<const TraceDocument> document) {
    m_document = std::move(document);
    m_reach = m_document ? MessageReach(m_document->trace) : MessageReach();
    m_arrows.clear();
    m_links->clearLinks();
}

void MessageArrows::setVisible(bool visible) {
    m_visible = visible;
    m_links->setVisible(visible);
}

void MessageArrows::refresh(const TimeView& view, const std::vector<Row>& rows, const std::vector<std::int32_t>& laneRows) {
    m_arrows.clear();
    if (m_document && m_visible) {
        m_arrows = visibleMessages(m_document->trace, rows, laneRows, view, {}, &m_reach);
    }
    std::vector<Link> links;
    links.reserve(m_arrows.size());
    for (const MessageArrow& arrow : m_arrows) {
        links.push_back({static_cast<double>(arrow.start), arrow.fromRow, static_cast<double>(arrow.end), arrow.toRow,
                         kMessageArrow, bundleLineWidth(arrow.count, kMessageLineWidth)});
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
    return tooltipHtml(describeMessageArrow(m_document->trace, m_arrows[hit->link], m_document->time));
}

} // namespace starscope::viewer
