#pragma once
// The Gantt chart widget: rows, barrier/marker overlay, adaptive time axis and legend on one
// QCustomPlot, with Tracy/Perfetto navigation (wheel zoom around the cursor, drag to pan,
// right-drag or Ctrl+drag rubber-band zoom, Shift+drag selects a range, W/S/A/D, Home).
// The same widget renders headless images, so the picture on screen and on disk agree.

#include "viewer/core/layout/lane_order.hpp"
#include "viewer/core/layout/time_view.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <qcustomplot.h>

#include <array>
#include <memory>
#include <optional>
#include <set>

class QMenu;

namespace starscope::viewer {

class ArrowLayer;
class CriticalPathLinks;
class GanttPlottable;
class MessageArrows;
class TransferArrows;
class OverlayPlottable;
class SpanNamePlottable;
class SpanSelection;
class TimeTicker;

struct SpanHit {
    std::size_t row = 0;
    std::size_t lane = 0;
    std::size_t level = 0;
    std::size_t span = 0;
    std::size_t nearby = 1;   // spans within the fold width around the cursor

    bool operator==(const SpanHit&) const = default;
};

class GanttPlot : public QCustomPlot {
    Q_OBJECT
public:
    // The thinnest a row gets in the window's chart: a text line, so every row stays readable
    // and clickable; the rows that do not fit scroll.
    static constexpr double kMinRowPx = 14.0;

    explicit GanttPlot(QWidget* parent = nullptr);
    ~GanttPlot() override;

    void setDocument(std::shared_ptr<const TraceDocument> document);
    const std::shared_ptr<const TraceDocument>& document() const { return m_document; }
    void setBarriers(std::shared_ptr<const Barriers> barriers);
    // Each rank's own barriers (JobAndRankBarriers::ranks), banded in that rank's rows.
    void setRankBarriers(std::shared_ptr<const Barriers> barriers);

    // The rows drawn, top to bottom (group headers included); row r is centred on value r.
    const std::vector<Row>& rows() const;
    // A group (a rank of a StarPU-MPI trace, a kind of lanes: lane_layout.hpp) shown as its
    // header row alone, or with all its lanes. Clicking a header (in the chart or its label), F
    // over it or its row menu toggles it.
    void setGroupFolded(GroupId group, bool folded);
    bool isGroupFolded(GroupId group) const;
    void setRankCollapsed(std::int32_t rank, bool collapsed) { setGroupFolded({rank, LaneGroup::Rank}, collapsed); }
    bool isRankCollapsed(std::int32_t rank) const { return isGroupFolded({rank, LaneGroup::Rank}); }
    // Exactly these groups folded (foldedBy names them for a --fold request).
    void setFoldedGroups(std::set<GroupId> groups);
    // Folds every kind group that has a header (ranks stay as they are), or unfolds every group.
    void setAllGroupsFolded(bool folded);
    // The group whose header row is at a widget position (chart or row label), if any.
    std::optional<GroupId> groupHeaderAt(const QPointF& pos) const;
    std::optional<std::int32_t> rankHeaderAt(const QPointF& pos) const;
    // The row at a widget position, in the chart or on its label.
    std::optional<std::size_t> rowAt(const QPointF& pos) const;
    // Moves what a row shows (a lane, a group: lane_order.hpp) and keeps it in view; the order
    // stays through filters and folds until resetLaneOrder or another trace.
    bool moveRow(std::size_t row, LaneMove where);
    bool canMoveRow(std::size_t row, LaneMove where) const;
    void resetLaneOrder();
    bool laneOrderIsDefault() const;
    // The row's menu (right-click on a row or its label): move, fold, reset the order.
    std::unique_ptr<QMenu> rowMenu(std::size_t row);
    // Only the lanes whose label or group matches the filter (filterRows: comma-separated
    // terms, any case); an empty one shows every lane.
    void setLaneFilter(const QString& filter);
    QString laneFilter() const;
    // Rows of a height of their own: with it on (the window's chart), rows are never thinner
    // than kMinRowPx and the rows that do not fit are scrolled to (scrollRows, Shift+wheel,
    // Page Up/Down) or zoomed (zoomRows, Ctrl+wheel); off (pictures), every row is drawn.
    void setRowScrolling(bool enabled);
    // The rows in view: the first (a row coordinate, fractional when zoomed), how many, and the
    // rows there are.
    struct RowWindow {
        double first = 0.0;
        double shown = 0.0;
        std::size_t total = 0;
    };
    RowWindow rowWindow() const;
    void scrollRows(double rows);
    void scrollRowsTo(double first);
    // factor < 1 shows fewer, taller rows; the row under aroundPx (a widget y) stays put.
    void zoomRows(double factor, double aroundPx);
    // StarPU-MPI messages as arrows between the ranks' MPI thread rows (shown by default).
    void setMessagesVisible(bool visible);
    bool messagesVisible() const;
    MessageArrows* messages() const { return m_messages.get(); }
    // Data transfers between memory nodes as arrows between their rows (shown by default).
    void setTransfersVisible(bool visible);
    bool transfersVisible() const;
    TransferArrows* transfers() const { return m_transfers.get(); }
    // The critical path (critical_path_links.hpp), hidden by default.
    void setCriticalPathVisible(bool visible);
    bool criticalPathVisible() const;
    CriticalPathLinks* criticalPath() const { return m_criticalPath.get(); }

    // The line above the chart: source, lanes, task counts and the run's length.
    QString title() const;
    TimeView view() const;
    // Shows [startNs, endNs], kept inside the trace, and schedules a replot.
    void setView(double startNs, double endNs);
    void fitAll();
    // Lays the plot out at its size as a replot does first (the key wrapped, then the layout),
    // without drawing into the widget's buffers: a picture drawn next (toPixmap, savePdf) draws
    // the layers itself, so a headless render drew the whole chart twice.
    void layOutForPicture();
    void zoomBy(double factor, double aroundPx);
    void panByFraction(double fraction);
    std::optional<std::pair<double, double>> selection() const;
    void setSelection(std::optional<std::pair<double, double>> rangeNs);

    // The span under a widget position, if any.
    std::optional<SpanHit> hitTest(const QPointF& pos) const;
    // Tooltip text for a hit: codelet, job id, worker, start, duration, batch
    // (span_description.hpp).
    QString describe(const SpanHit& hit) const;
    // Rich text with all the task's fields, for the details panel.
    QString details(const SpanHit& hit) const;

    GanttPlottable* gantt() const { return m_gantt; }
    OverlayPlottable* overlay() const { return m_overlay; }
    SpanNamePlottable* names() const { return m_names; }

    // The selected span: framed, with arrows from the tasks its task waited for and to those
    // that waited for it (span_selection.hpp). A click selects; a click on an arrow, a
    // dependency in the details or a search match selects that task.
    void selectSpan(std::optional<SpanHit> hit);
    // Selects the span that ran task and brings it into view; false when no row shows it.
    bool selectTask(tracer::TaskIndex task);
    std::optional<SpanHit> selectedSpan() const;
    std::optional<tracer::TaskIndex> selectedTask() const;
    SpanSelection* spanSelection() const { return m_selection.get(); }
    // Brings [startNs, endNs] into view: centred at the current zoom when it is not wholly
    // visible, the view widened only when it is wider than the view.
    void reveal(double startNs, double endNs);

signals:
    void viewChanged(double startNs, double endNs);
    // The rows changed (a rank collapsed or expanded): row indices mean other lanes now.
    void rowsChanged();
    // The rows in view moved or were zoomed (rowWindow()).
    void rowWindowChanged();
    void spanClicked(const starscope::viewer::SpanHit& hit);
    // A span was selected (by a click, an arrow, a dependency link or a search).
    void spanSelected(const starscope::viewer::SpanHit& hit);
    void rangeSelected(double fromNs, double toNs);
    void selectionCleared();

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    enum class Drag { None, Pan, Zoom, Select };

    void rebuildRowsAndLegend();
    void rebuildRowTicks();
    // The new rows after a fold, unfold or filter: overlay, labels, selection.
    void rowsReplaced();
    // Puts the rows' window (m_firstRow, m_rowsShown) on the row axis for the axis rect's
    // height; true when the axis range changed.
    bool applyRowWindow();
    // Sets the row label spacing to the rows' height in pixels; true when it changed.
    bool thinRowLabels();
    std::optional<std::size_t> rowAtY(double y) const;
    // The row keys act on: the one under the cursor, else the selected task's.
    std::optional<std::size_t> keyRow() const;
    void toggleGroupAt(std::size_t row);
    void revealRow(std::size_t row);
    void wrapLegend();
    void replotOverlay();
    double timeAt(double px) const;
    // The messages, the transfers and the critical path: laid out alike for every frame.
    std::array<ArrowLayer*, 3> arrowLayers() const;

    std::shared_ptr<const TraceDocument> m_document;
    GanttPlottable* m_gantt = nullptr;
    OverlayPlottable* m_overlay = nullptr;
    SpanNamePlottable* m_names = nullptr;
    std::unique_ptr<SpanSelection> m_selection;
    std::unique_ptr<MessageArrows> m_messages;
    std::unique_ptr<TransferArrows> m_transfers;
    std::unique_ptr<CriticalPathLinks> m_criticalPath;
    QSharedPointer<TimeTicker> m_timeTicker;
    QSharedPointer<QCPAxisTickerText> m_rowTicker;
    QCPTextElement* m_title = nullptr;
    Drag m_drag = Drag::None;
    QPointF m_pressPos;
    TimeView m_pressView;
    bool m_moved = false;
    std::size_t m_labelStep = 1;   // one row label every this many rows (thinRowLabels)
    bool m_rowScrolling = false;
    double m_firstRow = 0.0;       // the row at the top of the chart
    double m_rowsShown = 0.0;      // rows in view when zoomed (zoomRows); 0: as many as fit
};

} // namespace starscope::viewer
