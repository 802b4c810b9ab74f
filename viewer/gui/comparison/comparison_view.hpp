#pragma once
// Several runs side by side: one Gantt panel per run, stacked, all showing the same aligned
// time window (zooming or panning one moves all), above the statistics table and the metric
// bar charts. Beside the run table, runs of several StarPU-MPI rank counts get the scaling
// table and their strategies compared within each rank count (rank_comparison.hpp). The
// comparison window shows it; the headless render grabs it, so both draw with the same code.

#include "viewer/core/format/command_line.hpp"
#include "viewer/core/comparison/comparison.hpp"

#include <QWidget>
#include <optional>
#include <vector>

class QCPPainter;
class QLabel;
class QSplitter;
class QTabWidget;
class QTableView;
class QVBoxLayout;

namespace starscope::viewer {

class ComparisonCharts;
class ComparisonModel;
class GanttPlot;
class GroupTableModel;

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget* parent = nullptr);
    ~ComparisonView() override;

    // The runs as loaded (unaligned), their figures, and how to align them.
    ViewerResult<Done> setRuns(std::vector<ComparedRun> runs, std::vector<RunFigures> figures,
                               const Alignment& alignment);
    ViewerResult<Done> setAlignment(const Alignment& alignment);
    const Alignment& alignment() const { return m_alignment; }

    // Shows [startNs, endNs] of the aligned axis in every panel.
    void setView(double startNs, double endNs);
    void fitAll();
    // Shows a window of time from the aligned axis's zero (--range); refused when it misses
    // every run.
    ViewerResult<Done> showRange(const TimeRange& range);

    const std::vector<GanttPlot*>& panels() const { return m_panels; }
    // Every panel's data transfer arrows (the window's T, --no-transfers), kept when a new
    // alignment rebuilds the panels.
    void setTransfersVisible(bool visible);
    bool transfersVisible() const { return m_transfers; }
    // Rows of a readable height that scroll in each panel (GanttPlot::setRowScrolling): on in
    // the window, off in pictures, which show every row.
    void setRowScrolling(bool enabled);
    ComparisonModel* model() const { return m_model; }
    ComparisonCharts* charts() const { return m_charts; }
    QTableView* table() const { return m_table; }
    // The scaling table (empty unless the runs differ by rank count) and the strategies
    // compared within each rank count; the tabs holding them beside the run table.
    GroupTableModel* scalingModel() const { return m_scalingModel; }
    GroupTableModel* strategyModel() const { return m_strategyModel; }
    QTabWidget* tables() const { return m_tables; }
    // Why the run model could not compare the runs, and its warnings; empty when none.
    QString comparisonNote() const;

    // Replots everything now and returns the picture of the whole view.
    QImage grabImage();
    // Replots everything now and paints the whole view into painter, the plots as vectors (an
    // SVG or PDF picture): false when a plot could not be drawn.
    bool paintVectors(QCPPainter& painter);

private:
    void rebuildPanels(std::vector<ComparedRun> aligned);
    void replotNow();
    static bool paintTree(QCPPainter& painter, QWidget* widget, const QPoint& at);
    void onPanelView(GanttPlot* source, double startNs, double endNs);

    std::vector<ComparedRun> m_runs;
    Alignment m_alignment;
    std::vector<GanttPlot*> m_panels;
    QWidget* m_panelArea = nullptr;
    QVBoxLayout* m_panelLayout = nullptr;
    QSplitter* m_splitter = nullptr;
    QSplitter* m_bottom = nullptr;
    ComparisonModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    QTabWidget* m_tables = nullptr;
    GroupTableModel* m_scalingModel = nullptr;
    GroupTableModel* m_strategyModel = nullptr;
    QLabel* m_note = nullptr;
    ComparisonCharts* m_charts = nullptr;
    bool m_syncing = false;
    bool m_transfers = true;
    bool m_rowScrolling = false;
};

} // namespace starscope::viewer

namespace starscope::viewer {

// What a picture of a comparison shows (the flags of starscope-viewer --compare --render).
struct ComparisonPicture {
    PixelSize size{1600, 1400}; // the picture's, exactly
    // The window of the aligned axis, in time from its zero (--range); every run whole when
    // empty. A normalized axis is in shares of each run's makespan, which a time cannot name.
    std::optional<TimeRange> range;
    bool transfers = true; // data transfer arrows (--no-transfers leaves them out)
};

// The comparison view of loaded runs written to output: .png or .jpg (pixels), .svg or .pdf
// (drawn as vectors, the Gantt panels and charts as the single view's --render draws them).
ViewerResult<Done> renderComparison(const LoadedComparison& loaded, const Alignment& alignment,
                                    const ComparisonPicture& picture, const QString& output);

} // namespace starscope::viewer
