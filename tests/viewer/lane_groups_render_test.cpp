// Lane groups by kind on the chart: a header row before the CPU workers and before the CUDA
// workers, folded by a click on its label, by F or for every group at once; a folded header shows
// its lanes' mix of states; lanes moved by a row's menu or Alt+Up keep their order through a
// filter, folds and zooms, until Reset lane order or another trace.
#include "tests/support/synthetic_trace.hpp"
#include "tests/support/test_support.hpp"
#include "tests/viewer/pixel_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "viewer/core/drawing/overview_profile.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/chart/qt_support.hpp"
#include "viewer/gui/chart/span_name_plottable.hpp"
#include "viewer/gui/export/render.hpp"

#include <gtest/gtest.h>

#include <QAction>
#include <QCursor>
#include <QImage>
#include <QMenu>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace starscope::viewer;
using starscope::tracer::LaneKind;

namespace {

constexpr int kWidth = 1200;
constexpr int kHeight = 700;

// The synthetic trace's last two workers made CUDA workers: four CPUs and two GPUs.
std::shared_ptr<const TraceDocument> cpusAndGpus() {
    SyntheticOptions options;
    options.cpuWorkers = 6;
    auto trace = makeSyntheticTrace(options);
    int cuda = 0;
    for (auto& lane : trace.lanes) {
        if (lane.kind == LaneKind::CpuWorker && lane.workerId >= 4) {
            lane.kind = LaneKind::CudaWorker;
            lane.memoryNode = 1;
            lane.name = "CUDA " + std::to_string(cuda++);
        }
    }
    return prepareDocument(std::move(trace), "cpus and gpus");
}

class LaneGroupsRender : public ::testing::Test {
protected:
    void SetUp() override {
        document = cpusAndGpus();
        plot = std::make_unique<GanttPlot>();
        plot->resize(kWidth, kHeight);
        plot->setDocument(document);
        plot->replot(QCustomPlot::rpImmediateRefresh);
    }

    std::vector<std::string> labels() const {
        std::vector<std::string> out;
        for (const Row& row : plot->rows()) {
            out.push_back(row.label);
        }
        return out;
    }
    std::size_t rowOf(const std::string& label) const {
        const auto all = labels();
        const auto it = std::find_if(all.begin(), all.end(), [&](const std::string& l) { return l.ends_with(label); });
        EXPECT_NE(it, all.end()) << label;
        return static_cast<std::size_t>(it - all.begin());
    }
    QPointF labelPoint(std::size_t row) const {
        return {plot->axisRect()->rect().left() - 20.0, plot->yAxis->coordToPixel(static_cast<double>(row))};
    }
    QAction* menuAction(QMenu& menu, const QString& text) const {
        for (QAction* action : menu.actions()) {
            if (action->text().remove(QLatin1Char('&')) == text) {
                return action;
            }
        }
        ADD_FAILURE() << text.toStdString();
        return nullptr;
    }

    std::shared_ptr<const TraceDocument> document;
    std::unique_ptr<GanttPlot> plot;
};

} // namespace

TEST_F(LaneGroupsRender, EachKindOfWorkerHasAHeaderThatAClickOnItsLabelFolds) {
    ASSERT_EQ(labels(), (std::vector<std::string>{"main", "\u25BE CPU workers (4)", "CPU 0", "CPU 1", "CPU 2", "CPU 3",
                                                  "\u25BE CUDA workers (2)", "CUDA 0", "CUDA 1"}));
    const std::size_t cpus = rowOf("CPU workers (4)");
    QTest::mouseClick(plot.get(), Qt::LeftButton, Qt::NoModifier, labelPoint(cpus).toPoint());
    EXPECT_TRUE(plot->isGroupFolded({-1, LaneGroup::CpuWorkers}));
    EXPECT_EQ(labels(), (std::vector<std::string>{"main", "\u25B8 CPU workers (4)", "\u25BE CUDA workers (2)", "CUDA 0",
                                                  "CUDA 1"}));
    QTest::mouseClick(plot.get(), Qt::LeftButton, Qt::NoModifier, labelPoint(rowOf("CPU workers (4)")).toPoint());
    EXPECT_FALSE(plot->isGroupFolded({-1, LaneGroup::CpuWorkers}));
    EXPECT_EQ(plot->rows().size(), 9u);
}

// Folded, the header row is the mix of its lanes' states per pixel column, like the overview.
TEST_F(LaneGroupsRender, AFoldedHeaderShowsItsLanesMixOfStates) {
    plot->setGroupFolded({-1, LaneGroup::CpuWorkers}, true);
    const auto period = static_cast<double>(SyntheticOptions{}.period());
    plot->setView(0.0, period);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QImage image = plot->toPixmap(kWidth, kHeight, 1.0).toImage();
    const std::size_t header = rowOf("CPU workers (4)");
    const int y = static_cast<int>(std::lround(plot->yAxis->coordToPixel(static_cast<double>(header))));
    // Mid-batch every CPU executes: the header is the executing colour, not the background.
    int executing = 0;
    const int from = static_cast<int>(std::lround(plot->xAxis->coordToPixel(period * 0.15)));
    const int to = static_cast<int>(std::lround(plot->xAxis->coordToPixel(period * 0.3)));
    for (int x = from; x < to; ++x) {
        const Rgb pixel = toRgb(image.pixelColor(x, y));
        executing += !(pixel == kBackground) ? 1 : 0;
    }
    EXPECT_GT(executing, (to - from) * 9 / 10);
    // The same mix laneProfile gives for the CPU lanes alone.
    std::vector<std::int32_t> cpus;
    for (std::size_t lane = 0; lane < document->trace.lanes.size(); ++lane) {
        if (document->trace.lanes[lane].kind == LaneKind::CpuWorker) {
            cpus.push_back(static_cast<std::int32_t>(lane));
        }
    }
    const auto profile = laneProfile(*document, 0.0, period, 10, cpus);
    EXPECT_EQ(profile.extents[0], static_cast<starscope::tracer::TimeNs>(4 * std::floor(period / 10.0)));
}

TEST_F(LaneGroupsRender, FFoldsTheSelectedTasksGroupAndEveryGroupFoldsAtOnce) {
    QCursor::setPos(-1000, -1000);   // keys act on the selected task's row, not the cursor's
    std::optional<std::size_t> cudaLane;
    for (std::size_t lane = 0; lane < document->trace.lanes.size(); ++lane) {
        if (document->trace.lanes[lane].kind == LaneKind::CudaWorker) {
            cudaLane = lane;
            break;
        }
    }
    ASSERT_TRUE(cudaLane);
    const auto& spans = document->trace.lanes[*cudaLane].spans();
    const auto task = std::find_if(spans.begin(), spans.end(), [](const auto& s) { return s.runsTask == 1U; });
    ASSERT_NE(task, spans.end());
    plot->selectSpan(SpanHit{rowOf("CUDA 0"), *cudaLane, 0, static_cast<std::size_t>(task - spans.begin()), 1});
    ASSERT_TRUE(plot->selectedSpan());
    QTest::keyClick(plot.get(), Qt::Key_F);
    EXPECT_TRUE(plot->isGroupFolded({-1, LaneGroup::CudaWorkers}));
    EXPECT_FALSE(plot->isGroupFolded({-1, LaneGroup::CpuWorkers}));
    plot->setAllGroupsFolded(true);
    EXPECT_EQ(labels(), (std::vector<std::string>{"main", "\u25B8 CPU workers (4)", "\u25B8 CUDA workers (2)"}));
    plot->setAllGroupsFolded(false);
    EXPECT_EQ(plot->rows().size(), 9u);
}

TEST_F(LaneGroupsRender, ARowsMenuMovesItAndTheOrderOutlivesFiltersFoldsAndZooms) {
    auto menu = plot->rowMenu(rowOf("CPU 2"));
    EXPECT_FALSE(menuAction(*menu, QStringLiteral("Reset lane order"))->isEnabled());
    menuAction(*menu, QStringLiteral("Move up"))->trigger();
    const auto moved = labels();
    EXPECT_EQ(std::vector<std::string>(moved.begin() + 2, moved.begin() + 6),
              (std::vector<std::string>{"CPU 0", "CPU 2", "CPU 1", "CPU 3"}));
    // The CUDA workers' group to the top.
    menu = plot->rowMenu(rowOf("CUDA workers (2)"));
    menuAction(*menu, QStringLiteral("Move to top"))->trigger();
    EXPECT_EQ(labels().front(), "\u25BE CUDA workers (2)");
    const auto ordered = labels();
    plot->setLaneFilter(QStringLiteral("cpu"));
    plot->setLaneFilter(QString());
    plot->setGroupFolded({-1, LaneGroup::CpuWorkers}, true);
    plot->setGroupFolded({-1, LaneGroup::CpuWorkers}, false);
    plot->zoomBy(4.0, kWidth / 2.0);
    plot->fitAll();
    EXPECT_EQ(labels(), ordered);
    EXPECT_FALSE(plot->laneOrderIsDefault());
    // Span names follow the rows: each lane named in its own row, none on a header.
    EXPECT_EQ(plot->names()->rows(), plot->rows());
    menu = plot->rowMenu(0);
    menuAction(*menu, QStringLiteral("Reset lane order"))->trigger();
    EXPECT_TRUE(plot->laneOrderIsDefault());
    EXPECT_EQ(labels().front(), "main");
    // A new trace starts from the default order.
    plot->moveRow(rowOf("CPU 3"), LaneMove::ToTop);
    ASSERT_FALSE(plot->laneOrderIsDefault());
    plot->setDocument(cpusAndGpus());
    EXPECT_TRUE(plot->laneOrderIsDefault());
}

TEST_F(LaneGroupsRender, AltUpAndDownMoveTheRowUnderTheCursor) {
    plot->show();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const std::size_t cuda1 = rowOf("CUDA 1");
    QCursor::setPos(plot->mapToGlobal(QPoint(plot->axisRect()->rect().center().x(),
                                             static_cast<int>(plot->yAxis->coordToPixel(static_cast<double>(cuda1))))));
    ASSERT_EQ(plot->rowAt(plot->mapFromGlobal(QCursor::pos())), cuda1);
    QTest::keyClick(plot.get(), Qt::Key_Up, Qt::AltModifier);
    EXPECT_EQ(labels()[cuda1 - 1], "CUDA 1");
    EXPECT_EQ(labels()[cuda1], "CUDA 0");
    // The row under the cursor is CUDA 0 now, the group's last: Alt+Down leaves it, Alt+Up
    // takes it back up.
    QTest::keyClick(plot.get(), Qt::Key_Down, Qt::AltModifier);
    EXPECT_EQ(labels()[cuda1], "CUDA 0");
    QTest::keyClick(plot.get(), Qt::Key_Up, Qt::AltModifier);
    EXPECT_EQ(labels()[cuda1], "CUDA 1");
    EXPECT_TRUE(plot->laneOrderIsDefault());
}

// --fold in a picture: the named kinds drawn as their header rows alone.
TEST(LaneGroupsPicture, FoldDrawsTheNamedKindsAsTheirHeaderRows) {
    starscope::testing::TempDir dir;
    const auto document = cpusAndGpus();
    RenderRequest request;
    request.size = {900, 600};
    request.fold = FoldRequest{{LaneGroup::CpuWorkers}, {}};
    GanttPlot plot;
    const QString out = QString::fromStdString((dir / "folded.png").string());
    ASSERT_TRUE(renderToFile(plot, document, std::make_shared<const Barriers>(computeBarriers(*document, 100'000)),
                             request, out));
    std::vector<std::string> labels;
    for (const Row& row : plot.rows()) {
        labels.push_back(row.label);
    }
    EXPECT_EQ(labels, (std::vector<std::string>{"main", "\u25B8 CPU workers (4)", "\u25BE CUDA workers (2)", "CUDA 0",
                                                "CUDA 1"}));
    EXPECT_EQ(QImage(out).size(), QSize(900, 600));
}
