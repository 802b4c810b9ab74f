#pragma once
// The side list of barriers: start, duration, batch transition, what the main thread was
// doing and the barrier's cause (tracer::describeCause: "data transfer (node 0 -> 1, ...)"). Sorting (by time or by duration) goes through a QSortFilterProxyModel on kSortRole.

#include "viewer/core/document/trace_document.hpp"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace starscope::viewer {

class BarrierListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { StartColumn, DurationColumn, TransitionColumn, MainThreadColumn, CauseColumn, ColumnCount };
    enum Role { StartRole = Qt::UserRole + 1, EndRole, SortRole };

    explicit BarrierListModel(QObject* parent = nullptr);

    // time: how the trace's ticks read (TraceDocument::time), for the displayed times; trace:
    // the barriers' trace, whose causes are described once here (none without it).
    void setBarriers(std::shared_ptr<const Barriers> barriers, TimeScale time = {},
                     const tracer::Trace* trace = nullptr);
    const std::shared_ptr<const Barriers>& barriers() const { return m_barriers; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString causeOf(int row) const;   // empty when unattributed or not described

    std::shared_ptr<const Barriers> m_barriers;
    TimeScale m_time;
    std::vector<QString> m_causes;   // per barrier
};

} // namespace starscope::viewer
