// Lane labels thinned to what fits: a 256-worker trace in a 1000-pixel plot labels rows at least
// a text line apart (it drew 256 labels on top of each other), a few lanes keep every label.

#include "tests/support/synthetic_trace.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "viewer/core/trace_document.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"

#include <gtest/gtest.h>

#include <QFontMetricsF>

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
