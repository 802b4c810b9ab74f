#include "viewer/gui/panels/codelet_stats_model.hpp"

#include "tracer/analysis/stats.hpp"
#include "tracer/report/duration_format.hpp"

#include <QBrush>
#include <QColor>

namespace starscope::viewer {

CodeletStatsModel::CodeletStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void CodeletStatsModel::setStats(std::shared_ptr<const TraceDocument> document,
                                 std::vector<tracer::CodeletStats> codelets) {
    beginResetModel();
    m_document = std::move(document);
    m_codelets = std::move(codelets);
    m_rows.clear();
    for (std::size_t c = 0; c < m_codelets.size(); ++c) {
        const auto& kinds = m_codelets[c].perKind;
        m_rows.push_back({c, kinds.size() == 1 ? 0 : -1});
        for (std::size_t k = 0; kinds.size() > 1 && k < kinds.size(); ++k) {
            m_rows.push_back({c, static_cast<int>(k)});
        }
    }
    endResetModel();
}

void CodeletStatsModel::clear() {
    beginResetModel();
    m_document.reset();
    m_codelets.clear();
    m_rows.clear();
    endResetModel();
}

int CodeletStatsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CodeletStatsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

const tracer::DurationSummary& CodeletStatsModel::durationsOf(const Row& row) const {
    const auto& codelet = m_codelets[row.codelet];
    return row.kind < 0 ? codelet.all : codelet.perKind[static_cast<std::size_t>(row.kind)].durations;
}

QVariant CodeletStatsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_document) {
        return {};
    }
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const auto& codelet = m_codelets[row.codelet];
    const auto& d = durationsOf(row);
    // The kind's rows under a codelet repeat no name: they read as its breakdown.
    const bool first = row.kind <= 0 && (row.kind < 0 || codelet.perKind.size() == 1);
    const auto time = [&](tracer::TimeNs ticks) -> QVariant {
        if (role == SortRole) {
            return QVariant::fromValue<qlonglong>(ticks);
        }
        return QString::fromStdString(tracer::formatDuration(ticks, tracer::ticksPerSecond(m_document->trace)));
    };
    if (role == CodeletRole) {
        return QString::fromStdString(codelet.codelet);
    }
    if (role == Qt::DisplayRole || role == SortRole) {
        switch (index.column()) {
        case CodeletColumn:
            if (!first && role == Qt::DisplayRole) {
                return QString();
            }
            return codelet.codelet.empty() ? tr("(no codelet)") : QString::fromStdString(codelet.codelet);
        case KindColumn:
            return row.kind < 0 ? tr("all") : QString::fromUtf8(tracer::workerKindName(codelet.perKind[static_cast<std::size_t>(row.kind)].kind));
        case TasksColumn: return QVariant::fromValue<qulonglong>(d.count);
        case TotalColumn: return time(d.total);
        case MeanColumn: return time(d.mean);
        case MedianColumn: return time(d.median);
        case MinColumn: return time(d.min);
        case MaxColumn: return time(d.max);
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == CodeletColumn && codelet.internal) {
        return tr("StarPU's own codelet (not the program's)");
    }
    if (role == Qt::ForegroundRole && codelet.internal) {
        return QBrush(QColor(Qt::gray));
    }
    if (role == Qt::TextAlignmentRole && index.column() >= TasksColumn) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant CodeletStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case CodeletColumn: return tr("Codelet");
    case KindColumn: return tr("Kind");
    case TasksColumn: return tr("Tasks");
    case TotalColumn: return tr("Total");
    case MeanColumn: return tr("Mean");
    case MedianColumn: return tr("Median");
    case MinColumn: return tr("Min");
    case MaxColumn: return tr("Max");
    default: return {};
    }
}

} // namespace starscope::viewer
