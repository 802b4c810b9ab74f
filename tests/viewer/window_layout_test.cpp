// The window's layout at the sizes people use: the chart keeps at least half of a 1000x650 or
// 700x500 window (the docks left it 170 and 45 px of height), the barrier list shows its Cause
// column, the codelet histogram has room for its duration labels without their overlapping,
// and focus is on the chart once a trace is open, so that the first W zooms instead of typing
// a "w" into the search field.
#include "tests/support/synthetic_trace.hpp"
#include "tests/support/test_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "tests/viewer/window_support.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/panels/barrier_list_model.hpp"
#include "viewer/gui/panels/codelet_panel.hpp"
#include "viewer/gui/panels/search_bar.hpp"
#include "viewer/gui/window/main_window.hpp"

#include <QDockWidget>
#include <QFontMetricsF>
#include <QHeaderView>
#include <QLineEdit>
#include <QTableView>
#include <QTest>
#include <algorithm>
#include <gtest/gtest.h>
#include <vector>

using namespace starscope::viewer;
using starscope::testing::TempDir;
using starscope::viewer::testing::showAndOpen;
using starscope::viewer::testing::writeSynthetic;

namespace {

void settle(MainWindow& window) {
    for (int i = 0; i < 3; ++i) {
        QApplication::processEvents();
    }
    window.plot()->replot(QCustomPlot::rpImmediateRefresh);
}

::testing::AssertionResult chartHasHalf(MainWindow& window) {
    const QSize chart = window.plot()->size();
    const QSize whole = window.size();
    if (2 * chart.height() >= whole.height() && 2 * chart.width() >= whole.width()) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << "the chart is " << chart.width() << "x" << chart.height() << " in a " << whole.width()
           << "x" << whole.height() << " window";
}

// Every labelled tick of a plot's x axis as the pixel interval its label covers, left to right.
std::vector<std::pair<double, double>> labelSpans(QCustomPlot* plot) {
    std::vector<std::pair<double, double>> spans;
    const auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker) {
        return spans;
    }
    const QFontMetricsF metrics(plot->xAxis->tickLabelFont());
    for (auto it = ticker->ticks().cbegin(); it != ticker->ticks().cend(); ++it) {
        const double key = it.key();
        if (it.value().isEmpty() || !plot->xAxis->range().contains(key)) {
            continue;
        }
        const double x = plot->xAxis->coordToPixel(key);
        const double half = metrics.horizontalAdvance(it.value()) / 2.0;
        spans.emplace_back(x - half, x + half);
    }
    std::sort(spans.begin(), spans.end());
    return spans;
}

} // namespace

TEST(WindowLayout, TheChartKeepsHalfTheWindowAtSmallSizes) {
    TempDir dir;
    const QString path = writeSynthetic(dir, "half.sstrace");
    for (const QSize size : {QSize(1000, 650), QSize(700, 500)}) {
        MainWindow window;
        ASSERT_TRUE(showAndOpen(window, path, size));
        settle(window);
        EXPECT_TRUE(chartHasHalf(window)) << "opened at " << size.width() << "x" << size.height();
    }
    // Made smaller once open: the docks give up their space, not the chart.
    MainWindow window;
    ASSERT_TRUE(showAndOpen(window, path, QSize(1400, 900)));
    settle(window);
    for (const QSize size : {QSize(1000, 650), QSize(700, 500)}) {
        window.resize(size);
        settle(window);
        EXPECT_TRUE(chartHasHalf(window)) << "resized to " << size.width() << "x" << size.height();
    }
}

TEST(WindowLayout, TheBarrierListShowsItsCauseColumn) {
    TempDir dir;
    MainWindow window;
    ASSERT_TRUE(showAndOpen(window, writeSynthetic(dir, "cause.sstrace"), QSize(1000, 650)));
    settle(window);
    QTableView* list = window.barrierView();
    ASSERT_GT(list->model()->rowCount(), 0);
    const QHeaderView* header = list->horizontalHeader();
    const int left = header->sectionViewportPosition(BarrierListModel::CauseColumn);
    const int shown = std::min(list->viewport()->width(),
                               left + header->sectionSize(BarrierListModel::CauseColumn))
                      - std::max(0, left);
    // At least its title's width, as the other columns show theirs.
    const int title = list->fontMetrics().horizontalAdvance(QStringLiteral("Cause"));
    EXPECT_GE(shown, title) << "Cause starts at " << left << " px of a "
                            << list->viewport()->width() << " px list";
}

TEST(WindowLayout, TheCodeletHistogramHasRoomForItsLabels) {
    TempDir dir;
    SyntheticOptions options;
    options.jitter = 0.9; // durations spread over decades' worth of buckets
    options.taskNs = 5'000;
    options.tasksPerWorker = 40;
    MainWindow window;
    ASSERT_TRUE(
        showAndOpen(window, writeSynthetic(dir, "histogram.sstrace", options), QSize(1000, 650)));
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("codeletDock"));
    ASSERT_NE(dock, nullptr);
    dock->raise();
    settle(window);
    CodeletPanel* panel = window.codeletPanel();
    QCustomPlot* histogram = panel->histogram();
    histogram->replot(QCustomPlot::rpImmediateRefresh);
    // Its share of the panel (2 of 5), not the 100 px its size hint got.
    EXPECT_GE(histogram->width(), panel->width() / 3) << "of a " << panel->width() << " px panel";
    const auto spans = labelSpans(histogram);
    ASSERT_FALSE(spans.empty());
    for (std::size_t i = 1; i < spans.size(); ++i) {
        EXPECT_LE(spans[i - 1].second, spans[i].first)
            << "labels " << i - 1 << " and " << i << " overlap";
    }
}

TEST(WindowLayout, FocusIsOnTheChartOnceATraceIsOpen) {
    TempDir dir;
    MainWindow window;
    window.resize(1000, 650);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    ASSERT_TRUE(showAndOpen(window, writeSynthetic(dir, "focus.sstrace"), QSize(1000, 650)));
    settle(window);
    EXPECT_EQ(QApplication::focusWidget(), window.plot());
    const TimeView before = window.plot()->view();
    QWidget* focused = QApplication::focusWidget();
    ASSERT_NE(focused, nullptr);
    QTest::keyClick(focused, Qt::Key_W);
    QApplication::processEvents();
    EXPECT_TRUE(window.searchBar()->field()->text().isEmpty())
        << window.searchBar()->field()->text().toStdString();
    EXPECT_LT(window.plot()->view().endNs - window.plot()->view().startNs,
              before.endNs - before.startNs);
}
