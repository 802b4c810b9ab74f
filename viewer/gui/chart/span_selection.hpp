#pragma once
// The chart's selected span: framed on its row (highlight_plottable.hpp) and, when it runs a
// task, arrows from the tasks it waited for and to the tasks that waited for it
// (link_plottable.hpp). A click on an arrow follows it to the task at its other end; the
// details panel lists the same tasks as links (taskAnchor / taskOfAnchor).

#include "viewer/core/document/task_graph.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <QColor>
#include <QString>
#include <QUrl>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QCPAxis;
class QPointF;

namespace starscope::viewer {

class HighlightPlottable;
class LinkPlottable;

inline const QColor kPredecessorArrow(25, 75, 200);
inline const QColor kSuccessorArrow(170, 40, 170);

class SpanSelection {
public:
    // The chart row (its centre on the row axis) showing a lane; nullopt when none does.
    using RowOfLane = std::function<std::optional<double>(std::int32_t lane)>;

    // Adds its plottables to the axes' plot, on layer.
    SpanSelection(QCPAxis* timeAxis, QCPAxis* rowAxis, const QString& layer, RowOfLane rowOfLane);

    // A new trace: nothing selected.
    void setDocument(std::shared_ptr<const TraceDocument> document);
    void select(std::optional<SpanRef> span);
    const std::optional<SpanRef>& selected() const { return m_selected; }
    // The task the selected span runs, if it runs one.
    std::optional<tracer::TaskIndex> selectedTask() const;
    // Lays the frame and the arrows out again (the rows moved: a rank collapsed or expanded).
    void refresh();

    // The task at the far end of the arrow under pos: a click there selects it. The selected
    // task's own end of an arrow is left to the chart (it is the selected bar).
    std::optional<tracer::TaskIndex> followAt(const QPointF& pos) const;
    // "job 12 (conv_fwd), a predecessor: click to select it", for the arrow under pos.
    QString tooltipAt(const QPointF& pos) const;

    HighlightPlottable* highlight() const { return m_highlight; }
    LinkPlottable* links() const { return m_links; }
    // The arrows' far-end tasks, one per link of links(), predecessors first.
    const std::vector<tracer::TaskIndex>& linkedTasks() const { return m_linked; }

private:
    std::optional<std::size_t> linkAt(const QPointF& pos) const;

    std::shared_ptr<const TraceDocument> m_document;
    RowOfLane m_rowOfLane;
    HighlightPlottable* m_highlight = nullptr;
    LinkPlottable* m_links = nullptr;
    std::optional<SpanRef> m_selected;
    std::vector<tracer::TaskIndex> m_linked;
    std::size_t m_predecessorLinks = 0;   // the first links of m_links point at the selected task
};

// "job 12 conv_fwd" for a task, as the details and tooltips name it.
QString taskName(const TraceDocument& document, tracer::TaskIndex task);
// The details' lines for a task's dependencies: the tasks it waited for and those that waited
// for it, each a link (taskAnchor) when it ran, so a click selects it.
QString dependencyHtml(const TraceDocument& document, tracer::TaskIndex task);
QString taskAnchor(tracer::TaskIndex task);
std::optional<tracer::TaskIndex> taskOfAnchor(const QUrl& url);

} // namespace starscope::viewer
