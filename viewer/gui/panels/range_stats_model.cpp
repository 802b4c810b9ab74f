#include "viewer/gui/panels/range_stats_model.hpp"

namespace starscope::viewer {

RangeStatsModel::RangeStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RangeStatsModel::setStats(std::shared_ptr<const TraceDocument> document, tracer::RangeStats stats) {
    beginResetModel();
    m_document = std::move(document);
    m_stats = std::move(stats);
    m_workerTasks = 0;
    for (const auto& lane : m_stats.lanes) {
        if (lane.lane >= 0 && m_document->trace.lanes[static_cast<std::size_t>(lane.lane)].isWorker()) {
            m_workerTasks += lane.tasks;
        }
    }
    endResetModel();
}

void RangeStatsModel::clear() {
    beginResetModel();
    m_document.reset();
    m_stats = {};
    m_workerTasks = 0;
    endResetModel();
}

int RangeStatsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_document || m_stats.lanes.empty()) {
        return 0;
    }
    return static_cast<int>(m_document->rows.size()) + 1;
}

int RangeStatsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

const tracer::ClassTimes& RangeStatsModel::timesOfRow(int row, QString* label, std::uint64_t* tasks) const {
    const auto r = static_cast<std::size_t>(row);
    if (r == m_document->rows.size()) {
        *label = tr("all workers");
        *tasks = m_workerTasks;
        return m_stats.workers;
    }
    const auto lane = static_cast<std::size_t>(m_document->rows[r].lane);
    *label = QString::fromStdString(m_document->rows[r].label);
    *tasks = m_stats.lanes[lane].tasks;
    return m_stats.lanes[lane].classes;
}

QVariant RangeStatsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_document) {
        return {};
    }
    QString label;
    std::uint64_t tasks = 0;
    const auto& times = timesOfRow(index.row(), &label, &tasks);
    const double total = static_cast<double>(times.total());
    const auto share = [total](tracer::TimeNs t) { return total > 0.0 ? static_cast<double>(t) / total : 0.0; };
    double value = 0.0;
    switch (index.column()) {
    case ExecutingColumn: value = share(times.executing); break;
    case SleepingColumn: value = share(times.sleeping); break;
    case OverheadColumn: value = share(times.overhead); break;
    case UserColumn: value = share(times.user); break;
    case IdleColumn: value = share(times.idle); break;
    default: break;
    }
    if (role == Qt::DisplayRole) {
        if (index.column() == LaneColumn) {
            return label;
        }
        if (index.column() == TasksColumn) {
            return QVariant::fromValue<qulonglong>(tasks);
        }
        return QStringLiteral("%1 %").arg(value * 100.0, 0, 'f', 1);
    }
    if (role == ShareRole && index.column() != LaneColumn && index.column() != TasksColumn) {
        return value;
    }
    if (role == Qt::TextAlignmentRole && index.column() != LaneColumn) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant RangeStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
    case LaneColumn: return tr("Lane");
    case ExecutingColumn: return tr("Executing");
    case SleepingColumn: return tr("Sleeping");
    case OverheadColumn: return tr("Overhead");
    case UserColumn: return tr("Main thread");
    case IdleColumn: return tr("No state");
    case TasksColumn: return tr("Tasks started");
    default: return {};
    }
}

} // namespace starscope::viewer
