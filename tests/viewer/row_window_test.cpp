// Wide machines in the window: rows keep a readable height and the ones that do not fit scroll
// (a bar beside the chart, Shift+wheel, Page Up/Down) or zoom (Ctrl+wheel); a lane filter keeps
// the lanes a user names. A 256-worker trace squeezed 257 rows into the chart, 2 pixels each.
#include "tests/support/synthetic_trace.hpp"
#include "tests/support/test_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "tracer/native/native_format.hpp"
#include "viewer/core/layout/lane_layout.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/window/main_window.hpp"

#include <gtest/gtest.h>

#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

using namespace starscope::viewer;
using starscope::testing::TempDir;

namespace {

constexpr int kTimeoutMs = 60'000;

QString writeWorkers(const TempDir& dir, int workers) {
    SyntheticOptions options;
    options.cpuWorkers = workers;
    options.batchesPerEpoch = 2;
    options.tasksPerWorker = 2;
    const auto path = dir / ("workers" + std::to_string(workers) + ".sstrace");
    const auto written = starscope::tracer::writeNativeFile(makeSyntheticTrace(options), path);
    EXPECT_TRUE(written) << written.error().describe();
    return QString::fromStdString(path.string());
}

bool load(MainWindow& window, const QString& path) {
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    window.openPath(path);
    if (!loaded.wait(kTimeoutMs)) {
        return false;
    }
    window.plot()->replot(QCustomPlot::rpImmediateRefresh);
    QApplication::processEvents();
    return true;
}

void wheel(GanttPlot* plot, int steps, Qt::KeyboardModifiers modifiers) {
    const QPointF at(plot->axisRect()->rect().center());
    QWheelEvent event(at, plot->mapToGlobal(at), QPoint(), QPoint(0, 120 * steps), Qt::NoButton, modifiers,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(plot, &event);
    plot->replot(QCustomPlot::rpImmediateRefresh);
}

double rowPx(GanttPlot* plot) {
    return plot->axisRect()->rect().height() / plot->rowWindow().shown;
}

Row laneRow(std::string label, std::string group, std::int32_t rank = -1) {
    Row row;
    row.lane = 0;
    row.label = std::move(label);
    row.group = std::move(group);
    row.rank = rank;
    return row;
}

std::vector<std::string> labels(const std::vector<Row>& rows) {
    std::vector<std::string> out;
    for (const Row& row : rows) {
        out.push_back(row.label);
    }
    return out;
}

} // namespace

TEST(LaneFilter, KeepsTheRowsWhoseLabelOrGroupHasOneOfItsTerms) {
    const std::vector<Row> rows{laneRow("main", "main thread"),      laneRow("CPU 0", "CPU, node 0"),
                                laneRow("CPU 1", "CPU, node 0"),      laneRow("CPU 10", "CPU, node 0"),
                                laneRow("CUDA 0", "CUDA, node 1"),    laneRow("CUDA 0 memory", "memory nodes"),
                                laneRow("RAM", "memory nodes"),       laneRow("1_CPU 0", "rank 1: CPU, node 0", 1)};
    EXPECT_EQ(filterRows(rows, "").size(), rows.size());
    EXPECT_EQ(filterRows(rows, " , ").size(), rows.size());
    EXPECT_EQ(labels(filterRows(rows, "cpu 1")), (std::vector<std::string>{"CPU 1", "CPU 10"}));
    EXPECT_EQ(labels(filterRows(rows, "cuda, RAM")), (std::vector<std::string>{"CUDA 0", "CUDA 0 memory", "RAM"}));
    EXPECT_EQ(labels(filterRows(rows, "memory")), (std::vector<std::string>{"CUDA 0 memory", "RAM"}));
    EXPECT_EQ(labels(filterRows(rows, "rank 1")), (std::vector<std::string>{"1_CPU 0"}));
    EXPECT_TRUE(filterRows(rows, "gpu").empty());
}

TEST(RowWindow, AWideMachineScrollsWithRowsOfAReadableHeight) {
    TempDir dir;
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    ASSERT_TRUE(load(window, writeWorkers(dir, 256)));
    GanttPlot* plot = window.plot();
    auto window0 = plot->rowWindow();
    ASSERT_EQ(window0.total, 258u);   // main, the CPU workers' header, 256 workers
    EXPECT_LT(window0.shown, 258.0);
    EXPECT_DOUBLE_EQ(window0.first, 0.0);
    EXPECT_GE(rowPx(plot), GanttPlot::kMinRowPx - 0.01);
    QScrollBar* bar = window.rowScrollBar();
    EXPECT_TRUE(bar->isVisible());
    EXPECT_EQ(bar->maximum(), static_cast<int>(std::ceil(258.0 - window0.shown)));

    // The bar, Shift+wheel and Page Down move the rows; the chart follows the bar and back.
    bar->setValue(100);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_DOUBLE_EQ(plot->rowWindow().first, 100.0);
    wheel(plot, -2, Qt::ShiftModifier);   // two steps down
    EXPECT_DOUBLE_EQ(plot->rowWindow().first, 106.0);
    EXPECT_EQ(bar->value(), 106);
    const double shown = plot->rowWindow().shown;
    QTest::keyClick(plot, Qt::Key_PageDown);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_DOUBLE_EQ(plot->rowWindow().first, 106.0 + shown - 1.0);
    // Not past the last row.
    plot->scrollRows(1000);
    EXPECT_DOUBLE_EQ(plot->rowWindow().first, 258.0 - shown);

    // Ctrl+wheel: fewer, taller rows, then back to as many as fit.
    wheel(plot, 3, Qt::ControlModifier);
    EXPECT_LT(plot->rowWindow().shown, shown);
    EXPECT_GT(rowPx(plot), GanttPlot::kMinRowPx);
    QTest::keyClick(plot, Qt::Key_Home);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_DOUBLE_EQ(plot->rowWindow().first, 0.0);
    EXPECT_DOUBLE_EQ(plot->rowWindow().shown, shown);
}

// docs/viewer.md promises rows never thinner than a text line; Ctrl+wheel out made them 4.6 px.
TEST(RowWindow, CtrlWheelOutStopsAtRowsOfATextLine) {
    TempDir dir;
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    ASSERT_TRUE(load(window, writeWorkers(dir, 256)));
    GanttPlot* plot = window.plot();
    const double fit = plot->rowWindow().shown;
    wheel(plot, 2, Qt::ControlModifier);   // in: fewer, taller rows
    for (int step = 0; step < 12; ++step) {
        wheel(plot, -1, Qt::ControlModifier);   // out, past where it started
        EXPECT_GE(rowPx(plot), GanttPlot::kMinRowPx - 0.01) << "after " << step + 1 << " steps out";
    }
    EXPECT_DOUBLE_EQ(plot->rowWindow().shown, fit);
    // A smaller window keeps the rule for rows zoomed before.
    window.resize(1000, 600);
    QApplication::processEvents();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_GE(rowPx(plot), GanttPlot::kMinRowPx - 0.01);
}

TEST(RowWindow, AFewLanesFillTheChartWithoutABar) {
    TempDir dir;
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    ASSERT_TRUE(load(window, writeWorkers(dir, 4)));
    EXPECT_DOUBLE_EQ(window.plot()->rowWindow().shown, 5.0);
    EXPECT_FALSE(window.rowScrollBar()->isVisible());
}

// A picture (--render, export) draws every row, as before: it cannot scroll.
TEST(RowWindow, APictureDrawsEveryRow) {
    SyntheticOptions options;
    options.cpuWorkers = 256;
    options.batchesPerEpoch = 2;
    options.tasksPerWorker = 2;
    GanttPlot plot;
    plot.resize(1600, 1000);
    plot.setDocument(prepareDocument(makeSyntheticTrace(options), "synthetic"));
    plot.toPixmap(1600, 1000);
    EXPECT_DOUBLE_EQ(plot.rowWindow().shown, 258.0);
}

TEST(LaneFilter, TheWindowShowsOnlyTheMatchingLanesUntilTheNextTrace) {
    TempDir dir;
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    ASSERT_TRUE(load(window, writeWorkers(dir, 256)));
    QSignalSpy rowsChanged(window.plot(), &GanttPlot::rowsChanged);
    window.laneFilter()->setText(QStringLiteral("cpu 1"));
    ASSERT_EQ(rowsChanged.size(), 1);
    // The CPU workers' header, CPU 1, CPU 10..19, CPU 100..199.
    ASSERT_EQ(window.plot()->rows().size(), 1u + 111u);
    EXPECT_EQ(window.plot()->rows().front().kind, RowKind::KindHeader);
    for (const Row& row : window.plot()->rows()) {
        EXPECT_TRUE(row.kind == RowKind::KindHeader || row.label.rfind("CPU 1", 0) == 0u) << row.label;
    }
    window.laneFilter()->setText(QStringLiteral("main, CPU 2"));
    // main, the header, CPU 2, CPU 20..29, CPU 200..255.
    EXPECT_EQ(window.plot()->rows().size(), 1u + 1u + 1u + 10u + 56u);
    ASSERT_TRUE(load(window, writeWorkers(dir, 8)));
    EXPECT_TRUE(window.laneFilter()->text().isEmpty());
    EXPECT_EQ(window.plot()->rows().size(), 9u);
}
