#pragma once
// How a run-model metric reads in the comparison window's tables: its column header and
// header tooltip, a change against a baseline and its colour. One place for the run table
// (ComparisonModel) and the group tables (GroupTableModel).

#include "tracer/run/run_figures.hpp"

#include <QString>
#include <QVariant>

namespace starscope::viewer {

// "Makespan": the table's label, upper case first.
QString metricHeader(const tracer::run::Metric& metric);
// How the figure is obtained and when it is n/a.
QString metricHeaderTip(const tracer::run::Metric& metric);
// " (+12.5 %)".
QString deltaText(double delta);
// A QBrush, green when the change is better for the metric, red when worse; none when it is
// too small to show.
QVariant deltaForeground(double delta, const tracer::run::Metric& metric);

} // namespace starscope::viewer
