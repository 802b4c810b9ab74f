#include "viewer/gui/panels/group_table_model.hpp"

#include "viewer/gui/panels/metric_cells.hpp"

#include <QStringList>

#include <cassert>

namespace starscope::viewer {

GroupTableModel::GroupTableModel(std::vector<std::string_view> keys, bool deltas, QObject* parent)
    : QAbstractTableModel(parent), m_deltas(deltas) {
    for (const auto key : keys) {
        const tracer::run::Metric* metric = tracer::run::findMetric(key);
        assert(metric != nullptr);
        if (metric != nullptr) {
            m_metrics.push_back(metric);
        }
    }
}

void GroupTableModel::setRows(std::vector<GroupRow> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int GroupTableModel::columnOf(std::string_view key) const {
    for (std::size_t i = 0; i < m_metrics.size(); ++i) {
        if (m_metrics[i]->key == key) {
            return FirstMetricColumn + static_cast<int>(i);
        }
    }
    return -1;
}

int GroupTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int GroupTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : FirstMetricColumn + static_cast<int>(m_metrics.size());
}

QVariant GroupTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const GroupRow& row = m_rows[static_cast<std::size_t>(index.row())];
    const auto& g = row.group;
    if (index.column() < FirstMetricColumn) {
        if (role == Qt::DisplayRole) {
            switch (index.column()) {
            case NameColumn: return QString::fromStdString(g.name) + (m_deltas && row.baseline ? QStringLiteral(" (baseline)") : QString());
            case RanksColumn: return QVariant::fromValue<qulonglong>(g.ranks);
            case RunsColumn: return QVariant::fromValue<qulonglong>(g.runs.size());
            default: return {};
            }
        }
        if (role == Qt::ToolTipRole && index.column() == NameColumn) {
            QStringList sources;
            for (const auto& r : g.runs) {
                sources << QString::fromStdString(r.source);
            }
            return sources.join(QLatin1Char('\n'));
        }
        return {};
    }
    const tracer::run::Metric* metric = m_metrics[static_cast<std::size_t>(index.column() - FirstMetricColumn)];
    const auto a = g.aggregates.find(metric->key);
    std::optional<double> delta;
    if (m_deltas && !row.baseline) {
        if (const auto d = g.deltas.find(metric->key); d != g.deltas.end()) {
            delta = d->second;
        }
    }
    switch (role) {
    case Qt::DisplayRole: {
        if (a == g.aggregates.end()) {
            return QStringLiteral("n/a");
        }
        QString shown = QString::fromStdString(tracer::run::formatFigure(a->second.median, metric->unit));
        if (a->second.n > 1) {
            shown += QStringLiteral(" [%1-%2]")
                         .arg(QString::fromStdString(tracer::run::formatFigure(a->second.min, metric->unit)),
                              QString::fromStdString(tracer::run::formatFigure(a->second.max, metric->unit)));
        }
        if (delta) {
            shown += deltaText(*delta);
        }
        return shown;
    }
    case Qt::ForegroundRole: return delta ? deltaForeground(*delta, *metric) : QVariant();
    case Qt::ToolTipRole:
        if (a == g.aggregates.end()) {
            const auto reason = g.reasons.find(metric->key);
            return reason != g.reasons.end() ? QVariant(QString::fromStdString(reason->second)) : QVariant();
        }
        return {};
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case ValueRole: return a != g.aggregates.end() ? QVariant(a->second.median) : QVariant();
    case DeltaRole: return delta ? QVariant(*delta) : QVariant();
    default: return {};
    }
}

QVariant GroupTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical) {
        return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
    }
    if (section < FirstMetricColumn) {
        if (role != Qt::DisplayRole) {
            return {};
        }
        switch (section) {
        case NameColumn: return QStringLiteral("Column");
        case RanksColumn: return QStringLiteral("Ranks");
        case RunsColumn: return QStringLiteral("Runs");
        default: return {};
        }
    }
    if (section - FirstMetricColumn >= static_cast<int>(m_metrics.size())) {
        return {};
    }
    const tracer::run::Metric* metric = m_metrics[static_cast<std::size_t>(section - FirstMetricColumn)];
    if (role == Qt::DisplayRole) {
        return metricHeader(*metric);
    }
    return role == Qt::ToolTipRole ? QVariant(metricHeaderTip(*metric)) : QVariant();
}

} // namespace starscope::viewer
