#pragma once
// Bar charts of the runs' metrics, one small chart per metric (wall time, makespan, LLC load
// and store miss ratios, IPC, power, peak memory, barrier total; labels and units from the run
// model's metric table) with one bar per run labelled by strategy (chartRunLabels).
// A figure that was not measured gets an "n/a" label instead of a bar, so a missing PMU is
// never drawn as a zero.

#include "viewer/core/comparison/comparison.hpp"

#include <qcustomplot.h>

#include <vector>

namespace starscope::viewer {

class ComparisonCharts : public QCustomPlot {
    Q_OBJECT
public:
    explicit ComparisonCharts(QWidget* parent = nullptr);

    void setRuns(const std::vector<RunFigures>& runs);
    // The axis rect of chart i (in the order of chartTitles()), for tests.
    QCPAxisRect* chart(int i) const;
    static QStringList chartTitles();
    // Number of "n/a" labels shown, for tests.
    int missingLabels() const { return m_missingLabels; }
    // The runs' names under their bars, as drawn.
    const QStringList& runLabels() const { return m_runLabels; }

private:
    std::vector<QCPAxisRect*> m_charts;
    QStringList m_runLabels;
    int m_missingLabels = 0;
};

} // namespace starscope::viewer
