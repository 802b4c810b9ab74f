#include "viewer/gui/chart/gantt_plot.hpp"

#include "tracer/model/time_unit.hpp"
#include "viewer/core/drawing/overview_profile.hpp"
#include "viewer/core/drawing/span_folding.hpp"
#include "viewer/core/format/time_format.hpp"
#include "viewer/gui/chart/critical_path_links.hpp"
#include "viewer/gui/chart/gantt_plottable.hpp"
#include "viewer/gui/chart/link_plottable.hpp"
#include "viewer/gui/chart/message_arrows.hpp"
#include "viewer/gui/chart/overlay_plottable.hpp"
#include "viewer/gui/chart/qt_support.hpp"
#include "viewer/gui/chart/span_description.hpp"
#include "viewer/gui/chart/span_name_plottable.hpp"
#include "viewer/gui/chart/span_selection.hpp"
#include "viewer/gui/chart/time_ticker.hpp"
#include "viewer/gui/chart/transfer_arrows.hpp"

#include <QMenu>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <set>

namespace starscope::viewer {

namespace {

constexpr double kClickSlopPx = 3.0;
constexpr double kKeyZoom = 1.5;
constexpr double kKeyPan = 0.1;
// Rows scrolled per wheel step (Shift+wheel).
constexpr double kWheelRows = 3.0;

ShownBarriers shownBarriers(const OverlayPlottable& overlay) {
    return {overlay.barriers().get(), overlay.rankBarriers().get()};
}

} // namespace

GanttPlot::GanttPlot(QWidget* parent) : QCustomPlot(parent) {
    setAutoAddPlottableToLegend(false);
    setNotAntialiasedElements(QCP::aeAll);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setInteractions(QCP::Interactions());

    m_timeTicker = QSharedPointer<TimeTicker>::create();
    xAxis->setTicker(m_timeTicker);
    xAxis->setLabel(QStringLiteral("time since trace start"));
    xAxis->grid()->setPen(QPen(QColor(225, 225, 225), 1));
    xAxis->grid()->setZeroLinePen(Qt::NoPen);

    m_rowTicker = QSharedPointer<QCPAxisTickerText>::create();
    yAxis->setTicker(m_rowTicker);
    yAxis->setRangeReversed(true);
    yAxis->setSubTicks(false);
    yAxis->setTickLength(0, 0);
    yAxis->grid()->setVisible(false);

    // Overlay on its own buffered layer: the rubber band and selection repaint only it, and
    // its labels on the layer above, over the arrows drawn on the overlay.
    layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmBuffered);
    addLayer(QStringLiteral("labels"), layer(QStringLiteral("overlay")), limAbove);
    layer(QStringLiteral("labels"))->setMode(QCPLayer::lmBuffered);
    m_gantt = new GanttPlottable(xAxis, yAxis);
    m_overlay = new OverlayPlottable(xAxis, yAxis);
    m_overlay->setLayer(QStringLiteral("overlay"));
    m_overlay->labelPlottable()->setLayer(QStringLiteral("labels"));
    // Names over the rows (drawn after them, on their layer); the selection over everything.
    m_names = new SpanNamePlottable(xAxis, yAxis);
    m_selection = std::make_unique<SpanSelection>(
        xAxis, yAxis, QStringLiteral("overlay"), [this](std::int32_t lane) -> std::optional<double> {
            // Its own row, or its rank's header when the rank is collapsed.
            const std::int32_t row = m_gantt->rowOfLane(lane);
            return row < 0 ? std::nullopt : std::optional<double>(row);
        });
    // Over the bands, so an arrow stays readable inside a barrier.
    m_messages = std::make_unique<MessageArrows>(xAxis, yAxis, QStringLiteral("overlay"));
    m_transfers = std::make_unique<TransferArrows>(xAxis, yAxis, QStringLiteral("overlay"));
    m_criticalPath = std::make_unique<CriticalPathLinks>(xAxis, yAxis, QStringLiteral("overlay"));

    m_title = new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize(), QFont::Bold));
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, m_title);

    axisRect()->insetLayout()->take(legend);
    plotLayout()->addElement(2, 0, legend);
    plotLayout()->setRowStretchFactor(2, 0.001);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(8);
    legend->setBorderPen(Qt::NoPen);
    legend->setIconSize(14, 10);
    legend->setVisible(true);
    // Every replot lays out at the viewport's size (the window's, or a picture's): the key is
    // wrapped for that size just before.
    connect(this, &QCustomPlot::beforeReplot, this, &GanttPlot::wrapLegend);
    // The arrows in view are picked per frame, once the axis rect has its size: which ones
    // fold together follows the zoom and the width.
    connect(this, &QCustomPlot::afterLayout, this,
            [this] {
                // The rows in view and their labels depend on the axis rect's height, known only
                // now: a change lays the plot out once more (the labels' width sets the left
                // margin).
                const bool moved = applyRowWindow();
                if (thinRowLabels() || moved) {
                    updateLayout();
                    return;
                }
                for (ArrowLayer* arrows : arrowLayers()) {
                    arrows->refresh(view(), m_gantt->rows(), m_gantt->laneRows());
                }
            });
}

GanttPlot::~GanttPlot() = default;

std::array<ArrowLayer*, 3> GanttPlot::arrowLayers() const {
    return {m_messages.get(), m_transfers.get(), m_criticalPath.get()};
}

void GanttPlot::layOutForPicture() {
    wrapLegend();
    updateLayout();
}

void GanttPlot::setMessagesVisible(bool visible) {
    m_messages->setVisible(visible);
    replot(rpQueuedReplot);
}

bool GanttPlot::messagesVisible() const { return m_messages->isVisible(); }

void GanttPlot::setTransfersVisible(bool visible) {
    m_transfers->setVisible(visible);
    replot(rpQueuedReplot);
}

bool GanttPlot::transfersVisible() const { return m_transfers->isVisible(); }

void GanttPlot::setCriticalPathVisible(bool visible) {
    m_criticalPath->setVisible(visible);
    replot(rpQueuedReplot);
}

bool GanttPlot::criticalPathVisible() const { return m_criticalPath->isVisible(); }

void GanttPlot::setDocument(std::shared_ptr<const TraceDocument> document) {
    m_document = std::move(document);
    m_gantt->setDocument(m_document);
    m_timeTicker->setTimeScale(m_document ? m_document->time : TimeScale{});
    m_overlay->setDocument(m_document);
    m_names->setDocument(m_document);
    m_selection->setDocument(m_document);
    for (ArrowLayer* arrows : arrowLayers()) {
        arrows->setDocument(m_document);
    }
    rebuildRowsAndLegend();
    fitAll();
}

void GanttPlot::setBarriers(std::shared_ptr<const Barriers> barriers) {
    m_overlay->setBarriers(std::move(barriers));
    replotOverlay();
}

void GanttPlot::setRankBarriers(std::shared_ptr<const Barriers> barriers) {
    m_overlay->setRankBarriers(std::move(barriers));
    replotOverlay();
}

void GanttPlot::rebuildRowsAndLegend() {
    m_overlay->setRows(m_gantt->rows());
    m_names->setRows(m_gantt->rows());
    rebuildRowTicks();
    legend->clearItems();
    if (!m_document) {
        m_title->setText(QString());
        replot(rpQueuedReplot);
        return;
    }
    for (const auto& entry : m_document->palette.legend()) {
        legend->addItem(new SwatchLegendItem(legend, toQColor(entry.colour), toQString(entry.label)));
    }
    legend->addItem(new SwatchLegendItem(legend, kBarrierFill, QStringLiteral("barrier (no worker executing)"), true));
    if (!m_document->trace.ranks.empty()) {
        legend->addItem(new SwatchLegendItem(legend, kRankBarrierFill,
                                             QStringLiteral("rank barrier (no worker of the rank executing)"), true));
    }
    if (!m_document->trace.messages.empty()) {
        legend->addItem(new SwatchLegendItem(legend, kMessageArrow, QStringLiteral("message between ranks (arrow)")));
    }
    // One entry per kind of transfer the trace has, in the kinds' order.
    std::set<tracer::TransferKind> kinds;
    for (const auto& transfer : m_document->trace.transfers) {
        kinds.insert(transfer.kind);
    }
    for (const auto kind : kinds) {
        legend->addItem(new SwatchLegendItem(legend, transferColour(kind),
                                             QStringLiteral("%1 (transfer arrow)").arg(toQString(std::string(tracer::nameOf(kind))))));
    }
    wrapLegend();
    const auto& trace = m_document->trace;
    // Trace times are ticks (ns, or finer for some Paje traces: time_unit.hpp).
    const double lengthNs = m_document->time.durationNs(static_cast<double>(m_document->length));
    m_title->setText(QStringLiteral("%1  -  %2 lanes, %3, %4")
                         .arg(toQString(m_document->source))
                         .arg(trace.lanes.size())
                         .arg(toQString(taskCountText(*m_document)))
                         .arg(QString::fromStdString(formatDuration(lengthNs))));
}

QString GanttPlot::title() const { return m_title->text(); }

// As many legend columns as the widest entry allows in the plot's width, so a narrow window
// wraps the key onto more rows instead of cutting entries ("Schedu", "Idl").
void GanttPlot::wrapLegend() {
    std::vector<QSize> hints;
    // itemCount() counts the grid's cells, and the last row may have empty ones.
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (const QCPAbstractLegendItem* item = legend->item(i)) {
            hints.push_back(item->minimumOuterSizeHint());
        }
    }
    if (hints.empty()) {
        return;
    }
    const int entries = static_cast<int>(hints.size());
    const QMargins margins = legend->margins();
    // The larger of viewport and widget: a hidden plot resized for a picture (--render) keeps
    // its first viewport until drawn, a shown one has both equal.
    const int plotWidth = std::max(viewport().width(), width());
    const int plotHeight = std::max(viewport().height(), height());
    const int usable = std::max(1, plotWidth - margins.left() - margins.right());
    // Columns of the widest entry's width: the grid shares its width evenly among columns
    // rather than by each column's own widest, so narrower packings get entries cut.
    int widest = 1;
    for (const QSize& hint : hints) {
        widest = std::max(widest, hint.width());
    }
    int columns = std::clamp((usable + legend->columnSpacing()) / (widest + legend->columnSpacing()), 1, entries);
    // The chart comes first: in a very small plot the key keeps to half the height
    // (more columns, entries shortened) rather than leaving the rows a few pixels tall.
    int tallest = 1;
    for (const QSize& hint : hints) {
        tallest = std::max(tallest, hint.height());
    }
    // Only once the plot has its real size: a panel not laid out yet is a few pixels tall, and
    // one long row of entries would widen the whole comparison window.
    if (testAttribute(Qt::WA_Resized)) {
        const int maxRows = std::max(1, plotHeight / 2 / (tallest + legend->rowSpacing()));
        columns = std::max(columns, (entries + maxRows - 1) / maxRows);
    }
    if (columns != legend->wrap()) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

void GanttPlot::resizeEvent(QResizeEvent* event) {
    QCustomPlot::resizeEvent(event);
    wrapLegend();
}

TimeView GanttPlot::view() const { return m_gantt->currentView(); }

double GanttPlot::timeAt(double px) const { return view().toTime(px); }

void GanttPlot::setView(double startNs, double endNs) {
    TimeView v = view().showing(startNs, endNs, kMinWindowNs);
    if (m_document) {
        const auto begin = static_cast<double>(m_document->trace.begin);
        const auto end = static_cast<double>(m_document->trace.end);
        v = v.clampedTo(begin, end, kMinWindowNs, kFitMarginShare * std::max(end - begin, kMinWindowNs));
    }
    if (xAxis->range() != QCPRange(v.startNs, v.endNs)) {
        // The tooltip described a span at the old zoom: it is not the one under the cursor now.
        QToolTip::hideText();
    }
    xAxis->setRange(v.startNs, v.endNs);
    replot(rpQueuedReplot);
    emit viewChanged(v.startNs, v.endNs);
}

void GanttPlot::fitAll() {
    m_rowsShown = 0.0;
    m_firstRow = 0.0;
    applyRowWindow();
    if (!m_document) {
        xAxis->setRange(0.0, 1e6);
        replot(rpQueuedReplot);
        return;
    }
    const auto [from, to] = fitAllWindow(*m_document);
    setView(from, to);
}

void GanttPlot::zoomBy(double factor, double aroundPx) {
    const TimeView v = view().zoomedAround(aroundPx, factor);
    setView(v.startNs, v.endNs);
}

void GanttPlot::panByFraction(double fraction) {
    const TimeView current = view();
    const TimeView v = current.pannedBy(fraction * current.widthPx);
    setView(v.startNs, v.endNs);
}

std::optional<std::pair<double, double>> GanttPlot::selection() const { return m_overlay->selection(); }

void GanttPlot::setSelection(std::optional<std::pair<double, double>> rangeNs) {
    if (rangeNs && rangeNs->first > rangeNs->second) {
        std::swap(rangeNs->first, rangeNs->second);
    }
    m_overlay->setSelection(rangeNs);
    replotOverlay();
    if (rangeNs) {
        emit rangeSelected(rangeNs->first, rangeNs->second);
    } else {
        emit selectionCleared();
    }
}

void GanttPlot::replotOverlay() {
    // Before the first full replot the layer buffers do not exist yet.
    if (m_overlay->layer() != nullptr && isVisible()) {
        m_overlay->layer()->replot();
        m_overlay->labelPlottable()->layer()->replot();
    } else {
        replot(rpQueuedReplot);
    }
}

std::optional<SpanHit> GanttPlot::hitTest(const QPointF& pos) const {
    if (!m_document || !axisRect()->rect().contains(pos.toPoint())) {
        return std::nullopt;
    }
    const auto row = rowAtY(pos.y());
    if (!row || rows()[*row].kind != RowKind::Lane) {
        return std::nullopt;
    }
    SpanHit hit;
    hit.row = *row;
    hit.lane = static_cast<std::size_t>(rows()[hit.row].lane);
    const auto& lane = m_document->trace.lanes[hit.lane];
    if (lane.levels.empty()) {
        return std::nullopt;
    }
    const TimeView v = view();
    const double t = v.toTime(pos.x());
    const double tolerance = kDefaultFoldPx * v.nsPerPixel();
    const auto& spans = lane.levels[0];
    const auto index = spanAt(spans, t, tolerance);
    if (!index) {
        return std::nullopt;
    }
    hit.span = *index;
    hit.nearby = firstEndingAfter(spans, t + tolerance) - firstEndingAfter(spans, t - tolerance);
    hit.nearby = std::max<std::size_t>(hit.nearby, 1);
    return hit;
}

QString GanttPlot::describe(const SpanHit& hit) const {
    return describeSpan(*m_document, shownBarriers(*m_overlay),
                        SpanRef{hit.lane, hit.level, hit.span}, hit.nearby);
}

QString GanttPlot::details(const SpanHit& hit) const {
    return spanDetails(*m_document, shownBarriers(*m_overlay),
                       SpanRef{hit.lane, hit.level, hit.span}, hit.nearby);
}

void GanttPlot::wheelEvent(QWheelEvent* event) {
    if (!m_document) {
        return;
    }
    // Some platforms turn Shift+wheel into a horizontal wheel.
    const QPoint delta = event->angleDelta();
    const int steps = delta.y() != 0 ? delta.y() : delta.x();
    if (event->modifiers() & Qt::ShiftModifier) {
        scrollRows(-static_cast<double>(steps) / 120.0 * kWheelRows);
    } else if (event->modifiers() & Qt::ControlModifier) {
        zoomRows(1.0 / wheelZoomFactor(steps), event->position().y());
    } else {
        zoomBy(wheelZoomFactor(delta.y()), event->position().x());
    }
    event->accept();
}

void GanttPlot::mousePressEvent(QMouseEvent* event) {
    m_pressPos = event->position();
    m_pressView = view();
    m_moved = false;
    const bool inPlot = axisRect()->rect().contains(event->position().toPoint());
    if (!m_document || !inPlot) {
        m_drag = Drag::None;
        // A click on a group's row label folds or unfolds it; a right-click on a label opens
        // its row's menu.
        if (const auto group = groupHeaderAt(event->position()); group && event->button() == Qt::LeftButton) {
            setGroupFolded(*group, !isGroupFolded(*group));
            event->accept();
        } else if (const auto row = rowAt(event->position()); row && event->button() == Qt::RightButton) {
            rowMenu(*row)->exec(event->globalPosition().toPoint());
            event->accept();
        }
        return;
    }
    QToolTip::hideText();
    if (event->button() == Qt::RightButton
        || (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ControlModifier))) {
        m_drag = Drag::Zoom;
    } else if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier)) {
        m_drag = Drag::Select;
    } else if (event->button() == Qt::LeftButton) {
        m_drag = Drag::Pan;
    }
    event->accept();
}

void GanttPlot::mouseMoveEvent(QMouseEvent* event) {
    const QPointF pos = event->position();
    if (m_drag == Drag::None) {
        // The span under the cursor, and the barriers and batch starts near it: their labels
        // may have been left out to keep the others readable.
        QString text = m_overlay->tooltipAt(pos);
        if (const QString message = m_messages->tooltipAt(pos); !message.isEmpty()) {
            text = text.isEmpty() ? message : message + QStringLiteral("<hr>") + text;
        } else if (const QString transfer = m_transfers->tooltipAt(pos); !transfer.isEmpty()) {
            text = text.isEmpty() ? transfer : transfer + QStringLiteral("<hr>") + text;
        } else if (const auto hit = hitTest(pos)) {
            text = text.isEmpty() ? describe(*hit) : describe(*hit) + QStringLiteral("<hr>") + text;
        } else if (const auto group = groupHeaderAt(pos)) {
            const auto row = rowAt(pos);
            const QString header = QStringLiteral("<b>%1</b>: its %2 states stacked<br><i>click to %3</i>")
                                       .arg(toQString(rows()[*row].label).mid(2))
                                       .arg(group->kind == LaneGroup::Rank ? QStringLiteral("workers'")
                                                                           : QStringLiteral("lanes'"))
                                       .arg(isGroupFolded(*group) ? QStringLiteral("show its lanes")
                                                                  : QStringLiteral("fold it to this row"));
            text = text.isEmpty() ? header : header + QStringLiteral("<hr>") + text;
        }
        if (const QString link = m_selection->tooltipAt(pos); !link.isEmpty()) {
            text = text.isEmpty() ? link : link + QStringLiteral("<hr>") + text;
        }
        if (text.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(event->globalPosition().toPoint(), text, this);
        }
        return;
    }
    m_moved = m_moved || std::abs(pos.x() - m_pressPos.x()) > kClickSlopPx;
    if (!m_moved) {
        return;
    }
    const double pressTime = m_pressView.toTime(m_pressPos.x());
    switch (m_drag) {
    case Drag::Pan: {
        const TimeView v = m_pressView.pannedBy(m_pressPos.x() - pos.x());
        setView(v.startNs, v.endNs);
        break;
    }
    case Drag::Zoom:
        m_overlay->setRubberBand(std::make_pair(pressTime, m_pressView.toTime(pos.x())));
        replotOverlay();
        break;
    case Drag::Select:
        m_overlay->setSelection(std::make_pair(pressTime, m_pressView.toTime(pos.x())));
        replotOverlay();
        break;
    case Drag::None: break;
    }
}

void GanttPlot::mouseReleaseEvent(QMouseEvent* event) {
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (drag == Drag::None) {
        return;
    }
    const double from = m_pressView.toTime(m_pressPos.x());
    const double to = m_pressView.toTime(event->position().x());
    if (!m_moved) {
        if (drag == Drag::Pan) {
            if (const auto task = m_selection->followAt(event->position())) {
                selectTask(*task);
            } else if (const auto group = groupHeaderAt(event->position())) {
                setGroupFolded(*group, !isGroupFolded(*group));
            } else if (const auto hit = hitTest(event->position())) {
                selectSpan(*hit);
                emit spanClicked(*hit);
            }
        } else if (drag == Drag::Select) {
            setSelection(std::nullopt);
        } else if (const auto row = rowAt(event->position()); row && drag == Drag::Zoom
                                                                && event->button() == Qt::RightButton) {
            // A right-click that did not drag a range: the row's menu.
            m_overlay->setRubberBand(std::nullopt);
            rowMenu(*row)->exec(event->globalPosition().toPoint());
            return;
        }
        m_overlay->setRubberBand(std::nullopt);
        return;
    }
    if (drag == Drag::Zoom) {
        m_overlay->setRubberBand(std::nullopt);
        setView(std::min(from, to), std::max(from, to));
    } else if (drag == Drag::Select) {
        setSelection(std::make_pair(from, to));
    }
    event->accept();
}

void GanttPlot::keyPressEvent(QKeyEvent* event) {
    if (!m_document) {
        QCustomPlot::keyPressEvent(event);
        return;
    }
    if (event->modifiers() & Qt::AltModifier) {
        // Alt+Up/Down moves the row under the cursor (or the selected task's) among its own.
        const auto row = keyRow();
        if (row && (event->key() == Qt::Key_Up || event->key() == Qt::Key_Down)) {
            moveRow(*row, event->key() == Qt::Key_Up ? LaneMove::Up : LaneMove::Down);
            event->accept();
            return;
        }
        QCustomPlot::keyPressEvent(event);
        return;
    }
    const TimeView v = view();
    const QPointF cursor = mapFromGlobal(QCursor::pos());
    const double anchor = axisRect()->rect().contains(cursor.toPoint()) ? cursor.x() : v.leftPx + v.widthPx / 2.0;
    switch (event->key()) {
    case Qt::Key_W: zoomBy(kKeyZoom, anchor); break;
    case Qt::Key_S: zoomBy(1.0 / kKeyZoom, anchor); break;
    case Qt::Key_A: panByFraction(-kKeyPan); break;
    case Qt::Key_D: panByFraction(kKeyPan); break;
    case Qt::Key_Home: fitAll(); break;
    case Qt::Key_PageUp: scrollRows(-std::max(1.0, rowWindow().shown - 1.0)); break;
    case Qt::Key_PageDown: scrollRows(std::max(1.0, rowWindow().shown - 1.0)); break;
    case Qt::Key_F:
        if (const auto row = keyRow()) {
            toggleGroupAt(*row);
        }
        break;
    case Qt::Key_Escape:
        setSelection(std::nullopt);
        selectSpan(std::nullopt);
        break;
    default: QCustomPlot::keyPressEvent(event); return;
    }
    event->accept();
}

void GanttPlot::selectSpan(std::optional<SpanHit> hit) {
    m_selection->select(hit ? std::optional<SpanRef>(SpanRef{hit->lane, hit->level, hit->span}) : std::nullopt);
    replotOverlay();
    if (hit) {
        emit spanSelected(*hit);
    }
}

std::optional<SpanHit> GanttPlot::selectedSpan() const {
    const auto& selected = m_selection->selected();
    if (!selected) {
        return std::nullopt;
    }
    const std::int32_t row = m_gantt->rowOfLane(static_cast<std::int32_t>(selected->lane));
    if (row < 0) {
        return std::nullopt;
    }
    return SpanHit{static_cast<std::size_t>(row), selected->lane, selected->level, selected->span, 1};
}

std::optional<tracer::TaskIndex> GanttPlot::selectedTask() const { return m_selection->selectedTask(); }

bool GanttPlot::selectTask(tracer::TaskIndex task) {
    if (!m_document) {
        return false;
    }
    const auto ref = findTaskSpan(m_document->trace, task);
    if (!ref) {
        return false;
    }
    m_selection->select(*ref);
    const auto hit = selectedSpan();
    if (!hit) {
        m_selection->select(std::nullopt);
        return false;
    }
    const auto& span = m_document->trace.lanes[ref->lane].levels[ref->level][ref->span];
    reveal(static_cast<double>(span.start), static_cast<double>(span.end));
    selectSpan(hit);
    return true;
}

void GanttPlot::reveal(double startNs, double endNs) {
    const TimeView v = view();
    if (startNs >= v.startNs && endNs <= v.endNs) {
        return;
    }
    constexpr double kRoomShare = 0.8;   // of the view, that a revealed span may take at most
    const double width = endNs - startNs;
    if (width <= kRoomShare * v.durationNs()) {
        const double centre = (startNs + endNs) / 2.0;
        setView(centre - v.durationNs() / 2.0, centre + v.durationNs() / 2.0);
    } else {
        const double margin = (1.0 - kRoomShare) / 2.0 * width;
        setView(startNs - margin, endNs + margin);
    }
}

} // namespace starscope::viewer
