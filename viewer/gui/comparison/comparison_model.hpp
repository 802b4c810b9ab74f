#pragma once
// The comparison's statistics table: one row per run, the strategy and then one column per
// metric of the run model's table (tracer/run/run_figures.hpp: its labels, units and
// directions), each figure formatted as `starscope compare` formats it and followed by its
// change against the first run, coloured green when better and red when worse. Missing
// figures read "n/a" with the reason as tooltip.

#include "viewer/core/comparison/comparison.hpp"

#include <QAbstractTableModel>

#include <string_view>
#include <vector>

namespace starscope::viewer {

class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int StrategyColumn = 0; // the metrics follow, in the table's order
    // The raw figure (double) or an invalid QVariant when missing; deltas as a share (double).
    enum Role { ValueRole = Qt::UserRole + 1, DeltaRole };

    explicit ComparisonModel(QObject* parent = nullptr);

    // The column of the metric with this key (tracer::run::Metric::key); -1 for none.
    static int columnOf(std::string_view key);
    // The metric a column shows; nullptr for the strategy column.
    static const tracer::run::Metric* metricOf(int column);

    void setRuns(std::vector<RunFigures> runs);
    const std::vector<RunFigures>& runs() const { return m_runs; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<RunFigures> m_runs;
};

} // namespace starscope::viewer
