// GanttPlot's rows: which lanes get one (rank folding, the lane filter), which rows are in view
// (scrolling and zooming them in the window), their labels, and the row under a point.
#include "viewer/gui/chart/gantt_plot.hpp"

#include "viewer/gui/chart/gantt_plottable.hpp"
#include "viewer/gui/chart/overlay_plottable.hpp"
#include "viewer/gui/chart/qt_support.hpp"
#include "viewer/gui/chart/span_selection.hpp"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace starscope::viewer {

const std::vector<Row>& GanttPlot::rows() const { return m_gantt->rows(); }

bool GanttPlot::isRankCollapsed(std::int32_t rank) const { return m_gantt->collapsedRanks().contains(rank); }

void GanttPlot::setRankCollapsed(std::int32_t rank, bool collapsed) {
    if (collapsed == isRankCollapsed(rank)) {
        return;
    }
    auto ranks = m_gantt->collapsedRanks();
    if (collapsed) {
        ranks.insert(rank);
    } else {
        ranks.erase(rank);
    }
    m_gantt->setCollapsedRanks(std::move(ranks));
    rowsReplaced();
}

void GanttPlot::setLaneFilter(const QString& filter) {
    const std::string text = filter.toStdString();
    if (text == m_gantt->laneFilter()) {
        return;
    }
    m_gantt->setLaneFilter(text);
    m_firstRow = 0.0;
    rowsReplaced();
}

QString GanttPlot::laneFilter() const { return QString::fromStdString(m_gantt->laneFilter()); }

void GanttPlot::rowsReplaced() {
    m_overlay->setRows(m_gantt->rows());
    rebuildRowTicks();
    replot(rpQueuedReplot);
    m_selection->refresh();
    emit rowsChanged();
}

void GanttPlot::setRowScrolling(bool enabled) {
    m_rowScrolling = enabled;
    m_rowsShown = 0.0;
    m_firstRow = 0.0;
    applyRowWindow();
    replot(rpQueuedReplot);
}

GanttPlot::RowWindow GanttPlot::rowWindow() const {
    const QCPRange range = yAxis->range();
    return {range.lower + 0.5, range.size(), rows().size()};
}

bool GanttPlot::applyRowWindow() {
    const double total = static_cast<double>(std::max<std::size_t>(1, rows().size()));
    double shown = total;
    if (m_rowScrolling) {
        const double fit = std::max(1.0, std::floor(axisRect()->rect().height() / kMinRowPx));
        shown = std::clamp(m_rowsShown > 0.0 ? m_rowsShown : fit, 1.0, total);
    }
    m_firstRow = std::clamp(m_firstRow, 0.0, total - shown);
    const QCPRange wanted(m_firstRow - 0.5, m_firstRow + shown - 0.5);
    if (yAxis->range() == wanted) {
        return false;
    }
    yAxis->setRange(wanted);
    emit rowWindowChanged();
    return true;
}

void GanttPlot::scrollRows(double rows) { scrollRowsTo(m_firstRow + rows); }

void GanttPlot::scrollRowsTo(double first) {
    m_firstRow = first;
    if (applyRowWindow()) {
        replot(rpQueuedReplot);
    }
}

void GanttPlot::zoomRows(double factor, double aroundPx) {
    if (!m_rowScrolling) {
        return;
    }
    const RowWindow now = rowWindow();
    const double total = static_cast<double>(std::max<std::size_t>(1, now.total));
    const double shown = std::clamp(now.shown * factor, 1.0, total);
    // The row under the cursor keeps its place on the screen.
    const double anchor = yAxis->pixelToCoord(aroundPx) + 0.5;
    const double share = now.shown > 0.0 ? (anchor - now.first) / now.shown : 0.0;
    m_rowsShown = shown;
    m_firstRow = anchor - share * shown;
    if (applyRowWindow()) {
        replot(rpQueuedReplot);
    }
}

void GanttPlot::rebuildRowTicks() {
    m_rowTicker->clear();
    const auto& rows = m_gantt->rows();
    // Every m_labelStep-th row is labelled, so labels never pile on each other; a rank's header
    // always is (it is what a click folds).
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (r % m_labelStep == 0 || rows[r].kind == RowKind::RankHeader) {
            m_rowTicker->addTick(static_cast<double>(r), toQString(rows[r].label));
        }
    }
    applyRowWindow();
}

bool GanttPlot::thinRowLabels() {
    const double count = std::max(1.0, yAxis->range().size());
    const double rowPx = std::max(1.0, static_cast<double>(axisRect()->rect().height()) / count);
    const double labelPx = QFontMetricsF(yAxis->tickLabelFont()).height();
    const auto step = static_cast<std::size_t>(std::max(1.0, std::ceil(labelPx / rowPx)));
    if (step == m_labelStep) {
        return false;
    }
    m_labelStep = step;
    rebuildRowTicks();
    return true;
}

std::optional<std::size_t> GanttPlot::rowAtY(double y) const {
    const double rowCoord = yAxis->pixelToCoord(y);
    const double rowIndex = std::round(rowCoord);
    if (rowIndex < 0.0 || rowIndex >= static_cast<double>(rows().size()) || std::abs(rowCoord - rowIndex) > kRowHalfHeight) {
        return std::nullopt;
    }
    return static_cast<std::size_t>(rowIndex);
}

std::optional<std::int32_t> GanttPlot::rankHeaderAt(const QPointF& pos) const {
    const QRect rect = axisRect()->rect();
    // The chart or the row labels left of it.
    if (!m_document || pos.y() < rect.top() || pos.y() > rect.bottom() || pos.x() > rect.right()) {
        return std::nullopt;
    }
    const auto row = rowAtY(pos.y());
    if (!row || rows()[*row].kind != RowKind::RankHeader) {
        return std::nullopt;
    }
    return rows()[*row].rank;
}

} // namespace starscope::viewer
