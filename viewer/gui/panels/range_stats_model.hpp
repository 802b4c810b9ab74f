#pragma once
// Per-lane state shares of a selected time range: one row per Gantt row (same order) and a
// last row summing the workers; columns are the share of the range in each state class.

#include "tracer/analysis/stats.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <QAbstractTableModel>

#include <memory>

namespace starscope::viewer {

class RangeStatsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { LaneColumn, ExecutingColumn, SleepingColumn, OverheadColumn, UserColumn, IdleColumn, TasksColumn,
                  ColumnCount };
    // The share (0..1) as a double, for sorting and for tests.
    static constexpr int ShareRole = Qt::UserRole + 1;

    explicit RangeStatsModel(QObject* parent = nullptr);

    void setStats(std::shared_ptr<const TraceDocument> document, tracer::RangeStats stats);
    void clear();
    const tracer::RangeStats& stats() const { return m_stats; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const tracer::ClassTimes& timesOfRow(int row, QString* label, std::uint64_t* tasks) const;

    std::shared_ptr<const TraceDocument> m_document;
    tracer::RangeStats m_stats;
    std::uint64_t m_workerTasks = 0;
};

} // namespace starscope::viewer
