#pragma once
// A table over comparison groups (a strategy at a rank count, its runs pooled by the run
// model): the scaling table and the strategy comparison per rank count of the comparison
// window. One row per group, the column name, its rank count and run count, then one column
// per metric given (labels, units and directions from the run model's metric table): the
// median, [min-max] over several runs, and with deltas its change against the baseline row
// as `starscope compare` gives it, green when better and red when worse. Missing figures read
// "n/a" with the run model's reason as tooltip.

#include "viewer/core/comparison/rank_comparison.hpp"

#include <QAbstractTableModel>

#include <string_view>
#include <vector>

namespace starscope::viewer {

class GroupTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn = 0, RanksColumn, RunsColumn, FirstMetricColumn };
    // The median (double) or an invalid QVariant when missing; the delta as a share (double).
    enum Role { ValueRole = Qt::UserRole + 1, DeltaRole };

    // keys: metric keys of the run model (tracer::run::Metric::key), one column each.
    GroupTableModel(std::vector<std::string_view> keys, bool deltas, QObject* parent = nullptr);

    void setRows(std::vector<GroupRow> rows);
    const std::vector<GroupRow>& rows() const { return m_rows; }
    // The column of a metric key; -1 when not shown.
    int columnOf(std::string_view key) const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<const tracer::run::Metric*> m_metrics;
    bool m_deltas = false;
    std::vector<GroupRow> m_rows;
};

} // namespace starscope::viewer
