#pragma once
// The viewer's window: the Gantt plot in the middle with the overview strip under it, the
// barrier list (with the threshold) on the right, task details and range statistics below, a
// progress bar with Cancel while a trace loads. Files come from File > Open, recent files,
// drag and drop or the command line; several files at once are one job's prof files.

#include "viewer/core/document/run_panel.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <QList>
#include <QMainWindow>
#include <QPair>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class QAction;
class QDockWidget;
class QPlainTextEdit;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QScrollBar;
class QListWidget;
class QStackedWidget;
class QMenu;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;
class QTextBrowser;

namespace starscope::viewer {

class BarrierListModel;
class GanttPlot;
class OverviewStrip;
class CodeletPanel;
class RangeStatsModel;
class SearchBar;
class TraceLoader;
struct SpanHit;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openPath(const QString& path);
    // Opens paths as one trace: several are the prof files of one job (one per process), merged.
    void openPaths(const QStringList& paths);
    void setBarrierThreshold(tracer::TimeNs thresholdNs);
    tracer::TimeNs barrierThreshold() const;
    void zoomToBarrier(int row);

    GanttPlot* plot() const { return m_plot; }
    // View > Show messages between ranks: checkable, enabled for a trace that has messages.
    QAction* messagesAction() const { return m_messagesAction; }
    // View > Show data transfers: checkable, enabled for a trace that has transfers.
    QAction* transfersAction() const { return m_transfersAction; }
    // View > Show critical path: checkable, enabled for a trace with task dependencies.
    QAction* criticalPathAction() const { return m_criticalPathAction; }
    // The loaded trace's reader warnings as listed in the Reader warnings dock.
    QStringList readerWarnings() const;
    // True while no trace is loaded: the window shows Open buttons and the recent files.
    bool showsEmptyState() const;
    QString rangeText() const;
    // The Run panel's (label, value) lines.
    QList<QPair<QString, QString>> runRows() const;
    OverviewStrip* overview() const { return m_overview; }
    SearchBar* searchBar() const { return m_search; }
    QLineEdit* laneFilter() const { return m_laneFilter; }
    QScrollBar* rowScrollBar() const { return m_rowScroll; }
    QTableView* barrierView() const { return m_barrierView; }
    BarrierListModel* barrierModel() const { return m_barrierModel; }
    RangeStatsModel* statsModel() const { return m_statsModel; }
    CodeletPanel* codeletPanel() const { return m_codelets; }
    TraceLoader* loader() const { return m_loader; }
    const QString& lastError() const { return m_lastError; }
    // Recently opened traces, most recent first; a job's files are one entry, "a + b".
    QStringList recentFiles() const;

signals:
    void documentLoaded();
    void loadFailed(const QString& message);
    void loadCancelled(const QString& path);
    void barriersUpdated();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void buildMenus();
    // The scroll bar beside the chart follows the rows in view, and shows only when some are not.
    void syncRowScrollBar();
    void buildDocks();
    // The chart keeps at least half the window's height and width: the docks beside and under
    // it give up what it lacks, down to their own minimum.
    void keepChartHalf();
    void clearRangeStats();
    QWidget* buildEmptyState();
    void openTraceDialog();
    void openFolderDialog();
    void showWarnings(const std::vector<std::string>& warnings);
    void showRun(const std::vector<RunPanelRow>& rows);
    void onLoaded(std::shared_ptr<const TraceDocument> document, std::shared_ptr<const Barriers> barriers,
                  std::shared_ptr<const Barriers> rankBarriers, std::shared_ptr<const OpenedRun> run);
    void onFailed(const QString& path, const QString& message);
    void onSpanClicked(const SpanHit& hit);
    void onRangeSelected(double fromNs, double toNs);
    void applyBarriers(std::shared_ptr<const Barriers> barriers, std::shared_ptr<const Barriers> rankBarriers);
    void recomputeBarriers();
    void rememberRecent(const QStringList& paths);
    void refreshRecentMenu();
    void exportPicture();
    void setLoading(bool loading);

    GanttPlot* m_plot = nullptr;
    SearchBar* m_search = nullptr;         // finds tasks by codelet or job id
    QLineEdit* m_laneFilter = nullptr;     // which lanes get a row (GanttPlot::setLaneFilter)
    QScrollBar* m_rowScroll = nullptr;     // the rows that do not fit the chart's height
    OverviewStrip* m_overview = nullptr;   // the whole trace under the chart, with its window
    TraceLoader* m_loader = nullptr;
    BarrierListModel* m_barrierModel = nullptr;
    QSortFilterProxyModel* m_barrierProxy = nullptr;
    RangeStatsModel* m_statsModel = nullptr;
    CodeletPanel* m_codelets = nullptr;    // the codelet table of the trace or the selected range
    QTableView* m_barrierView = nullptr;
    QDockWidget* m_barrierDock = nullptr;
    QDockWidget* m_detailsDock = nullptr;
    QStackedWidget* m_pages = nullptr;
    QListWidget* m_recentList = nullptr;
    QLabel* m_recentLabel = nullptr;
    QDockWidget* m_warningsDock = nullptr;
    QPlainTextEdit* m_warnings = nullptr;
    QTableWidget* m_runTable = nullptr;
    bool m_docksSized = false;
    QTableView* m_statsView = nullptr;
    QTextBrowser* m_details = nullptr;
    QDoubleSpinBox* m_threshold = nullptr;
    QLabel* m_barrierSummary = nullptr;
    QLabel* m_rangeLabel = nullptr;
    QLabel* m_status = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    QMenu* m_recentMenu = nullptr;
    QAction* m_messagesAction = nullptr;
    QAction* m_transfersAction = nullptr;
    QAction* m_criticalPathAction = nullptr;
    QStringList m_loadingPaths;
    QString m_lastError;
    std::uint64_t m_barrierGeneration = 0;
};

} // namespace starscope::viewer
