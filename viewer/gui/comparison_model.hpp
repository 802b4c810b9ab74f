#pragma once
// The comparison's statistics table: one row per run (strategy, makespan, idleness, barriers,
// stall per batch transition, critical path, peak memory), each figure followed by its change against the first run, coloured green when
// better and red when worse. Missing figures read "n/a" with the reason as tooltip.

#include "viewer/core/comparison.hpp"

#include <QAbstractTableModel>

#include <vector>

namespace starscope::viewer {

class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        StrategyColumn,
        MakespanColumn,
        IdlenessColumn,
        BarrierCountColumn,
        BarrierTotalColumn,
        BarrierMaxColumn,
        StallColumn,
        CriticalPathColumn,
        PeakMemoryColumn,
        ColumnCount
    };
    // The raw figure (double) or an invalid QVariant when missing; deltas as a share (double).
    enum Role { ValueRole = Qt::UserRole + 1, DeltaRole };

    explicit ComparisonModel(QObject* parent = nullptr);

    void setRuns(std::vector<RunFigures> runs);
    const std::vector<RunFigures>& runs() const { return m_runs; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<RunFigures> m_runs;
};

// "12.5 ms", "34.0 %", "3", "1.5 GiB" for a figure of a column.
QString formatFigure(ComparisonModel::Column column, double value);

} // namespace starscope::viewer
