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

TransferArrows::TransferArrows(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer)
    : ArrowLayer(timeAxis, rowAxis, layer,
                 {QStringLiteral("data transfer between memory nodes"), kTransferLineWidth, true}) {}

std::vector<Link> TransferArrows::layOut(const TimeView& view, const std::vector<Row>& /*rows*/,
                                         const std::vector<std::int32_t>& laneRows) {
    m_arrows = visibleTransfers(document().trace, laneRows, view);
    std::vector<Link> links;
    links.reserve(m_arrows.size());
    for (const TransferArrow& arrow : m_arrows) {
        const auto& first = document().trace.transfers[arrow.first];
        links.push_back({static_cast<double>(arrow.start), arrow.fromRow, static_cast<double>(arrow.end), arrow.toRow,
                         transferColour(first.kind), bundleLineWidth(arrow.count, lineWidth())});
    }
    return links;
}

QString TransferArrows::tooltipAt(const QPointF& pos) const {
    const auto link = linkAt(pos);
    if (!link || *link >= m_arrows.size()) {
        return {};
    }
    return tooltipHtml(describeTransferArrow(document().trace, m_arrows[*link], document().time));
}

} // namespace starscope::viewer
