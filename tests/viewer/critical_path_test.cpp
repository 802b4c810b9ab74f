// The critical path as a toggle: View > Show critical path draws the chain the analysis finds
// (tracer::criticalPath) in its colour over the rows, every task of it underlined, and nothing of
// that colour when it is off; a trace without dependencies leaves the action disabled.

#include "tests/support/test_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "tests/viewer/window_support.hpp"
#include "tracer/analysis/stats.hpp"
#include "viewer/gui/chart/critical_path_links.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/chart/link_plottable.hpp"
#include "viewer/gui/window/main_window.hpp"

#include <gtest/gtest.h>

#include <QAction>
#include <QImage>

using namespace starscope::viewer;
using starscope::viewer::testing::showAndOpen;

namespace {

int pixelsOf(const QImage& image, const QColor& colour) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            count += image.pixelColor(x, y) == colour ? 1 : 0;
        }
    }
    return count;
}

} // namespace

TEST(CriticalPath, TheToggleDrawsTheChainTheAnalysisFinds) {
    MainWindow window;
    const auto input = starscope::testing::testDataDir() / "tracer" / "small" / "prof_file__0";
    ASSERT_TRUE(showAndOpen(window, QString::fromStdString(input.string()), QSize(1200, 800)));
    GanttPlot* plot = window.plot();
    const auto& document = *plot->document();
    ASSERT_EQ(document.criticalPath, starscope::tracer::criticalPath(document.trace));
    ASSERT_GE(document.criticalPath.size(), 2u);

    QAction* action = window.criticalPathAction();
    ASSERT_TRUE(action->isEnabled());
    EXPECT_FALSE(action->isChecked());
    plot->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_EQ(pixelsOf(plot->toPixmap().toImage(), kCriticalPath), 0);

    action->trigger();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    // At fit-all every task of the chain is underlined, and an arrow joins each to the next.
    EXPECT_EQ(plot->criticalPath()->links()->links().size(), 2 * document.criticalPath.size() - 1);
    EXPECT_GT(pixelsOf(plot->toPixmap().toImage(), kCriticalPath), 50);

    // Zoomed onto the first task, only the links near it are laid out.
    const auto& first = document.trace.tasks[document.criticalPath.front()];
    plot->setView(static_cast<double>(first.start), static_cast<double>(first.end));
    plot->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_LT(plot->criticalPath()->links()->links().size(), 2 * document.criticalPath.size() - 1);
    EXPECT_FALSE(plot->criticalPath()->links()->links().empty());

    action->trigger();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_EQ(pixelsOf(plot->toPixmap().toImage(), kCriticalPath), 0);
}

TEST(CriticalPath, APajeTraceWithoutDependenciesHasNone) {
    MainWindow window;
    const auto input = starscope::testing::testDataDir() / "tracer" / "small" / "paje.trace";
    ASSERT_TRUE(showAndOpen(window, QString::fromStdString(input.string()), QSize(1000, 700)));
    EXPECT_TRUE(window.plot()->document()->criticalPath.empty());
    EXPECT_FALSE(window.criticalPathAction()->isEnabled());
}
