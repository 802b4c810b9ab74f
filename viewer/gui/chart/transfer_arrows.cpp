#include "viewer/gui/chart/transfer_arrows.hpp"

#include "viewer/gui/chart/link_plottable.hpp"
#include "viewer/gui/chart/qt_support.hpp"

namespace starscope::viewer {

namespace {

constexpr double kTransferLineWidth = 1.2;

} // namespace

QColor transferColour(tracer::TransferKind kind) {
    switch (kind) {
    case tracer::TransferKind::Fetch: return {20, 90, 200};
    case tracer::TransferKind::TaskPrefetch: return {0, 150, 200};
    case tracer::TransferKind::Prefetch: return {130, 60, 200};
    case tracer::TransferKind::IdleFetch: return {110, 130, 160};
    }
    return {20, 90, 200};
}

TransferArrows::TransferArrows(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer) {
    m_links = new LinkPlottable(timeAxis, rowAxis);
    m_links->setLayer(layer);
    m_links->setName(QStringLiteral("data transfer between memory nodes"));
    m_links->setLineWidth(kTransferLineWidth);
}

void TransferArrows::setDocument(std::shared_ptr<const TraceDocument> document) {
    m_document = std::move(document);
    m_arrows.clear();
    m_links->clearLinks();
}

void TransferArrows::setVisible(bool visible) {
    m_visible = visible;
    m_links->setVisible(visible);
}

void TransferArrows::refresh(const TimeView& view, const std::vector<std::int32_t>& laneRows) {
    m_arrows.clear();
    if (m_document && m_visible) {
        m_arrows = visibleTransfers(m_document->trace, laneRows, view);
    }
    std::vector<Link> links;
    links.reserve(m_arrows.size());
    for (const TransferArrow& arrow : m_arrows) {
        const auto& first = m_document->trace.transfers[arrow.first];
        links.push_back({static_cast<double>(arrow.start), arrow.fromRow, static_cast<double>(arrow.end), arrow.toRow,
                         transferColour(first.kind), bundleLineWidth(arrow.count, kTransferLineWidth)});
    }
    m_links->setLinks(std::move(links));
}

QString TransferArrows::tooltipAt(const QPointF& pos) const {
    if (!m_document || !m_visible) {
        return {};
    }
    const auto hit = m_links->hitTest(pos);
    if (!hit || hit->link >= m_arrows.size()) {
        return {};
    }
    return tooltipHtml(describeTransferArrow(m_document->trace, m_arrows[hit->link], m_document->time));
}

} // namespace starscope::viewer
