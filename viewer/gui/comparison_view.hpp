#pragma once
// Several runs side by side: one Gantt panel per run, stacked, all showing the same aligned
// time window (zooming or panning one moves all), above the statistics table and the metric
// bar charts. The comparison window shows it; the headless render grabs it, so both draw
// with the same code.

#include "viewer/core/command_line.hpp"
#include "viewer/core/comparison.hpp"

#include <QWidget>

#include <vector>

class QSplitter;
class QTableView;
class QVBoxLayout;

namespace starscope::viewer {

class ComparisonCharts;
class ComparisonModel;
class GanttPlot;

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

    const std::vector<GanttPlot*>& panels() const { return m_panels; }
    ComparisonModel* model() const { return m_model; }
    ComparisonCharts* charts() const { return m_charts; }
    QTableView* table() const { return m_table; }

    // Replots everything now and returns the picture of the whole view.
    QImage grabImage();

private:
    void rebuildPanels(std::vector<ComparedRun> aligned);
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
    ComparisonCharts* m_charts = nullptr;
    bool m_syncing = false;
};

} // namespace starscope::viewer

namespace starscope::viewer {

// The comparison view of loaded runs at size, written to output (.png or .jpg).
ViewerResult<Done> renderComparison(const LoadedComparison& loaded, const Alignment& alignment, PixelSize size,
                                    const QString& output);

} // namespace starscope::viewer
