#include "viewer/gui/panels/barrier_list_model.hpp"

#include "viewer/core/format/time_format.hpp"

namespace starscope::viewer {

BarrierListModel::BarrierListModel(QObject* parent) : QAbstractTableModel(parent) {}

void BarrierListModel::setBarriers(std::shared_ptr<const Barriers> barriers, TimeScale time,
                                   const tracer::Trace* trace) {
    beginResetModel();
    m_barriers = std::move(barriers);
    m_time = time;
    m_causes.clear();
    if (m_barriers && trace != nullptr) {
        m_causes.reserve(m_barriers->size());
        for (const auto& barrier : *m_barriers) {
            m_causes.push_back(barrier.cause == tracer::BarrierCause::Unattributed
                                   ? QString()
                                   : QString::fromStdString(tracer::describeCause(*trace, barrier)));
        }
    }
    endResetModel();
}

QString BarrierListModel::causeOf(int row) const {
    return row >= 0 && static_cast<std::size_t>(row) < m_causes.size() ? m_causes[static_cast<std::size_t>(row)] : QString();
}

int BarrierListModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_barriers) {
        return 0;
    }
    return static_cast<int>(m_barriers->size());
}

int BarrierListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant BarrierListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_barriers) {
        return {};
    }
    const auto& barrier = (*m_barriers)[static_cast<std::size_t>(index.row())];
    switch (role) {
    case StartRole: return QVariant::fromValue<qlonglong>(barrier.start);
    case EndRole: return QVariant::fromValue<qlonglong>(barrier.end);
    case SortRole:
        switch (index.column()) {
        case StartColumn: return QVariant::fromValue<qlonglong>(barrier.start);
        case DurationColumn: return QVariant::fromValue<qlonglong>(barrier.duration());
        case TransitionColumn: return QVariant::fromValue<qlonglong>(barrier.transition);
        case MainThreadColumn: return QString::fromStdString(barrier.mainThreadState);
        case CauseColumn: return causeOf(index.row());
        default: return {};
        }
    case Qt::DisplayRole:
        switch (index.column()) {
        case StartColumn: return QString::fromStdString(formatDuration(m_time.timeNs(static_cast<double>(barrier.start))));
        case DurationColumn: return QString::fromStdString(formatDuration(m_time.durationNs(static_cast<double>(barrier.duration()))));
        case TransitionColumn:
            return barrier.transitionLabel.empty() ? QStringLiteral("-") : QString::fromStdString(barrier.transitionLabel);
        case MainThreadColumn:
            return barrier.mainThreadState.empty() ? QStringLiteral("-") : QString::fromStdString(barrier.mainThreadState);
        case CauseColumn: return causeOf(index.row()).isEmpty() ? QStringLiteral("-") : causeOf(index.row());
        default: return {};
        }
    case Qt::TextAlignmentRole:
        return index.column() <= DurationColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    default: return {};
    }
}

QVariant BarrierListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
    case StartColumn: return tr("Start");
    case DurationColumn: return tr("Duration");
    case TransitionColumn: return tr("Batch transition");
    case MainThreadColumn: return tr("Main thread");
    case CauseColumn: return tr("Cause");
    default: return {};
    }
}

} // namespace starscope::viewer
