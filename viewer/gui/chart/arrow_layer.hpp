#pragma once
// What the chart's arrow layers share: a LinkPlottable of their own on the chart's overlay, the
// document they draw, shown or hidden as a whole, and laid out anew for each frame's view and
// rows. A layer says only what it draws (layOut) and, when its arrows have tooltips, what an
// arrow stands for; MessageArrows, TransferArrows and CriticalPathLinks are the three.

#include "viewer/core/layout/lane_layout.hpp"
#include "viewer/core/layout/time_view.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <QString>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

class QCPAxis;
class QPointF;

namespace starscope::viewer {

class LinkPlottable;
struct Link;

// How a layer's plottable looks: its name (the key's, the tests'), its line width in pixels
// (one event's, when bundles are drawn thicker), and whether it is shown from the start.
struct ArrowStyle {
    QString name;
    double lineWidth = 2.0;
    bool visible = true;
};

class ArrowLayer {
public:
    // Adds its plottable to the axes' plot, on layer.
    ArrowLayer(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer, const ArrowStyle& style);
    virtual ~ArrowLayer();
    ArrowLayer(const ArrowLayer&) = delete;
    ArrowLayer& operator=(const ArrowLayer&) = delete;

    void setDocument(std::shared_ptr<const TraceDocument> document);
    void setVisible(bool visible);
    bool isVisible() const { return m_visible; }
    // Lays the arrows out for the view and the rows drawn (GanttPlottable's rows and rowOfLane:
    // laneRows maps a lane to its chart row, -1 when not shown); none while hidden.
    void refresh(const TimeView& view, const std::vector<Row>& rows,
                 const std::vector<std::int32_t>& laneRows);

    LinkPlottable* links() const { return m_links; }

protected:
    // The links of the view, with the layer shown and a document set.
    virtual std::vector<Link> layOut(const TimeView& view, const std::vector<Row>& rows,
                                     const std::vector<std::int32_t>& laneRows) = 0;
    // Forgets what the last layout kept beside its links (a new document, hidden arrows).
    virtual void forgetLayout() {}
    // Prepares what a document's layouts reuse; document is null when the chart has none.
    virtual void documentChanged(const TraceDocument* /*document*/) {}

    const TraceDocument& document() const { return *m_document; }
    double lineWidth() const { return m_style.lineWidth; }
    // The index of the link under pos while shown; nullopt when none.
    std::optional<std::size_t> linkAt(const QPointF& pos) const;

private:
    std::shared_ptr<const TraceDocument> m_document;
    ArrowStyle m_style;
    LinkPlottable* m_links = nullptr;
    bool m_visible = true;
};

} // namespace starscope::viewer
