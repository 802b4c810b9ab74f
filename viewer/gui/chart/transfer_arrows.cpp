#include "viewer/gui/chart/transfer_arrows.hpp"

#include "viewer/gui/chart/link_plottable.hpp"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace starscope::viewer {

namespace {

// An arrow standing for n transfers is drawn thicker, by the log of n: a busy link reads as
// busy without one arrow covering its neighbours.
double lineWidthFor(std::size_t count) {
    return std::min(1.2 + std::log2(static_cast<double>(std::max<std::size_t>(count, 1))) * 0.6, 4.0);
}

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
    m_links->setLineWidth(1.2);
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
                         transferColour(first.kind), lineWidthFor(arrow.count)});
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
    QStringList lines;
    for (const auto& line : describeTransferArrow(m_document->trace, m_arrows[hit->link], m_document->time)) {
        lines << QString::fromStdString(line).toHtmlEscaped();
    }
    if (!lines.isEmpty()) {
        lines[0] = QStringLiteral("<b>%1</b>").arg(lines[0]);
    }
    return lines.join(QStringLiteral("<br>"));
}

} // namespace starscope::viewer
