// How the main window is built: the empty state offered before a trace, the menus and the docks
// around the chart (main_window.cpp has what they do once a trace is open).
#include "viewer/gui/window/main_window.hpp"

#include "viewer/gui/window/layer_toggle.hpp"

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

// The fewest text lines a dock under the chart keeps when the window is small.
constexpr int kDockMinLines = 3;

} // namespace

QWidget* MainWindow::buildEmptyState() {
    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    layout->addStretch(1);
    auto* heading = new QLabel(tr("No trace loaded"), page);
    QFont bold = heading->font();
    bold.setPointSizeF(bold.pointSizeF() * 1.4);
    bold.setBold(true);
    heading->setFont(bold);
    heading->setAlignment(Qt::AlignCenter);
    layout->addWidget(heading);
    auto* hint = new QLabel(tr("Open a run folder, a StarPU prof_file_* (several: one job's ranks), a paje.trace or a .sstrace, or drop them here."),
                            page);
    hint->setAlignment(Qt::AlignCenter);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    auto* openTrace = new QPushButton(tr("Open trace..."), page);
    openTrace->setObjectName(QStringLiteral("openTraceButton"));
    connect(openTrace, &QPushButton::clicked, this, &MainWindow::openTraceDialog);
    buttons->addWidget(openTrace);
    auto* openFolder = new QPushButton(tr("Open run folder..."), page);
    openFolder->setObjectName(QStringLiteral("openFolderButton"));
    connect(openFolder, &QPushButton::clicked, this, &MainWindow::openFolderDialog);
    buttons->addWidget(openFolder);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    m_recentLabel = new QLabel(tr("Recent files (double-click to open):"), page);
    m_recentLabel->setAlignment(Qt::AlignCenter);
    layout->addWidget(m_recentLabel);
    m_recentList = new QListWidget(page);
    m_recentList->setObjectName(QStringLiteral("recentList"));
    m_recentList->setMaximumWidth(700);
    m_recentList->setMaximumHeight(200);
    connect(m_recentList, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { openPaths(item->text().split(QLatin1String(kJobSeparator))); });
    layout->addWidget(m_recentList, 0, Qt::AlignHCenter);
    layout->addStretch(2);
    return page;
}

bool MainWindow::showsEmptyState() const { return m_pages->currentIndex() == 0; }

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open trace..."), this, &MainWindow::openTraceDialog);
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &run folder..."), this, &MainWindow::openFolderDialog);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    refreshRecentMenu();
    file->addSeparator();
    QAction* exportAction = file->addAction(tr("&Export picture..."), this, &MainWindow::exportPicture);
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Fit whole trace (Home)"), m_plot, &GanttPlot::fitAll);
    view->addAction(tr("Zoom &in (W)"), this, [this] {
        const TimeView v = m_plot->view();
        m_plot->zoomBy(1.5, v.leftPx + v.widthPx / 2.0);
    });
    view->addAction(tr("Zoom &out (S)"), this, [this] {
        const TimeView v = m_plot->view();
        m_plot->zoomBy(1.0 / 1.5, v.leftPx + v.widthPx / 2.0);
    });
    view->addAction(tr("&Clear selection (Esc)"), this, [this] {
        m_plot->setSelection(std::nullopt);
        m_plot->selectSpan(std::nullopt);
    });
    QAction* find = view->addAction(tr("&Find task..."), this, [this] {
        m_search->field()->setFocus(Qt::ShortcutFocusReason);
        m_search->field()->selectAll();
    });
    find->setShortcut(QKeySequence::Find);
    QAction* filter = view->addAction(tr("Filter &lanes..."), this, [this] {
        m_laneFilter->setFocus(Qt::ShortcutFocusReason);
        m_laneFilter->selectAll();
    });
    filter->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    // The same as a row's menu, for the whole chart (F folds the group under the cursor).
    QMenu* lanes = view->addMenu(tr("Lane &groups"));
    lanes->setObjectName(QStringLiteral("laneGroupsMenu"));
    lanes->addAction(tr("&Fold every lane group"), this, [this] { m_plot->setAllGroupsFolded(true); });
    lanes->addAction(tr("&Unfold every lane group"), this, [this] { m_plot->setAllGroupsFolded(false); });
    lanes->addAction(tr("&Reset lane order"), m_plot, &GanttPlot::resetLaneOrder);
    view->addSeparator();
    m_messagesAction = setUpLayerToggle(view->addAction(tr("Show &messages between ranks")),
                                        QStringLiteral("messagesAction"), m_plot->messagesVisible(), Qt::Key_M);
    connect(m_messagesAction, &QAction::toggled, m_plot, &GanttPlot::setMessagesVisible);
    m_transfersAction = setUpLayerToggle(view->addAction(tr("Show data &transfers between memory nodes")),
                                         QStringLiteral("transfersAction"), m_plot->transfersVisible(), Qt::Key_T);
    connect(m_transfersAction, &QAction::toggled, m_plot, &GanttPlot::setTransfersVisible);
    m_criticalPathAction = setUpLayerToggle(view->addAction(tr("Show &critical path")),
                                            QStringLiteral("criticalPathAction"), false, Qt::Key_C);
    connect(m_criticalPathAction, &QAction::toggled, m_plot, &GanttPlot::setCriticalPathVisible);
    view->addSeparator();
    // Every dock, listed when the menu opens: a closed one comes back from here.
    QMenu* panels = view->addMenu(tr("&Panels"));
    connect(panels, &QMenu::aboutToShow, this, [this, panels] {
        panels->clear();
        for (QDockWidget* dock : findChildren<QDockWidget*>()) {
            panels->addAction(dock->toggleViewAction());
        }
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys = help->addAction(tr("&Keyboard and mouse..."), this, [this] {
        auto* dialog = findChild<ShortcutHelp*>();
        if (dialog == nullptr) {
            dialog = new ShortcutHelp(menuBar(), this);
        }
        dialog->show();
        dialog->raise();
    });
    // "?" is Shift+/ on most layouts: either way it opens the help.
    keys->setShortcuts({QKeySequence(Qt::Key_Question), QKeySequence(Qt::SHIFT | Qt::Key_Question)});
}

void MainWindow::buildDocks() {
    auto* barrierPanel = new QWidget(this);
    auto* barrierLayout = new QVBoxLayout(barrierPanel);
    auto* form = new QFormLayout;
    m_threshold = new QDoubleSpinBox(barrierPanel);
    m_threshold->setRange(1.0, 1e7);
    m_threshold->setDecimals(0);
    m_threshold->setSuffix(tr(" us"));
    m_threshold->setValue(static_cast<double>(tracer::BarrierOptions{}.threshold) / 1e3); // the analysis's default
    m_threshold->setKeyboardTracking(false);
    m_threshold->setToolTip(tr("Idle intervals of all workers shorter than this are not barriers"));
    form->addRow(tr("Barrier threshold"), m_threshold);
    barrierLayout->addLayout(form);
    m_barrierSummary = new QLabel(barrierPanel);
    barrierLayout->addWidget(m_barrierSummary);
    m_barrierProxy = new QSortFilterProxyModel(this);
    m_barrierProxy->setSourceModel(m_barrierModel);
    m_barrierProxy->setSortRole(BarrierListModel::SortRole);
    m_barrierView = new QTableView(barrierPanel);
    m_barrierView->setModel(m_barrierProxy);
    m_barrierView->setSortingEnabled(true);
    m_barrierView->sortByColumn(BarrierListModel::StartColumn, Qt::AscendingOrder);
    m_barrierView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_barrierView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_barrierView->setObjectName(QStringLiteral("barrierList"));
    m_barrierView->verticalHeader()->hide();
    // The dock is a quarter of the window: the barrier's cause comes right after its time and
    // length, which take what they need, instead of past the right edge (it was the fifth column,
    // 400 px in, of a 250 px list).
    QHeaderView* columns = m_barrierView->horizontalHeader();
    columns->moveSection(columns->visualIndex(BarrierListModel::CauseColumn),
                         BarrierListModel::TransitionColumn);
    columns->setSectionResizeMode(BarrierListModel::StartColumn, QHeaderView::ResizeToContents);
    columns->setSectionResizeMode(BarrierListModel::DurationColumn, QHeaderView::ResizeToContents);
    columns->setStretchLastSection(true);
    barrierLayout->addWidget(m_barrierView);
    m_barrierDock = new QDockWidget(tr("Barriers"), this);
    m_barrierDock->setObjectName(QStringLiteral("barrierDock"));
    m_barrierDock->setWidget(barrierPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_barrierDock);

    connect(m_threshold, &QDoubleSpinBox::valueChanged, this, [this] { recomputeBarriers(); });
    connect(m_barrierView, &QTableView::clicked, this,
            [this](const QModelIndex& index) { zoomToBarrier(m_barrierProxy->mapToSource(index).row()); });
    connect(m_barrierView, &QTableView::activated, this,
            [this](const QModelIndex& index) { zoomToBarrier(m_barrierProxy->mapToSource(index).row()); });
    // Arrow keys, Page Up/Down and Home/End move the current row: the chart follows, as it does
    // a click.
    connect(m_barrierView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid()) {
                    zoomToBarrier(m_barrierProxy->mapToSource(current).row());
                }
            });

    m_details = new QTextBrowser(this);
    m_details->setPlaceholderText(tr("Click a task for its details"));
    // Dependencies are links: a click selects that task on the chart.
    m_details->setOpenLinks(false);
    connect(m_details, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (const auto task = taskOfAnchor(url)) {
            m_plot->selectTask(*task);
        }
    });
    auto* detailsDock = new QDockWidget(tr("Details"), this);
    m_detailsDock = detailsDock;
    detailsDock->setObjectName(QStringLiteral("detailsDock"));
    detailsDock->setWidget(m_details);
    addDockWidget(Qt::BottomDockWidgetArea, detailsDock);

    auto* statsPanel = new QWidget(this);
    auto* statsLayout = new QVBoxLayout(statsPanel);
    m_rangeLabel = new QLabel(tr("Shift+drag on the chart to select a range"), statsPanel);
    statsLayout->addWidget(m_rangeLabel);
    m_statsView = new QTableView(statsPanel);
    m_statsView->setModel(m_statsModel);
    m_statsView->verticalHeader()->hide();
    statsLayout->addWidget(m_statsView);
    auto* statsDock = new QDockWidget(tr("Selected range"), this);
    statsDock->setObjectName(QStringLiteral("statsDock"));
    statsDock->setWidget(statsPanel);
    addDockWidget(Qt::BottomDockWidgetArea, statsDock);

    m_codelets = new CodeletPanel(this);
    auto* codeletDock = new QDockWidget(tr("Codelets"), this);
    codeletDock->setObjectName(QStringLiteral("codeletDock"));
    codeletDock->setWidget(m_codelets);
    addDockWidget(Qt::BottomDockWidgetArea, codeletDock);
    tabifyDockWidget(statsDock, codeletDock);
    statsDock->raise();
    connect(m_codelets, &CodeletPanel::codeletActivated, this, [this](const QString& codelet) {
        m_search->field()->setText(codelet);
        m_search->findNext();
    });

    m_runTable = new QTableWidget(0, 2, this);
    m_runTable->setObjectName(QStringLiteral("runTable"));
    m_runTable->setHorizontalHeaderLabels({tr("Run"), tr("Value")});
    m_runTable->verticalHeader()->hide();
    m_runTable->horizontalHeader()->setStretchLastSection(true);
    m_runTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_runTable->setWordWrap(true);
    auto* runDock = new QDockWidget(tr("Run"), this);
    runDock->setObjectName(QStringLiteral("runDock"));
    runDock->setWidget(m_runTable);
    addDockWidget(Qt::RightDockWidgetArea, runDock);
    tabifyDockWidget(m_barrierDock, runDock);
    m_barrierDock->raise();
    // The chart's W/A/S/D keep working after a click in a panel.
    auto* forwarder = new ChartKeyForwarder(m_plot, this);
    for (QWidget* panel : std::initializer_list<QWidget*>{m_barrierView, m_statsView, m_details, m_runTable}) {
        panel->installEventFilter(forwarder);
    }

    m_warnings = new QPlainTextEdit(this);
    m_warnings->setReadOnly(true);
    m_warnings->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_warningsDock = new QDockWidget(tr("Reader warnings"), this);
    m_warningsDock->setObjectName(QStringLiteral("warningsDock"));
    m_warningsDock->setWidget(m_warnings);
    addDockWidget(Qt::BottomDockWidgetArea, m_warningsDock);
    tabifyDockWidget(detailsDock, m_warningsDock);
    m_warningsDock->hide();
    // Under the chart, a panel may be squeezed to a few lines (its table scrolls) before the chart
    // gives up its half of the window: their layouts' minimums (label, header, margins, a table's
    // own) held a 700x500 window's chart to 226 px.
    for (QDockWidget* dock : {detailsDock, statsDock, codeletDock, m_warningsDock}) {
        dock->widget()->setMinimumHeight(dock->widget()->fontMetrics().height() * kDockMinLines);
    }
}

// Every warning in full (what the reader dropped or repaired, with file and offset), in a
// dock that appears only for a trace that has some.

} // namespace starscope::viewer
