// A StarPU-MPI trace opened in the window: the loader computes each rank's barriers beside the
// job's, View > Show messages between ranks is enabled and hides and shows the arrows, and a
// one-process trace leaves the action disabled.

#include "tests/support/synthetic_trace.hpp"
#include "tests/support/test_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "tests/viewer/window_support.hpp"
#include "tracer/native/native_format.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/chart/link_plottable.hpp"
#include "viewer/gui/chart/message_arrows.hpp"
#include "viewer/gui/chart/overlay_plottable.hpp"
#include "viewer/gui/window/main_window.hpp"

#include <gtest/gtest.h>

#include <QAction>
#include <QSignalSpy>

using namespace starscope::viewer;
using starscope::testing::TempDir;
using starscope::viewer::testing::kTimeoutMs;
using starscope::viewer::testing::showAndOpen;

namespace {

QString writeTrace(const TempDir& dir, const std::string& name, const starscope::tracer::Trace& trace) {
    const auto path = dir / name;
    const auto written = starscope::tracer::writeNativeFile(trace, path);
    EXPECT_TRUE(written) << written.error().describe();
    return QString::fromStdString(path.string());
}

} // namespace

TEST(RanksWindow, MessagesActionTogglesTheArrowsOfATraceWithRanks) {
    TempDir dir;
    MainWindow window;
    ASSERT_TRUE(showAndOpen(window, writeTrace(dir, "two.sstrace", makeSyntheticRanksTrace(SyntheticOptions{}, 2)), QSize(1200, 800)));
    GanttPlot* plot = window.plot();
    ASSERT_EQ(plot->document()->trace.ranks.size(), 2u);
    ASSERT_TRUE(plot->overlay()->rankBarriers());
    EXPECT_FALSE(barriersOfRank(*plot->overlay()->rankBarriers(), 0).empty());
    EXPECT_FALSE(barriersOfRank(*plot->overlay()->rankBarriers(), 1).empty());
    EXPECT_EQ(plot->rows().front().kind, RowKind::RankHeader);

    QAction* messages = window.messagesAction();
    EXPECT_TRUE(messages->isEnabled());
    EXPECT_TRUE(messages->isChecked());
    plot->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_EQ(plot->messages()->links()->links().size(), plot->document()->trace.messages.size());
    messages->trigger();
    EXPECT_FALSE(plot->messagesVisible());
    plot->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_TRUE(plot->messages()->links()->links().empty());
    messages->trigger();
    EXPECT_TRUE(plot->messagesVisible());

    // A threshold change recomputes the ranks' barriers too: none is 10 ms long.
    QSignalSpy updated(&window, &MainWindow::barriersUpdated);
    window.setBarrierThreshold(10'000'000);
    ASSERT_TRUE(updated.wait(kTimeoutMs));
    EXPECT_TRUE(plot->overlay()->rankBarriers()->empty());

    // One process: nothing to show.
    ASSERT_TRUE(showAndOpen(window, writeTrace(dir, "one.sstrace", makeSyntheticTrace(SyntheticOptions{})), QSize(1200, 800)));
    EXPECT_FALSE(messages->isEnabled());
    EXPECT_TRUE(plot->overlay()->rankBarriers()->empty());
}
