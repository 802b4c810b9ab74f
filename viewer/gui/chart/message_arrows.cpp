#include "viewer/gui/chart/message_arrows.hpp"

#include "viewer/gui/chart/link_plottable.hpp"
#include "viewer/gui/chart/qt_support.hpp"

namespace starscope::viewer {

namespace {

constexpr double kMessageLineWidth = 1.5;

} // namespace

MessageArrows::MessageArrows(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer)
    : ArrowLayer(timeAxis, rowAxis, layer, {QStringLiteral("message between ranks"), kMessageLineWidth, true}) {}

void MessageArrows::documentChanged(const TraceDocument* document) {
    m_reach = document != nullptr ? MessageReach(document->trace) : MessageReach();
}

std::vector<Link> MessageArrows::layOut(const TimeView& view, const std::vector<Row>& rows,
                                        const std::vector<std::int32_t>& laneRows) {
    m_arrows = visibleMessages(document().trace, rows, laneRows, view, {}, &m_reach);
    std::vector<Link> links;
    links.reserve(m_arrows.size());
    for (const MessageArrow& arrow : m_arrows) {
        links.push_back({static_cast<double>(arrow.start), arrow.fromRow, static_cast<double>(arrow.end), arrow.toRow,
                         kMessageArrow, bundleLineWidth(arrow.count, lineWidth())});
    }
    return links;
}

QString MessageArrows::tooltipAt(const QPointF& pos) const {
    const auto link = linkAt(pos);
    if (!link || *link >= m_arrows.size()) {
        return {};
    }
    return tooltipHtml(describeMessageArrow(document().trace, m_arrows[*link], document().time));
}

} // namespace starscope::viewer
