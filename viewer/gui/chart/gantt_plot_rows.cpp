// GanttPlot's rows: which lanes get one (group folding, the lane filter, the user's order), which
// rows are in view (scrolling and zooming them in the window), their labels, the row under a
// point and its menu.
#include "viewer/gui/chart/gantt_plot.hpp"

#include "viewer/gui/chart/gantt_plottable.hpp"
#include "viewer/gui/chart/overlay_plottable.hpp"
#include "viewer/gui/chart/qt_support.hpp"
#include "viewer/gui/chart/span_name_plottable.hpp"
#include "viewer/gui/chart/span_selection.hpp"

#include <QCursor>
#include <QFontMetricsF>
#include <QMenu>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <set>

namespace starscope::viewer {

const std::vector<Row>& GanttPlot::rows() const { return m_gantt->rows(); }

bool GanttPlot::isGroupFolded(GroupId group) const { return m_gantt->foldedGroups().contains(group); }

void GanttPlot::setGroupFolded(GroupId group, bool folded) {
    if (folded == isGroupFolded(group)) {
        return;
    }
    auto groups = m_gantt->foldedGroups();
    if (folded) {
        groups.insert(group);
    } else {
        groups.erase(group);
    }
    m_gantt->setFoldedGroups(std::move(groups));
    rowsReplaced();
}

void GanttPlot::setAllGroupsFolded(bool folded) {
    std::set<GroupId> groups;
    if (folded) {
        // The kind headers of the unfolded chart; a folded rank stays folded.
        for (const Row& row : chartRows(m_gantt->shownLanes(), {})) {
            if (row.kind == RowKind::KindHeader) {
                groups.insert(row.groupId());
            }
        }
        for (const GroupId& group : m_gantt->foldedGroups()) {
            if (group.kind == LaneGroup::Rank) {
                groups.insert(group);
            }
        }
    }
    setFoldedGroups(std::move(groups));
}

void GanttPlot::setFoldedGroups(std::set<GroupId> groups) {
    if (groups != m_gantt->foldedGroups()) {
        m_gantt->setFoldedGroups(std::move(groups));
        rowsReplaced();
    }
}

bool GanttPlot::canMoveRow(std::size_t row, LaneMove where) const {
    return m_gantt->laneOrder().canMove(rows(), row, where);
}

bool GanttPlot::moveRow(std::size_t row, LaneMove where) {
    if (row >= rows().size()) {
        return false;
    }
    const Row moved = rows()[row];
    if (!m_gantt->moveRow(row, where)) {
        return false;
    }
    rowsReplaced();
    // The row that shows what moved now: the same lane, or the same group's header (or, for a
    // headerless group, its first lane).
    const auto& now = rows();
    for (std::size_t r = 0; r < now.size(); ++r) {
        const bool same = moved.kind == RowKind::Lane && now[r].kind == RowKind::Lane
                              ? now[r].lane == moved.lane
                              : now[r].kind == moved.kind && now[r].groupId() == moved.groupId();
        if (same) {
            revealRow(r);
            break;
        }
    }
    return true;
}

void GanttPlot::resetLaneOrder() {
    if (laneOrderIsDefault()) {
        return;
    }
    m_gantt->resetLaneOrder();
    rowsReplaced();
}

bool GanttPlot::laneOrderIsDefault() const { return m_gantt->laneOrder().isDefault(); }

void GanttPlot::revealRow(std::size_t row) {
    const RowWindow now = rowWindow();
    const auto r = static_cast<double>(row);
    if (r < now.first) {
        scrollRowsTo(r);
    } else if (r > now.first + now.shown - 1.0) {
        scrollRowsTo(r - now.shown + 1.0);
    }
}

void GanttPlot::toggleGroupAt(std::size_t row) {
    if (row >= rows().size()) {
        return;
    }
    const Row& picked = rows()[row];
    if (picked.kind != RowKind::Lane) {
        setGroupFolded(picked.groupId(), !isGroupFolded(picked.groupId()));
        return;
    }
    // A lane folds the nearest header above it: its kind's, else its rank's.
    for (std::size_t r = row; r-- > 0;) {
        const Row& header = rows()[r];
        if (header.kind == RowKind::KindHeader && header.groupId() == picked.groupId()) {
            setGroupFolded(header.groupId(), true);
            return;
        }
        if (header.kind == RowKind::RankHeader && header.rank == picked.rank) {
            setGroupFolded(header.groupId(), true);
            return;
        }
    }
}

std::optional<std::size_t> GanttPlot::keyRow() const {
    if (const auto row = rowAt(mapFromGlobal(QCursor::pos()))) {
        return row;
    }
    if (const auto selected = selectedSpan()) {
        return selected->row;
    }
    return std::nullopt;
}

std::unique_ptr<QMenu> GanttPlot::rowMenu(std::size_t row) {
    auto menu = std::make_unique<QMenu>(this);
    if (row >= rows().size()) {
        return menu;
    }
    const auto addMove = [&](const QString& text, LaneMove where, const QKeySequence& keys) {
        QAction* action = menu->addAction(text, this, [this, row, where] { moveRow(row, where); });
        action->setShortcut(keys);
        action->setEnabled(canMoveRow(row, where));
    };
    addMove(tr("Move &up"), LaneMove::Up, QKeySequence(Qt::ALT | Qt::Key_Up));
    addMove(tr("Move &down"), LaneMove::Down, QKeySequence(Qt::ALT | Qt::Key_Down));
    addMove(tr("Move to &top"), LaneMove::ToTop, QKeySequence());
    menu->addSeparator();
    const Row& picked = rows()[row];
    if (picked.kind != RowKind::Lane) {
        menu->addAction(isGroupFolded(picked.groupId()) ? tr("&Unfold this group") : tr("&Fold this group"), this,
                        [this, row] { toggleGroupAt(row); })
            ->setShortcut(QKeySequence(Qt::Key_F));
    } else {
        QAction* fold = menu->addAction(tr("&Fold its group"), this, [this, row] { toggleGroupAt(row); });
        fold->setShortcut(QKeySequence(Qt::Key_F));
        const auto& all = rows();
        fold->setEnabled(std::any_of(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(row), [&](const Row& r) {
            return (r.kind == RowKind::KindHeader && r.groupId() == picked.groupId())
                   || (r.kind == RowKind::RankHeader && r.rank == picked.rank);
        }));
    }
    menu->addAction(tr("Fold every lane group"), this, [this] { setAllGroupsFolded(true); });
    menu->addAction(tr("Unfold every lane group"), this, [this] { setAllGroupsFolded(false); });
    menu->addSeparator();
    menu->addAction(tr("&Reset lane order"), this, &GanttPlot::resetLaneOrder)->setEnabled(!laneOrderIsDefault());
    return menu;
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
    QToolTip::hideText();
    m_overlay->setRows(m_gantt->rows());
    m_names->setRows(m_gantt->rows());
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
        // Zoomed rows (Ctrl+wheel) are never thinner than kMinRowPx either: zooming out stops at
        // as many rows as fit, which a smaller window lowers too.
        const double fit = std::max(1.0, std::floor(axisRect()->rect().height() / kMinRowPx));
        shown = std::clamp(m_rowsShown > 0.0 ? std::min(m_rowsShown, fit) : fit, 1.0, total);
    }
    m_firstRow = std::clamp(m_firstRow, 0.0, total - shown);
    const QCPRange wanted(m_firstRow - 0.5, m_firstRow + shown - 0.5);
    if (yAxis->range() == wanted) {
        return false;
    }
    yAxis->setRange(wanted);
    // A tooltip describes what was under the cursor, which other rows are now.
    QToolTip::hideText();
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
    // Labels keep m_labelStep rows apart, so they never pile on each other. A rank's header is
    // always labelled; then a lane outside any kind group with a header (the main thread, an
    // MPI thread), then a kind's header (what a click folds), each where it is clear of those
    // kept. The lanes of a kind are named in runs of m_labelStep from the first, one label per
    // run ("CPU 0-5"): a 256-worker picture named its workers from CPU 8 on, every fifth, and
    // left the main thread unnamed.
    const double step = static_cast<double>(m_labelStep);
    std::vector<double> kept;
    const auto clear = [&](double at) {
        return std::none_of(kept.begin(), kept.end(), [&](double k) { return std::abs(k - at) < step - 1e-9; });
    };
    const auto keep = [&](double at, const std::string& label) {
        kept.push_back(at);
        m_rowTicker->addTick(at, toQString(label));
    };
    std::set<GroupId> headed;
    for (const Row& row : rows) {
        if (row.kind == RowKind::KindHeader) {
            headed.insert(row.groupId());
        }
    }
    const auto inKind = [&](const Row& row) { return row.kind == RowKind::Lane && headed.contains(row.groupId()); };
    const auto label = [&](const Row& row) { return m_document ? shownRowLabel(*m_document, row) : row.label; };
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].kind == RowKind::RankHeader) {
            keep(static_cast<double>(r), rows[r].label);
        }
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].kind == RowKind::Lane && !inKind(rows[r]) && clear(static_cast<double>(r))) {
            keep(static_cast<double>(r), label(rows[r]));
        }
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].kind == RowKind::KindHeader && clear(static_cast<double>(r))) {
            keep(static_cast<double>(r), rows[r].label);
        }
    }
    for (std::size_t first = 0; first < rows.size();) {
        if (!inKind(rows[first])) {
            ++first;
            continue;
        }
        // A run: the lanes from first until the next row of another group.
        std::size_t end = first;
        while (end + 1 < rows.size() && inKind(rows[end + 1]) && rows[end + 1].groupId() == rows[first].groupId()) {
            ++end;
        }
        // Runs of m_labelStep lanes, the first grown until its label clears the one above.
        for (std::size_t from = first; from <= end;) {
            std::size_t to = std::min(end, from + m_labelStep - 1);
            // A remainder too short for a label of its own joins this run.
            if (end - to < m_labelStep) {
                to = end;
            }
            const auto centre = [&] { return (static_cast<double>(from) + static_cast<double>(to)) / 2.0; };
            while (!clear(centre()) && to < end) {
                ++to;
            }
            if (clear(centre())) {
                keep(centre(), from == to ? label(rows[from]) : rowRangeLabel(rows[from].label, rows[to].label));
            }
            from = to + 1;
        }
        first = end + 1;
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

std::optional<std::size_t> GanttPlot::rowAt(const QPointF& pos) const {
    const QRect rect = axisRect()->rect();
    // The chart or the row labels left of it.
    if (!m_document || pos.y() < rect.top() || pos.y() > rect.bottom() || pos.x() > rect.right() || pos.x() < 0) {
        return std::nullopt;
    }
    return rowAtY(pos.y());
}

std::optional<GroupId> GanttPlot::groupHeaderAt(const QPointF& pos) const {
    const auto row = rowAt(pos);
    if (!row || rows()[*row].kind == RowKind::Lane) {
        return std::nullopt;
    }
    return rows()[*row].groupId();
}

std::optional<std::int32_t> GanttPlot::rankHeaderAt(const QPointF& pos) const {
    const auto group = groupHeaderAt(pos);
    return group && group->kind == LaneGroup::Rank ? std::optional<std::int32_t>(group->rank) : std::nullopt;
}

} // namespace starscope::viewer
