// The critical path as a toggle: View > Show critical path draws the chain the analysis finds
// (tracer::criticalPath) in its colour over the rows, every task of it underlined, and nothing of
// that colour when it is off; a trace without dependencies leaves the action disabled; on a
// StarPU-MPI job the chain's arrows go from one rank's rows to the other's.

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

#include <algorithm>
#include <vector>

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

// The recorded 2-rank run: the chain goes from a task of one rank through StarPU-MPI's jobs
// around a message (which never run and have no row) to a task of the other rank, and an arrow
// joins the two tasks: every task of the chain that ran is underlined, each joined to the next.
TEST(CriticalPath, TheChainIsDrawnAcrossRanks) {
    MainWindow window;
    const auto input = starscope::testing::testDataDir() / "tracer" / "ranks13";
    ASSERT_TRUE(showAndOpen(window, QString::fromStdString(input.string()), QSize(1200, 800)));
    GanttPlot* plot = window.plot();
    const auto& document = *plot->document();
    const auto& trace = document.trace;
    std::vector<const starscope::tracer::Task*> ran;
    for (const auto index : document.criticalPath) {
        const auto& task = trace.tasks[index];
        if (task.start >= 0 && trace.laneAt(task.lane) != nullptr) {
            ran.push_back(&task);
        }
    }
    ASSERT_GE(ran.size(), 2u);
    window.criticalPathAction()->trigger();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const auto& links = plot->criticalPath()->links()->links();
    EXPECT_EQ(links.size(), 2 * ran.size() - 1);
    std::size_t acrossRanks = 0;
    for (std::size_t i = 0; i + 1 < ran.size(); ++i) {
        if (trace.laneAt(ran[i]->lane)->rank == trace.laneAt(ran[i + 1]->lane)->rank) {
            continue;
        }
        const auto from = static_cast<double>(ran[i]->end);
        const auto to = static_cast<double>(ran[i + 1]->start);
        acrossRanks += static_cast<std::size_t>(std::count_if(links.begin(), links.end(), [&](const Link& l) {
            return l.fromTime == from && l.toTime == to && l.fromRow != l.toRow;
        }));
    }
    EXPECT_GE(acrossRanks, 2u);
}
