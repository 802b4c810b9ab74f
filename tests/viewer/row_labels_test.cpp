// Lane labels thinned to what fits: a 256-worker trace in a 1000-pixel plot labels rows at least
// a text line apart (it drew 256 labels on top of each other), a few lanes keep every label.

#include "tests/support/synthetic_trace.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "viewer/core/document/trace_document.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"

#include <gtest/gtest.h>

#include <QFontMetricsF>
#include <QRegularExpression>

#include <algorithm>

using namespace starscope::viewer;

namespace {

std::vector<double> labelledRows(GanttPlot& plot, QSize size, int workers) {
    SyntheticOptions options;
    options.cpuWorkers = workers;
    options.batchesPerEpoch = 2;
    options.tasksPerWorker = 2;
    plot.resize(size);
    plot.setDocument(prepareDocument(makeSyntheticTrace(options), "synthetic"));
    plot.toPixmap(size.width(), size.height());
    const auto ticker = plot.yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    const auto keys = ticker->ticks().keys();
    return {keys.begin(), keys.end()};
}

} // namespace

TEST(RowLabels, AreThinnedToATextLineApart) {
    GanttPlot plot;
    const auto rows = labelledRows(plot, QSize(1600, 1000), 256);
    ASSERT_EQ(plot.rows().size(), 258u);   // the main thread, the CPU workers' header and the workers
    ASSERT_GE(rows.size(), 2u);
    EXPECT_LT(rows.size(), plot.rows().size() / 2);
    const double labelPx = QFontMetricsF(plot.yAxis->tickLabelFont()).height();
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const double apart = std::abs(plot.yAxis->coordToPixel(rows[i]) - plot.yAxis->coordToPixel(rows[i - 1]));
        EXPECT_GE(apart, labelPx - 0.5) << "rows " << rows[i - 1] << " and " << rows[i];
    }
}

TEST(RowLabels, FewLanesKeepEveryLabel) {
    GanttPlot plot;
    EXPECT_EQ(labelledRows(plot, QSize(1600, 1000), 4).size(), 5u);
}

// A 256-worker picture named its workers from CPU 8 on and left the main thread unnamed: the
// main thread keeps its label, and the workers are named in runs from CPU 0 ("CPU 0-10"), every
// one of them within some label.
TEST(RowLabels, AWideMachineNamesTheMainThreadAndEveryWorkerFromTheFirst) {
    GanttPlot plot;
    labelledRows(plot, QSize(1600, 900), 256);
    const auto ticker = plot.yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    std::vector<bool> named(256, false);
    bool mainNamed = false;
    for (const QString& label : ticker->ticks().values()) {
        mainNamed = mainNamed || label == QStringLiteral("main");
        static const QRegularExpression workers(QStringLiteral(R"(^CPU (\d+)(?:-(\d+))?\b)"));
        if (const auto match = workers.match(label); match.hasMatch()) {
            const int first = match.captured(1).toInt();
            const int last = match.captured(2).isEmpty() ? first : match.captured(2).toInt();
            for (int w = first; w <= last && w < 256; ++w) {
                named[static_cast<std::size_t>(w)] = true;
            }
        }
    }
    EXPECT_TRUE(mainNamed);
    for (int w = 0; w < 8; ++w) {
        EXPECT_TRUE(named[static_cast<std::size_t>(w)]) << "CPU " << w << " is in no label";
    }
    EXPECT_EQ(std::count(named.begin(), named.end(), false), 0);
}

// Each worker's row says its idleness, as StarVZ labels its lanes; computed once by the tracer
// (tracer::workerShares) when the document is prepared, and only formatted here.
TEST(RowLabels, WorkersCarryTheirIdleness) {
    GanttPlot plot;
    labelledRows(plot, QSize(1600, 1000), 4);
    const auto& document = *plot.document();
    const auto ticker = plot.yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    int workers = 0;
    for (auto it = ticker->ticks().cbegin(); it != ticker->ticks().cend(); ++it) {
        const Row& row = plot.rows()[static_cast<std::size_t>(it.key())];
        if (row.kind != RowKind::Lane) {
            continue;
        }
        const auto& idleness = document.laneIdleness[static_cast<std::size_t>(row.lane)];
        if (!document.trace.lanes[static_cast<std::size_t>(row.lane)].isWorker()) {
            EXPECT_FALSE(idleness);
            EXPECT_EQ(it.value().toStdString(), row.label);
            continue;
        }
        ++workers;
        ASSERT_TRUE(idleness) << row.label;
        EXPECT_GT(*idleness, 0.0);
        EXPECT_LT(*idleness, 1.0);
        EXPECT_EQ(it.value(), QStringLiteral("%1  %2 % idle")
                                  .arg(QString::fromStdString(row.label))
                                  .arg(*idleness * 100.0, 0, 'f', 1));
    }
    EXPECT_EQ(workers, 4);
}
