#pragma once
// The side list of barriers: start, duration, batch transition and what the main thread was
// doing. Sorting (by time or by duration) goes through a QSortFilterProxyModel on kSortRole.

#include "viewer/core/trace_document.hpp"

#include <QAbstractTableModel>

#include <memory>

namespace starscope::viewer {

class BarrierListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { StartColumn, DurationColumn, TransitionColumn, MainThreadColumn, ColumnCount };
    enum Role { StartRole = Qt::UserRole + 1, EndRole, SortRole };

    explicit BarrierListModel(QObject* parent = nullptr);

    // time: how the trace's ticks read (TraceDocument::time), for the displayed times.
    void setBarriers(std::shared_ptr<const Barriers> barriers, TimeScale time = {});
    const std::shared_ptr<const Barriers>& barriers() const { return m_barriers; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Barriers> m_barriers;
    TimeScale m_time;
};

} // namespace starscope::viewer
