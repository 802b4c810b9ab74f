// The "Codelets" dock end to end, offscreen: the whole trace's codelet table when a trace
// opens, the selected range's when one is selected and the whole again when it is cleared, the
// selected codelet's duration histogram, and a double-click that finds its tasks on the chart.

#include "tests/support/test_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "tests/viewer/window_support.hpp"
#include "tracer/analysis/codelet_stats.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/panels/codelet_panel.hpp"
#include "viewer/gui/panels/codelet_stats_model.hpp"
#include "viewer/gui/panels/search_bar.hpp"
#include "viewer/gui/window/main_window.hpp"

#include <gtest/gtest.h>

#include <QDockWidget>
#include <QLineEdit>
#include <QTableView>
#include <qcustomplot.h>

#include <cstdlib>

using namespace starscope::viewer;
using starscope::viewer::testing::showAndOpen;

namespace {

QString singleNaive() {
    return QString::fromStdString((starscope::testing::testDataDir() / "viewer" / "single_naive").string());
}

// The tasks of a codelet in the dock's table (its first row).
std::uint64_t tasksInTable(const CodeletStatsModel& model, const QString& codelet) {
    for (int r = 0; r < model.rowCount(); ++r) {
        if (model.index(r, 0).data(CodeletStatsModel::CodeletRole).toString() == codelet) {
            return model.index(r, CodeletStatsModel::TasksColumn).data(CodeletStatsModel::SortRole).toULongLong();
        }
    }
    return 0;
}

double barsTotal(QCustomPlot& plot) {
    auto* bars = qobject_cast<QCPBars*>(plot.plottable(0));
    double total = 0;
    for (auto it = bars->data()->constBegin(); bars != nullptr && it != bars->data()->constEnd(); ++it) {
        total += it->value;
    }
    return total;
}

TEST(CodeletPanel, FollowsTheTraceAndTheSelectedRange) {
    MainWindow window;
    ASSERT_TRUE(showAndOpen(window, singleNaive()));
    auto* panel = window.codeletPanel();
    ASSERT_NE(panel, nullptr);
    const auto& trace = window.plot()->document()->trace;
    const auto whole = starscope::tracer::computeCodeletStats(trace);
    ASSERT_GE(whole.size(), 3U);
    EXPECT_EQ(static_cast<std::size_t>(panel->model()->codelets().size()), whole.size());
    for (const auto& c : whole) {
        EXPECT_EQ(tasksInTable(*panel->model(), QString::fromStdString(c.codelet)), c.all.count) << c.codelet;
    }
    EXPECT_TRUE(panel->scope().startsWith(QStringLiteral("whole trace"))) << panel->scope().toStdString();
    // The first codelet's histogram: every one of its tasks in a bucket.
    ASSERT_EQ(panel->histogram()->plottableCount(), 1);
    EXPECT_EQ(barsTotal(*panel->histogram()), static_cast<double>(whole.front().all.count));

    // A range: the tasks that start in it.
    const auto from = trace.end / 4;
    const auto to = trace.end / 2;
    emit window.plot()->rangeSelected(static_cast<double>(from), static_cast<double>(to));
    const auto range = starscope::tracer::computeCodeletStats(trace, from, to);
    ASSERT_FALSE(range.empty());
    EXPECT_LT(range.front().all.count, whole.front().all.count);
    for (const auto& c : range) {
        EXPECT_EQ(tasksInTable(*panel->model(), QString::fromStdString(c.codelet)), c.all.count) << c.codelet;
    }
    EXPECT_TRUE(panel->scope().startsWith(QStringLiteral("tasks starting in"))) << panel->scope().toStdString();
    const QString looked = panel->table()->currentIndex().data(CodeletStatsModel::CodeletRole).toString();
    const auto lookedAt = std::find_if(range.begin(), range.end(),
                                       [&](const auto& c) { return QString::fromStdString(c.codelet) == looked; });
    ASSERT_NE(lookedAt, range.end());
    EXPECT_EQ(barsTotal(*panel->histogram()), static_cast<double>(lookedAt->all.count));

    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("codeletDock"));
    ASSERT_NE(dock, nullptr);
    dock->raise();
    if (const char* pictures = std::getenv("STARSCOPE_TEST_PICTURES")) {
        window.grab().save(QString::fromUtf8(pictures) + QStringLiteral("/codelet_dock.png"));
    }

    emit window.plot()->selectionCleared();
    EXPECT_TRUE(panel->scope().startsWith(QStringLiteral("whole trace")));
    EXPECT_EQ(tasksInTable(*panel->model(), QString::fromStdString(whole.front().codelet)), whole.front().all.count);
}

// Activating a codelet's row searches its tasks: the first one is selected on the chart.
TEST(CodeletPanel, ActivatingACodeletFindsItsTasks) {
    MainWindow window;
    ASSERT_TRUE(showAndOpen(window, singleNaive()));
    auto* panel = window.codeletPanel();
    const int row = panel->model()->rowCount() - 1;
    const QString codelet = panel->model()->index(row, 0).data(CodeletStatsModel::CodeletRole).toString();
    emit panel->table()->activated(panel->model()->index(row, 0));
    EXPECT_EQ(window.searchBar()->field()->text(), codelet);
    EXPECT_TRUE(window.searchBar()->status().startsWith(QStringLiteral("match 1 of")))
        << window.searchBar()->status().toStdString();
}

} // namespace
