#include "viewer/gui/chart/arrow_layer.hpp"

#include "viewer/gui/chart/link_plottable.hpp"

namespace starscope::viewer {

ArrowLayer::ArrowLayer(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer,
                       const ArrowStyle& style)
    : m_style(style), m_visible(style.visible) {
    m_links = new LinkPlottable(timeAxis, rowAxis);
    m_links->setLayer(layer);
    m_links->setName(style.name);
    m_links->setLineWidth(style.lineWidth);
    m_links->setVisible(style.visible);
}

// The plottable belongs to its plot, which deletes it.
ArrowLayer::~ArrowLayer() = default;

void ArrowLayer::setDocument(std::shared_ptr<const TraceDocument> document) {
    m_document = std::move(document);
    documentChanged(m_document.get());
    forgetLayout();
    m_links->clearLinks();
}

void ArrowLayer::setVisible(bool visible) {
    m_visible = visible;
    m_links->setVisible(visible);
}

void ArrowLayer::refresh(const TimeView& view, const std::vector<Row>& rows,
                         const std::vector<std::int32_t>& laneRows) {
    forgetLayout();
    m_links->setLinks(m_document && m_visible ? layOut(view, rows, laneRows) : std::vector<Link>{});
}

std::optional<std::size_t> ArrowLayer::linkAt(const QPointF& pos) const {
    if (!m_document || !m_visible) {
        return std::nullopt;
    }
    const auto hit = m_links->hitTest(pos);
    return hit ? std::optional<std::size_t>(hit->link) : std::nullopt;
}

} // namespace starscope::viewer
