#include "viewer/gui/comparison_model.hpp"

#include "viewer/core/time_format.hpp"

#include <QBrush>
#include <QColor>

#include <cmath>

namespace starscope::viewer {

namespace {

const QColor kBetter(20, 130, 40);
const QColor kWorse(200, 30, 30);

const Figure* figureOf(const RunFigures& r, int column) {
    switch (column) {
    case ComparisonModel::MakespanColumn: return &r.makespanNs;
    case ComparisonModel::IdlenessColumn: return &r.idleness;
    case ComparisonModel::BarrierCountColumn: return &r.barrierCount;
    case ComparisonModel::BarrierTotalColumn: return &r.barrierTotalNs;
    case ComparisonModel::BarrierMaxColumn: return &r.barrierMaxNs;
    case ComparisonModel::StallColumn: return &r.meanTransitionStallNs;
    case ComparisonModel::CriticalPathColumn: return &r.criticalPathNs;
    case ComparisonModel::PeakMemoryColumn: return &r.peakMemoryBytes;
    default: return nullptr;
    }
}

QString bytes(double value) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < std::size(units)) {
        value /= 1024.0;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(value, 0, 'f', unit == 0 ? 0 : 1).arg(QLatin1String(units[unit]));
}

} // namespace

QString formatFigure(ComparisonModel::Column column, double value) {
    switch (column) {
    case ComparisonModel::MakespanColumn:
    case ComparisonModel::BarrierTotalColumn:
    case ComparisonModel::BarrierMaxColumn:
    case ComparisonModel::StallColumn:
    case ComparisonModel::CriticalPathColumn: return QString::fromStdString(formatDuration(value));
    case ComparisonModel::IdlenessColumn: return QStringLiteral("%1 %").arg(value * 100.0, 0, 'f', 1);
    case ComparisonModel::BarrierCountColumn: return QString::number(std::llround(value));
    case ComparisonModel::PeakMemoryColumn: return bytes(value);
    default: return QString::number(value);
    }
}

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonModel::setRuns(std::vector<RunFigures> runs) {
    beginResetModel();
    m_runs = std::move(runs);
    endResetModel();
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const auto& run = m_runs[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    if (column == StrategyColumn) {
        if (role == Qt::DisplayRole) {
            return QString::fromStdString(run.strategy);
        }
        if (role == Qt::ToolTipRole) {
            return QString::fromStdString(run.source);
        }
        return {};
    }
    const Figure* figure = figureOf(run, column);
    const Figure* base = figureOf(m_runs.front(), column);
    // Every figure of the table is better when lower.
    std::optional<double> delta;
    if (index.row() > 0 && figure->value && base->value) {
        delta = *base->value != 0.0 ? (*figure->value - *base->value) / std::abs(*base->value)
                                    : (*figure->value == 0.0 ? 0.0 : 1.0);
    }
    switch (role) {
    case Qt::DisplayRole: {
        if (!figure->value) {
            return QStringLiteral("n/a");
        }
        QString text = formatFigure(column, *figure->value);
        if (delta) {
            text += QStringLiteral(" (%1%2 %)").arg(*delta >= 0 ? QStringLiteral("+") : QString()).arg(*delta * 100.0, 0, 'f', 1);
        }
        return text;
    }
    case Qt::ForegroundRole:
        if (delta && std::abs(*delta) >= 0.0005) {
            return QBrush(*delta < 0 ? kBetter : kWorse);
        }
        return {};
    case Qt::ToolTipRole: return figure->value ? QVariant() : QVariant(QString::fromStdString(figure->reason));
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case ValueRole: return figure->value ? QVariant(*figure->value) : QVariant();
    case DeltaRole: return delta ? QVariant(*delta) : QVariant();
    default: return {};
    }
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) {
        return {};
    }
    if (orientation == Qt::Vertical) {
        return section + 1;
    }
    switch (section) {
    case StrategyColumn: return QStringLiteral("Strategy");
    case MakespanColumn: return QStringLiteral("Makespan");
    case IdlenessColumn: return QStringLiteral("Idleness");
    case BarrierCountColumn: return QStringLiteral("Barriers");
    case BarrierTotalColumn: return QStringLiteral("Barrier total");
    case BarrierMaxColumn: return QStringLiteral("Barrier max");
    case StallColumn: return QStringLiteral("Stall/transition");
    case CriticalPathColumn: return QStringLiteral("Critical path");
    case PeakMemoryColumn: return QStringLiteral("Peak memory");
    default: return {};
    }
}

} // namespace starscope::viewer
