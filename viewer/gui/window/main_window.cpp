#include "viewer/gui/window/main_window.hpp"

#include "tracer/analysis/stats.hpp"
#include "tracer/model/time_unit.hpp"
#include "viewer/core/format/time_format.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/chart/span_selection.hpp"
#include "viewer/gui/export/render.hpp"
#include "viewer/gui/panels/barrier_list_model.hpp"
#include "viewer/gui/panels/overview_strip.hpp"
#include "viewer/gui/panels/codelet_panel.hpp"
#include "viewer/gui/panels/range_stats_model.hpp"
#include "viewer/gui/panels/search_bar.hpp"
#include "viewer/gui/window/chart_keys.hpp"
#include "viewer/gui/window/shortcut_help.hpp"
#include "viewer/gui/window/trace_loader.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QShowEvent>
#include <QProgressBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollBar>
#include <QSettings>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>

namespace starscope::viewer {

namespace {

constexpr int kMaxRecent = 8;
constexpr double kBarrierZoomMargin = 0.5;   // of the barrier's duration, on each side
const char* const kRecentKey = "recentFiles";

QString durationText(double ns) { return QString::fromStdString(formatDuration(ns)); }

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("starscope viewer"));
    setAcceptDrops(true);
    resize(1400, 850);

    m_plot = new GanttPlot(this);
    m_overview = new OverviewStrip(this);
    auto* chart = new QWidget(this);
    auto* chartLayout = new QVBoxLayout(chart);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->setSpacing(0);
    // In the menu bar's corner: the chart keeps every pixel of its height.
    m_search = new SearchBar(m_plot, this);
    // Rows keep a readable height: a machine with more lanes than fit scrolls, with a bar beside
    // the chart that appears only then.
    m_plot->setRowScrolling(true);
    m_rowScroll = new QScrollBar(Qt::Vertical, chart);
    m_rowScroll->setObjectName(QStringLiteral("rowScrollBar"));
    m_rowScroll->hide();
    auto* plotRow = new QHBoxLayout;
    plotRow->setContentsMargins(0, 0, 0, 0);
    plotRow->setSpacing(0);
    plotRow->addWidget(m_plot, 1);
    plotRow->addWidget(m_rowScroll);
    chartLayout->addLayout(plotRow, 1);
    chartLayout->addWidget(m_overview);
    connect(m_plot, &GanttPlot::rowWindowChanged, this, &MainWindow::syncRowScrollBar);
    connect(m_rowScroll, &QScrollBar::valueChanged, m_plot, [this](int first) {
        m_plot->scrollRowsTo(static_cast<double>(first));
    });
    // Until a trace is loaded the chart would be an empty axis with collapsed ticks: the
    // window says what to do instead, with Open buttons and the recent files.
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(buildEmptyState());
    m_pages->addWidget(chart);
    setCentralWidget(m_pages);
    m_loader = new TraceLoader(this);
    m_barrierModel = new BarrierListModel(this);
    m_statsModel = new RangeStatsModel(this);

    buildMenus();
    // In the menu bar's corner, beside the search: which lanes get a row.
    m_laneFilter = new QLineEdit(this);
    m_laneFilter->setObjectName(QStringLiteral("laneFilter"));
    m_laneFilter->setPlaceholderText(tr("Filter lanes"));
    m_laneFilter->setToolTip(tr("Show only the lanes whose name or group contains one of these comma-separated terms "
                                "(\"cuda, ram\", \"rank 1\"); empty shows every lane"));
    m_laneFilter->setClearButtonEnabled(true);
    m_laneFilter->setMaximumWidth(m_laneFilter->fontMetrics().horizontalAdvance(QStringLiteral("cuda, ram, rank 10")) + 40);
    connect(m_laneFilter, &QLineEdit::textChanged, m_plot, &GanttPlot::setLaneFilter);
    auto* corner = new QWidget(this);
    auto* cornerLayout = new QHBoxLayout(corner);
    cornerLayout->setContentsMargins(0, 0, 0, 0);
    cornerLayout->addWidget(m_laneFilter);
    cornerLayout->addWidget(m_search, 1);
    menuBar()->setCornerWidget(corner);
    buildDocks();

    m_status = new QLabel(tr("Wheel: zoom  Drag: pan  Right-drag: zoom to range  Shift+drag: select range  "
                             "W/S/A/D, Home  Ctrl+F: find a task  ?: all keys"),
                          this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(220);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("cancelLoadButton"));
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    setLoading(false);

    connect(m_cancel, &QPushButton::clicked, m_loader, &TraceLoader::cancel);
    connect(m_loader, &TraceLoader::progress, m_progress, &QProgressBar::setValue);
    connect(m_loader, &TraceLoader::loaded, this, &MainWindow::onLoaded);
    connect(m_loader, &TraceLoader::failed, this, &MainWindow::onFailed);
    connect(m_loader, &TraceLoader::cancelled, this, [this](const QString& path) {
        setLoading(false);
        m_status->setText(tr("Loading %1 cancelled").arg(path));
        emit loadCancelled(path);
    });
    connect(m_plot, &GanttPlot::spanSelected, this, &MainWindow::onSpanClicked);
    connect(m_plot, &GanttPlot::viewChanged, m_overview, &OverviewStrip::setWindow);
    connect(m_overview, &OverviewStrip::windowRequested, m_plot, &GanttPlot::setView);
    connect(m_plot, &GanttPlot::rangeSelected, this, &MainWindow::onRangeSelected);
    connect(m_plot, &GanttPlot::selectionCleared, this, &MainWindow::clearRangeStats);
}

void MainWindow::clearRangeStats() {
    m_statsModel->clear();
    m_codelets->showWholeTrace();
    m_rangeLabel->setText(tr("Shift+drag on the chart to select a range"));
}

MainWindow::~MainWindow() = default;

void MainWindow::openTraceDialog() {
    // Several selected files are one job's prof files, as on the command line.
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open a trace (several prof files: one job)"), QString(),
        tr("Traces (prof_file_* paje.trace *.trace *.sstrace);;All files (*)"));
    if (!paths.isEmpty()) {
        openPaths(paths);
    }
}

void MainWindow::openFolderDialog() {
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open a run folder"));
    if (!path.isEmpty()) {
        openPath(path);
    }
}

void MainWindow::showWarnings(const std::vector<std::string>& warnings) {
    QStringList lines;
    for (const auto& warning : warnings) {
        lines << QString::fromStdString(warning);
    }
    m_warnings->setPlainText(lines.join(QLatin1Char('\n')));
    m_warningsDock->setWindowTitle(tr("Reader warnings (%1)").arg(warnings.size()));
    m_warningsDock->setVisible(!warnings.empty());
}

// What the run was and measured, from its run.json (or why there is none).
void MainWindow::showRun(const std::vector<RunPanelRow>& rows) {
    m_runTable->setRowCount(static_cast<int>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const int row = static_cast<int>(i);
        m_runTable->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(rows[i].label)));
        auto* value = new QTableWidgetItem(QString::fromStdString(rows[i].value));
        value->setToolTip(value->text());
        m_runTable->setItem(row, 1, value);
    }
    m_runTable->resizeColumnToContents(0);
}

QList<QPair<QString, QString>> MainWindow::runRows() const {
    QList<QPair<QString, QString>> rows;
    for (int row = 0; row < m_runTable->rowCount(); ++row) {
        rows.append({m_runTable->item(row, 0)->text(), m_runTable->item(row, 1)->text()});
    }
    return rows;
}

QString MainWindow::rangeText() const { return m_rangeLabel->text(); }

QStringList MainWindow::readerWarnings() const {
    return m_warnings->toPlainText().isEmpty() ? QStringList() : m_warnings->toPlainText().split(QLatin1Char('\n'));
}

void MainWindow::setLoading(bool loading) {
    m_progress->setVisible(loading);
    m_cancel->setVisible(loading);
    if (loading) {
        m_progress->setValue(0);
    }
}

void MainWindow::openPath(const QString& path) { openPaths(QStringList{path}); }

void MainWindow::openPaths(const QStringList& paths) {
    m_loadingPaths = paths;
    setLoading(true);
    m_status->setText(tr("Loading %1...").arg(paths.join(QLatin1String(kJobSeparator))));
    m_loader->load(paths, barrierThreshold());
}

tracer::TimeNs MainWindow::barrierThreshold() const {
    return static_cast<tracer::TimeNs>(std::llround(m_threshold->value() * 1e3));
}

void MainWindow::setBarrierThreshold(tracer::TimeNs thresholdNs) {
    m_threshold->setValue(static_cast<double>(thresholdNs) / 1e3);
}

void MainWindow::onLoaded(std::shared_ptr<const TraceDocument> document, std::shared_ptr<const Barriers> barriers,
                          std::shared_ptr<const Barriers> rankBarriers, std::shared_ptr<const OpenedRun> run) {
    setLoading(false);
    m_lastError.clear();
    const QString source = QString::fromStdString(document->source);
    setWindowTitle(tr("starscope viewer - %1").arg(source));
    m_overview->setDocument(document);
    {
        // A new trace shows every lane.
        const QSignalBlocker quiet(m_laneFilter);
        m_laneFilter->clear();
    }
    m_plot->setDocument(document);
    m_search->setDocument(document);
    m_codelets->setDocument(document);
    m_pages->setCurrentIndex(1);
    // Once the chart's page is laid out: the docks make room for it.
    QMetaObject::invokeMethod(this, &MainWindow::keepChartHalf, Qt::QueuedConnection);
    // The chart's keys (W/A/S/D) work at once: the first focusable widget, the search field in
    // the menu bar, took the first W as text.
    m_plot->setFocus(Qt::OtherFocusReason);
    // The previous trace's range and its figures mean nothing here (clears the stats panel too).
    m_plot->setSelection(std::nullopt);
    m_details->clear();
    applyBarriers(std::move(barriers), std::move(rankBarriers));
    m_messagesAction->setEnabled(!document->trace.messages.empty());
    m_transfersAction->setEnabled(!document->trace.transfers.empty());
    // No chain without recorded dependencies (a Paje trace).
    m_criticalPathAction->setEnabled(!document->criticalPath.empty());
    rememberRecent(m_loadingPaths);
    const auto& trace = document->trace;
    m_status->setText(tr("%1: %2 lanes, %3 spans, %4")
                          .arg(source)
                          .arg(trace.lanes.size())
                          .arg(trace.spanCount())
                          .arg(QString::fromStdString(taskCountText(*document))));
    showWarnings(trace.warnings);
    showRun(runPanelRows(*run));
    if (!trace.warnings.empty()) {
        m_status->setText(m_status->text() + tr(" (%1 reader warnings, listed in the Reader warnings panel)")
                                                 .arg(trace.warnings.size()));
    }
    emit documentLoaded();
}

void MainWindow::onFailed(const QString& path, const QString& message) {
    setLoading(false);
    m_lastError = message;
    m_status->setText(tr("Could not open %1").arg(path));
    // open(), not exec(): the dialog must not block the event loop (or tests).
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot open trace"),
                                tr("Could not open %1").arg(path), QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("loadErrorDialog"));
    box->setInformativeText(message);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit loadFailed(message);
}

void MainWindow::applyBarriers(std::shared_ptr<const Barriers> barriers, std::shared_ptr<const Barriers> rankBarriers) {
    m_plot->setBarriers(barriers);
    m_plot->setRankBarriers(std::move(rankBarriers));
    m_overview->setBarriers(barriers);
    // Barrier times are trace ticks: ns, or finer for some Paje traces (time_unit.hpp).
    const TimeScale time = m_plot->document() ? m_plot->document()->time : TimeScale{};
    m_barrierModel->setBarriers(barriers, time, m_plot->document() ? &m_plot->document()->trace : nullptr);
    tracer::TimeNs total = 0;
    for (const auto& b : *barriers) {
        total += b.duration();
    }
    m_barrierSummary->setText(
        tr("%1 barriers, %2 in total").arg(barriers->size()).arg(durationText(time.durationNs(static_cast<double>(total)))));
    emit barriersUpdated();
}

void MainWindow::recomputeBarriers() {
    const auto document = m_plot->document();
    if (!document) {
        return;
    }
    const std::uint64_t generation = ++m_barrierGeneration;
    const tracer::TimeNs threshold = barrierThreshold();
    using Computed = std::shared_ptr<const JobAndRankBarriers>;
    auto* watcher = new QFutureWatcher<Computed>(this);
    connect(watcher, &QFutureWatcher<Computed>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_barrierGeneration) {
            const Computed computed = watcher->result();
            applyBarriers(std::shared_ptr<const Barriers>(computed, &computed->job),
                          std::shared_ptr<const Barriers>(computed, &computed->ranks));
        }
    });
    watcher->setFuture(QtConcurrent::run([document, threshold] {
        return Computed(std::make_shared<const JobAndRankBarriers>(computeJobAndRankBarriers(*document, threshold)));
    }));
}

void MainWindow::zoomToBarrier(int row) {
    const auto& barriers = m_barrierModel->barriers();
    if (!barriers || row < 0 || static_cast<std::size_t>(row) >= barriers->size()) {
        return;
    }
    const auto& barrier = (*barriers)[static_cast<std::size_t>(row)];
    const double margin = kBarrierZoomMargin * static_cast<double>(barrier.duration());
    m_plot->setView(static_cast<double>(barrier.start) - margin, static_cast<double>(barrier.end) + margin);
}

void MainWindow::onSpanClicked(const SpanHit& hit) { m_details->setHtml(m_plot->details(hit)); }

void MainWindow::onRangeSelected(double fromNs, double toNs) {
    const auto document = m_plot->document();
    if (!document) {
        return;
    }
    const auto from = static_cast<tracer::TimeNs>(std::floor(std::max(fromNs, 0.0)));
    const auto to = static_cast<tracer::TimeNs>(std::ceil(std::max(toNs, 0.0)));
    if (to <= from) {
        return;
    }
    m_statsModel->setStats(document, tracer::computeRangeStats(document->trace, from, to));
    m_codelets->showRange(from, to);
    const TimeScale& time = document->time;
    m_rangeLabel->setText(tr("%1 .. %2 (%3)")
                              .arg(durationText(time.timeNs(static_cast<double>(from))),
                                   durationText(time.timeNs(static_cast<double>(to))),
                                   durationText(time.durationNs(static_cast<double>(to - from)))));
}

QStringList MainWindow::recentFiles() const {
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void MainWindow::rememberRecent(const QStringList& paths) {
    QStringList recent = recentFiles();
    QStringList absolutePaths;
    for (const QString& path : paths) {
        absolutePaths.push_back(QFileInfo(path).absoluteFilePath());
    }
    const QString absolute = absolutePaths.join(QLatin1String(kJobSeparator));
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent) {
        recent.removeLast();
    }
    QSettings().setValue(QLatin1String(kRecentKey), recent);
    refreshRecentMenu();
}

void MainWindow::refreshRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    for (const QString& path : recent) {
        m_recentMenu->addAction(path, this, [this, path] { openPaths(path.split(QLatin1String(kJobSeparator))); });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
    m_recentList->clear();
    m_recentList->addItems(recent);
    m_recentList->setVisible(!recent.isEmpty());
    m_recentLabel->setVisible(!recent.isEmpty());
}

void MainWindow::exportPicture() {
    if (!m_plot->document()) {
        return;
    }
    QString filter;
    const QString path = withFilterSuffix(
        QFileDialog::getSaveFileName(this, tr("Export the current view"), QStringLiteral("starscope.png"),
                                     tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &filter),
        filter);
    if (path.isEmpty()) {
        return;
    }
    if (const auto written = exportPlot(*m_plot, path); !written) {
        QMessageBox::warning(this, tr("Export failed"), QString::fromStdString(written.error().message));
    }
}

// The docks start small: the chart is what the window is for, and a 900x600 window left it
// ~360 px wide (legend cut, bars unreadable) when the docks kept their preferred sizes.
void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (!m_docksSized) {
        m_docksSized = true;
        resizeDocks({m_barrierDock}, {std::clamp(width() / 4, 160, 360)}, Qt::Horizontal);
        resizeDocks({m_detailsDock}, {std::clamp(height() / 5, 90, 260)}, Qt::Vertical);
    }
    keepChartHalf();
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    keepChartHalf();
}

// A window made smaller takes its pixels from the chart (QMainWindow keeps the docks' sizes): a
// 1000x650 window left it 170 px of height, 700x500 45 px.
void MainWindow::keepChartHalf() {
    if (!isVisible() || showsEmptyState()) {
        return;
    }
    const auto dockIn = [this](Qt::DockWidgetArea area) -> QDockWidget* {
        for (QDockWidget* dock : findChildren<QDockWidget*>()) {
            if (dock->isVisible() && !dock->isFloating() && dockWidgetArea(dock) == area) {
                return dock;
            }
        }
        return nullptr;
    };
    if (const int lacking = height() / 2 - m_plot->height(); lacking > 0) {
        if (QDockWidget* bottom = dockIn(Qt::BottomDockWidgetArea)) {
            resizeDocks({bottom}, {std::max(0, bottom->height() - lacking)}, Qt::Vertical);
        }
    }
    if (const int lacking = width() / 2 - m_plot->width(); lacking > 0) {
        for (const Qt::DockWidgetArea area : {Qt::RightDockWidgetArea, Qt::LeftDockWidgetArea}) {
            if (QDockWidget* side = dockIn(area)) {
                resizeDocks({side}, {std::max(0, side->width() - lacking)}, Qt::Horizontal);
                break;
            }
        }
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    // Several files dropped together are one job's prof files, as on the command line.
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile()) {
            paths.push_back(url.toLocalFile());
        }
    }
    if (!paths.isEmpty()) {
        openPaths(paths);
        event->acceptProposedAction();
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    m_loader->cancel();
    QMainWindow::closeEvent(event);
}

void MainWindow::syncRowScrollBar() {
    const GanttPlot::RowWindow rows = m_plot->rowWindow();
    const auto hidden = static_cast<int>(std::ceil(static_cast<double>(rows.total) - rows.shown - 1e-9));
    const QSignalBlocker quiet(m_rowScroll);
    m_rowScroll->setRange(0, std::max(0, hidden));
    m_rowScroll->setPageStep(std::max(1, static_cast<int>(rows.shown)));
    m_rowScroll->setValue(static_cast<int>(std::lround(rows.first)));
    m_rowScroll->setVisible(hidden > 0);
}

} // namespace starscope::viewer
