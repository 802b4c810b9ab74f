// The comparison window as the main window's chart: T (and --no-transfers) shows or hides the
// data transfer arrows in every panel, kept when another alignment rebuilds the panels; each
// panel's rows keep a readable height and scroll when they do not fit, where a picture draws
// every row. Batch marker K is one marker on the command line and in the window's chooser.
#include "tests/support/synthetic_trace.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "viewer/core/comparison/comparison.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/comparison/comparison_view.hpp"
#include "viewer/gui/comparison/comparison_window.hpp"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QSpinBox>
#include <QTest>

using namespace starscope::viewer;

namespace {

// A run of `workers` synthetic CPU workers; with transfers, one copy from RAM to node 1 per batch.
ComparedRun syntheticRun(int workers, bool transfers, const std::string& name) {
    SyntheticOptions options;
    options.cpuWorkers = workers;
    options.tasksPerWorker = 2;
    auto trace = makeSyntheticTrace(options);
    if (transfers) {
        for (const auto& marker : trace.markers) {
            starscope::tracer::Transfer copy;
            copy.fromNode = 0;
            copy.toNode = 1;
            copy.start = marker.time;
            copy.end = marker.time + 10'000;
            copy.size = 1 << 20;
            trace.transfers.push_back(copy);
        }
    }
    auto document = prepareDocument(std::move(trace), name);
    auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    return {document, barriers, nullptr};
}

LoadedComparison comparison(int workers, bool transfers) {
    LoadedComparison loaded;
    loaded.runs = {syntheticRun(workers, transfers, "a"), syntheticRun(workers, false, "b")};
    for (const auto& run : loaded.runs) {
        loaded.figures.push_back(runFiguresOf(*run.document, {}, 100'000));
    }
    return loaded;
}

} // namespace

TEST(ComparisonWindow, TShowsAndHidesTheTransfersInEveryPanelThroughRealignments) {
    ComparisonWindow window;
    ASSERT_TRUE(window.setComparison(comparison(4, true), {AlignMode::Start, 0}));
    QAction* transfers = window.transfersAction();
    ASSERT_NE(transfers, nullptr);
    EXPECT_TRUE(transfers->isEnabled());
    EXPECT_TRUE(transfers->isChecked());
    EXPECT_EQ(transfers->shortcut(), QKeySequence(Qt::Key_T));
    transfers->trigger();
    ASSERT_EQ(window.view()->panels().size(), 2u);
    for (GanttPlot* panel : window.view()->panels()) {
        EXPECT_FALSE(panel->transfersVisible());
    }
    ASSERT_TRUE(window.view()->setAlignment({AlignMode::Normalized, 0}));
    for (GanttPlot* panel : window.view()->panels()) {
        EXPECT_FALSE(panel->transfersVisible()) << "a new alignment keeps the toggle";
    }
    transfers->trigger();
    EXPECT_TRUE(window.view()->panels().front()->transfersVisible());
    // Runs without transfers: nothing to toggle.
    ComparisonWindow plain;
    ASSERT_TRUE(plain.setComparison(comparison(4, false), {AlignMode::Start, 0}));
    EXPECT_FALSE(plain.transfersAction()->isEnabled());
}

TEST(ComparisonWindow, PanelsScrollTheirRowsInTheWindowAndAPictureDrawsThemAll) {
    ComparisonWindow window;
    ASSERT_TRUE(window.setComparison(comparison(64, false), {AlignMode::Start, 0}));
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    for (GanttPlot* panel : window.view()->panels()) {
        panel->replot(QCustomPlot::rpImmediateRefresh);
        const auto rows = panel->rowWindow();
        EXPECT_LT(rows.shown, static_cast<double>(rows.total)) << "65 rows do not fit half a window";
        EXPECT_GE(panel->axisRect()->rect().height() / rows.shown, GanttPlot::kMinRowPx - 0.01);
        panel->scrollRows(5.0);
        EXPECT_NEAR(panel->rowWindow().first, 5.0, 1e-9);
    }
    ComparisonView picture;
    picture.resize(1400, 900);
    ASSERT_TRUE(picture.setRuns(comparison(64, false).runs, comparison(64, false).figures, {AlignMode::Start, 0}));
    picture.setAttribute(Qt::WA_DontShowOnScreen);
    picture.show();
    picture.grabImage();
    for (GanttPlot* panel : picture.panels()) {
        EXPECT_EQ(panel->rowWindow().shown, static_cast<double>(panel->rowWindow().total));
    }
}

// --align marker:K and the window's marker K align on one marker, the one the chart labels with
// batch number K (e0 bK in a first epoch), and each panel's axis names it so.
TEST(ComparisonWindow, MarkerKOnTheCommandLineAndInTheWindowIsOneMarker) {
    constexpr std::size_t k = 2;
    const auto parsed = parseAlignment("marker:" + std::to_string(k), "--align");
    ASSERT_TRUE(parsed) << parsed.error().message;
    ComparisonWindow fromCommandLine;
    ASSERT_TRUE(fromCommandLine.setComparison(comparison(4, false), *parsed));
    auto* shownMarker = fromCommandLine.findChild<QSpinBox*>();
    ASSERT_NE(shownMarker, nullptr);
    EXPECT_EQ(shownMarker->value(), static_cast<int>(k)) << "the window shows the marker the command line chose";

    ComparisonWindow chosen;
    ASSERT_TRUE(chosen.setComparison(comparison(4, false), {AlignMode::Start, 0}));
    auto* mode = chosen.findChild<QComboBox*>();
    auto* marker = chosen.findChild<QSpinBox*>();
    ASSERT_NE(mode, nullptr);
    ASSERT_NE(marker, nullptr);
    mode->setCurrentIndex(mode->findData(static_cast<int>(AlignMode::Marker)));
    marker->setValue(static_cast<int>(k));
    EXPECT_EQ(chosen.view()->alignment(), *parsed);

    for (const ComparisonWindow* window : {&fromCommandLine, &chosen}) {
        ASSERT_EQ(window->view()->panels().size(), 2U);
        for (GanttPlot* panel : window->view()->panels()) {
            const TraceDocument& d = *panel->document();
            ASSERT_GT(d.batchMarkers.size(), k);
            const auto& atZero = d.trace.markers[d.batchMarkers[k]];
            EXPECT_EQ(d.time.timeNs(static_cast<double>(atZero.time)), 0.0) << d.source;
            EXPECT_EQ(atZero.epoch, 0);
            EXPECT_EQ(atZero.batch, static_cast<std::int32_t>(k)) << "marker K is batch K, as the chart numbers it";
            EXPECT_EQ(panel->xAxis->label().toStdString(),
                      "time since batch marker " + std::to_string(k) + " (epoch 0 batch " + std::to_string(k) + ")");
        }
    }
}
