#include "viewer/gui/comparison/comparison_charts.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <string_view>

namespace starscope::viewer {

namespace {

// The metrics drawn, by their key in the run model's table (which gives label, unit, figure).
constexpr std::array<std::string_view, 8> kChartKeys = {
    "wall_time_s", "makespan_ns", "llc_load_miss_ratio", "llc_store_miss_ratio",
    "ipc",         "power_w",     "peak_memory_bytes",   "barrier_total_ns",
};

struct Chart {
    QString title;
    Figure RunFigures::*figure;
    double scale; // value shown = figure * scale
};

// An axis shows plain numbers: times in seconds, bytes in MiB, the unit in the title.
Chart chartOf(const tracer::run::Metric& m) {
    using tracer::run::Unit;
    const char* unit = "";
    double scale = 1.0;
    switch (m.unit) {
    case Unit::Nanoseconds: unit = " (s)"; scale = 1e-9; break;
    case Unit::Seconds: unit = " (s)"; break;
    case Unit::Bytes: unit = " (MiB)"; scale = 1.0 / (1024.0 * 1024.0); break;
    case Unit::Joules: unit = " (J)"; break;
    case Unit::Watts: unit = " (W)"; break;
    case Unit::Ratio:
    case Unit::Count:
    case Unit::Plain: break;
    }
    return {QString::fromUtf8(m.label.data(), static_cast<qsizetype>(m.label.size())) + QString::fromLatin1(unit),
            m.figure, scale};
}

const std::vector<Chart>& charts() {
    static const std::vector<Chart> kCharts = [] {
        std::vector<Chart> list;
        for (const auto key : kChartKeys) {
            const auto* metric = tracer::run::findMetric(key);
            assert(metric != nullptr && "a chart names a metric the run model does not have");
            if (metric != nullptr) {
                list.push_back(chartOf(*metric));
            }
        }
        return list;
    }();
    return kCharts;
}

constexpr int kColumns = 4;
const QColor kBarColours[] = {QColor(70, 110, 200), QColor(230, 140, 40), QColor(60, 160, 90),
                              QColor(180, 70, 160), QColor(120, 120, 120)};

} // namespace

ComparisonCharts::ComparisonCharts(QWidget* parent) : QCustomPlot(parent) {
    setAutoAddPlottableToLegend(false);
    plotLayout()->clear();
    const auto& list = charts();
    for (std::size_t i = 0; i < list.size(); ++i) {
        auto* rect = new QCPAxisRect(this);
        rect->axis(QCPAxis::atLeft)->setLabel(list[i].title);
        rect->axis(QCPAxis::atBottom)->grid()->setVisible(false);
        plotLayout()->addElement(static_cast<int>(i) / kColumns, static_cast<int>(i) % kColumns, rect);
        m_charts.push_back(rect);
    }
}

QStringList ComparisonCharts::chartTitles() {
    QStringList titles;
    for (const auto& c : charts()) {
        titles << c.title;
    }
    return titles;
}

QCPAxisRect* ComparisonCharts::chart(int i) const { return m_charts.at(static_cast<std::size_t>(i)); }

void ComparisonCharts::setRuns(const std::vector<RunFigures>& runs) {
    clearPlottables();
    clearItems();
    m_missingLabels = 0;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    m_runLabels.clear();
    for (const auto& label : chartRunLabels(runs)) {
        // "single+naive, 2 ranks" on three lines, so neighbouring labels do not overlap.
        m_runLabels << QString::fromStdString(label)
                           .replace(QLatin1Char('+'), QLatin1Char('\n'))
                           .replace(QStringLiteral(", "), QStringLiteral("\n"));
        ticker->addTick(static_cast<double>(m_runLabels.size()), m_runLabels.back());
    }
    const auto& list = charts();
    for (std::size_t i = 0; i < list.size(); ++i) {
        QCPAxisRect* rect = m_charts[i];
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        QCPAxis* y = rect->axis(QCPAxis::atLeft);
        x->setTicker(ticker);
        x->setRange(0.4, static_cast<double>(runs.size()) + 0.6);
        double top = 0.0;
        for (std::size_t r = 0; r < runs.size(); ++r) {
            const Figure& f = runs[r].*(list[i].figure);
            if (f.value) {
                top = std::max(top, *f.value * list[i].scale);
            }
        }
        y->setRange(0.0, top > 0.0 ? top * 1.15 : 1.0);
        for (std::size_t r = 0; r < runs.size(); ++r) {
            const Figure& f = runs[r].*(list[i].figure);
            const double key = static_cast<double>(r + 1);
            if (f.value) {
                auto* bars = new QCPBars(x, y);
                bars->setWidth(0.6);
                const QColor colour = kBarColours[r % std::size(kBarColours)];
                bars->setBrush(colour);
                bars->setPen(QPen(colour.darker(130)));
                bars->addData(key, *f.value * list[i].scale);
            } else {
                auto* label = new QCPItemText(this);
                label->setClipAxisRect(rect);
                label->position->setAxes(x, y);
                label->position->setType(QCPItemPosition::ptPlotCoords);
                label->position->setCoords(key, y->range().upper * 0.1);
                label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
                label->setText(QStringLiteral("n/a"));
                label->setColor(QColor(120, 120, 120));
                label->setFont(QFont(font().family(), font().pointSize() + 2, QFont::Bold));
                ++m_missingLabels;
            }
        }
    }
    replot(rpQueuedReplot);
}

} // namespace starscope::viewer
