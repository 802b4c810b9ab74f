#include "viewer/gui/comparison/comparison_model.hpp"

#include "viewer/gui/panels/metric_cells.hpp"

#include <cmath>

namespace starscope::viewer {

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

int ComparisonModel::columnOf(std::string_view key) {
    const auto list = tracer::run::metrics();
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (list[i].key == key) {
            return static_cast<int>(i) + 1;
        }
    }
    return -1;
}

const tracer::run::Metric* ComparisonModel::metricOf(int column) {
    const auto list = tracer::run::metrics();
    return column >= 1 && static_cast<std::size_t>(column) <= list.size() ? &list[static_cast<std::size_t>(column) - 1]
                                                                         : nullptr;
}

void ComparisonModel::setRuns(std::vector<RunFigures> runs) {
    beginResetModel();
    m_runs = std::move(runs);
    endResetModel();
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(tracer::run::metrics().size()) + 1;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const auto& run = m_runs[static_cast<std::size_t>(index.row())];
    const tracer::run::Metric* metric = metricOf(index.column());
    if (metric == nullptr) {
        if (role == Qt::DisplayRole) {
            return QString::fromStdString(run.strategy);
        }
        if (role == Qt::ToolTipRole) {
            return QString::fromStdString(run.source);
        }
        return {};
    }
    const Figure& figure = run.*(metric->figure);
    const Figure& base = m_runs.front().*(metric->figure);
    std::optional<double> delta;
    if (index.row() > 0 && figure.value && base.value) {
        delta = *base.value != 0.0 ? (*figure.value - *base.value) / std::abs(*base.value)
                                   : (*figure.value == 0.0 ? 0.0 : 1.0);
    }
    switch (role) {
    case Qt::DisplayRole: {
        if (!figure.value) {
            return QStringLiteral("n/a");
        }
        QString shown = QString::fromStdString(tracer::run::formatFigure(*figure.value, metric->unit));
        if (delta) {
            shown += deltaText(*delta);
        }
        return shown;
    }
    case Qt::ForegroundRole: return delta ? deltaForeground(*delta, *metric) : QVariant();
    case Qt::ToolTipRole: return figure.value ? QVariant() : QVariant(QString::fromStdString(figure.reason));
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case ValueRole: return figure.value ? QVariant(*figure.value) : QVariant();
    case DeltaRole: return delta ? QVariant(*delta) : QVariant();
    default: return {};
    }
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical) {
        return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
    }
    const tracer::run::Metric* metric = metricOf(section);
    if (role == Qt::DisplayRole) {
        if (metric == nullptr) {
            return section == StrategyColumn ? QVariant(QStringLiteral("Strategy")) : QVariant();
        }
        return metricHeader(*metric);
    }
    if (role == Qt::ToolTipRole && metric != nullptr) {
        return metricHeaderTip(*metric);
    }
    return {};
}

} // namespace starscope::viewer
