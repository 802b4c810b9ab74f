#include "viewer/gui/panels/metric_cells.hpp"

#include <QBrush>
#include <QColor>

#include <cmath>

namespace starscope::viewer {

namespace {

const QColor kBetter(20, 130, 40);
const QColor kWorse(200, 30, 30);

QString text(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

} // namespace

QString metricHeader(const tracer::run::Metric& metric) {
    // The table's labels are lower case for running text; a column header starts upper case.
    QString label = text(metric.label);
    label[0] = label[0].toUpper();
    return label;
}

QString metricHeaderTip(const tracer::run::Metric& metric) {
    QString tip = text(metric.computed);
    if (metric.naWhen != "never") {
        tip += QStringLiteral("; n/a when ") + text(metric.naWhen);
    }
    return tip;
}

QString deltaText(double delta) {
    return QStringLiteral(" (%1%2 %)").arg(delta >= 0 ? QStringLiteral("+") : QString()).arg(delta * 100.0, 0, 'f', 1);
}

QVariant deltaForeground(double delta, const tracer::run::Metric& metric) {
    if (std::abs(delta) < 0.0005) {
        return {};
    }
    return QBrush((delta < 0) == metric.lowerIsBetter ? kBetter : kWorse);
}

} // namespace starscope::viewer
