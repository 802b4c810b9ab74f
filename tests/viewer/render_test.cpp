// The picture is checked where we know what must be there: the colour of a task, of a worker
// sleeping inside a barrier band, of the band between rows, of the background, of the marker
// line; on a synthetic trace with exact positions and on a real StarPU trace.

#include "tests/support/fifo_reader.hpp"
#include "tests/support/synthetic_trace.hpp"
#include "tests/support/test_support.hpp"
#include "tests/viewer/pixel_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "tracer/model/time_unit.hpp"
#include "viewer/core/format/time_format.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/chart/gantt_plottable.hpp"
#include "viewer/gui/chart/overlay_plottable.hpp"
#include "viewer/gui/chart/qt_support.hpp"
#include "viewer/gui/export/render.hpp"

#include <gtest/gtest.h>

#include <QFile>
#include <QImage>

#include <cmath>
#include <filesystem>
#include <sys/stat.h>
#include <sys/sysmacros.h>

using namespace starscope::viewer;
using starscope::viewer::testing::near;
using starscope::viewer::testing::over;
using starscope::tracer::StateClass;
using starscope::tracer::TimeNs;

namespace {

constexpr int kWidth = 1200;
constexpr int kHeight = 700;

// A plot laid out at its final size, and its picture.
struct Rendered {
    std::unique_ptr<GanttPlot> plot;
    QImage image;

    int x(double ns) const { return static_cast<int>(std::lround(plot->xAxis->coordToPixel(ns))); }
    int y(double row) const { return static_cast<int>(std::lround(plot->yAxis->coordToPixel(row))); }
    Rgb at(double ns, double row) const { return toRgb(image.pixelColor(x(ns), y(row))); }
};

Rendered render(std::shared_ptr<const TraceDocument> document, std::shared_ptr<const Barriers> barriers,
                std::optional<std::pair<double, double>> range = std::nullopt) {
    Rendered out;
    out.plot = std::make_unique<GanttPlot>();
    out.plot->resize(kWidth, kHeight);
    out.plot->setDocument(std::move(document));
    out.plot->setBarriers(std::move(barriers));
    out.plot->replot(QCustomPlot::rpImmediateRefresh);
    if (range) {
        out.plot->setView(range->first, range->second);
    }
    out.image = out.plot->toPixmap(kWidth, kHeight, 1.0).toImage();
    return out;
}

std::size_t rowOfLane(const TraceDocument& document, std::int32_t lane) {
    for (std::size_t r = 0; r < document.rows.size(); ++r) {
        if (document.rows[r].lane == lane) {
            return r;
        }
    }
    return document.rows.size();
}

class SyntheticRender : public ::testing::Test {
protected:
    void SetUp() override {
        document = prepareDocument(makeSyntheticTrace(options), "synthetic");
        barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    }

    SyntheticOptions options;   // 4 workers, 4 batches of 8 tasks of 50 us per worker
    std::shared_ptr<const TraceDocument> document;
    std::shared_ptr<const Barriers> barriers;
};

} // namespace

TEST_F(SyntheticRender, TasksBarriersAndMarkersAreWhereTheTraceSaysInTheirColours) {
    // Batch 0: submission [0, 20 us), first task of every worker [25, 75 us) (codelet 0).
    // It ends at 460 us; workers sleep until batch 1's first task at 860 + 25 us.
    ASSERT_EQ(barriers->size(), 3u);
    EXPECT_EQ((*barriers)[0].start, 460'000);
    EXPECT_EQ((*barriers)[0].end, 885'000);
    const auto shot = render(document, barriers);
    const double cpu1 = static_cast<double>(rowOfLane(*document, 1));
    const double mainRow = static_cast<double>(rowOfLane(*document, 4));
    ASSERT_EQ(mainRow, 0.0);

    const auto& firstTask = document->trace.lanes[1].spans()[2];
    ASSERT_EQ(document->trace.states[firstTask.state].cls, StateClass::Executing);
    ASSERT_EQ(firstTask.start, 25'000);
    EXPECT_EQ(shot.at(50'000, cpu1), document->palette.spanColour(document->trace, document->trace.lanes[1], firstTask));
    EXPECT_EQ(shot.at(50'000, cpu1), document->palette.codeletColour("conv_fwd"));
    EXPECT_TRUE(isGreenish(shot.at(50'000, cpu1)));

    // Inside the barrier: a sleeping worker under the translucent band, still red.
    const Rgb sleeping = shot.at(672'000, cpu1);
    EXPECT_TRUE(near(sleeping, over(kSleepingRed, kBarrierFill)));
    EXPECT_TRUE(isReddish(sleeping));
    // The main thread is waiting for the arena reset there.
    const auto& states = document->trace.states;
    const auto waitingTaskState = std::find_if(states.begin(), states.end(), [](const auto& s) { return s.name == "Waiting task"; });
    ASSERT_NE(waitingTaskState, states.end());
    const auto waitingTask = document->palette.stateColour(static_cast<std::uint32_t>(waitingTaskState - states.begin()));
    EXPECT_TRUE(near(shot.at(672'000, mainRow), over(waitingTask, kBarrierFill)));
    // Between two rows: the band over the white background; outside barriers: white.
    EXPECT_TRUE(near(shot.at(672'000, cpu1 + 0.5), over(kBackground, kBarrierFill)));
    EXPECT_EQ(shot.at(300'000, cpu1 + 0.5), kBackground);

    // Batch 1's marker: a dashed vertical line at 860 us, visible between the rows.
    const int markerX = shot.x(860'000);
    int dark = 0;
    for (int y = shot.y(cpu1); y < shot.y(cpu1 + 1.0); ++y) {
        dark += shot.image.pixelColor(markerX, y).lightness() < 110 ? 1 : 0;
    }
    EXPECT_GT(dark, 5);
}

TEST_F(SyntheticRender, RangeZoomsIntoTheBarrier) {
    const auto shot = render(document, barriers, std::make_pair(400'000.0, 950'000.0));
    const double cpu2 = static_cast<double>(rowOfLane(*document, 2));
    EXPECT_NEAR(shot.plot->xAxis->range().lower, 400'000.0, 1.0);
    EXPECT_NEAR(shot.plot->xAxis->range().upper, 950'000.0, 1.0);
    EXPECT_TRUE(isReddish(shot.at(672'000, cpu2)));
    // Batch 1's first task [885, 935 us) of codelet 0 (near its start: its name is written in
    // its middle).
    EXPECT_EQ(shot.at(888'000, cpu2), document->palette.codeletColour("conv_fwd"));
    // Before the barrier, the last task of batch 0 (codelet 3) ends at 460 us.
    EXPECT_EQ(shot.at(457'000, cpu2), document->palette.codeletColour("dense_bwd"));
}

TEST(FoldedRender, DenseRowsShowTheShareOfEachStateAndBarriersStayRed) {
    SyntheticOptions options;
    options.cpuWorkers = 3;
    options.batchesPerEpoch = 3;
    options.tasksPerWorker = 20'000;   // 40 k spans per worker and batch, far below a pixel each
    options.taskNs = 900;
    options.overheadNs = 100;
    options.barrierNs = 6'000'000;
    const auto document = prepareDocument(makeSyntheticTrace(options), "dense");
    const auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    ASSERT_EQ(barriers->size(), 2u);
    const auto shot = render(document, barriers);
    const double cpu0 = static_cast<double>(rowOfLane(*document, 0));
    // Mid-batch: 90 % executing, 10 % scheduling, stacked: green on top, grey below, in those
    // shares of the row's height (to within a pixel each), not one blended colour.
    const int x = shot.x(10'000'000);
    const int top = shot.y(cpu0 - kRowHalfHeight);
    const int bottom = shot.y(cpu0 + kRowHalfHeight);
    const Rgb scheduling = document->palette.stateColour(2);
    ASSERT_EQ(document->trace.states[2].name, "Scheduling");
    int green = 0;
    int grey = 0;
    int lastGreen = -1;
    int firstGrey = bottom;
    for (int y = top; y < bottom; ++y) {
        const Rgb pixel = toRgb(shot.image.pixelColor(x, y));
        if (pixel == kExecutingGreen) {
            ++green;
            lastGreen = y;
        } else if (pixel == scheduling) {
            ++grey;
            firstGrey = std::min(firstGrey, y);
        }
    }
    const double height = bottom - top;
    EXPECT_NEAR(green, 0.9 * height, 1.5) << "row of " << height << " px";
    EXPECT_NEAR(grey, 0.1 * height, 1.5) << "row of " << height << " px";
    EXPECT_LT(lastGreen, firstGrey);
    const auto& b = (*barriers)[0];
    EXPECT_TRUE(isReddish(shot.at(static_cast<double>(b.start + b.end) / 2.0, cpu0)));
}

// Labels that do not fit are dropped, never drawn over each other: the boxes the overlay kept
// (its layout, not OCR) are checked on a trace with far more batches and barriers than fit.
void expectApartAndInside(std::vector<QRect> boxes, const QRect& area, const char* what) {
    std::sort(boxes.begin(), boxes.end(), [](const QRect& a, const QRect& b) { return a.left() < b.left(); });
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        EXPECT_TRUE(area.contains(boxes[i])) << what << " label " << i << " leaves the plot";
        if (i > 0) {
            EXPECT_FALSE(boxes[i].intersects(boxes[i - 1])) << what << " labels " << i - 1 << " and " << i << " overlap";
            EXPECT_GT(boxes[i].left(), boxes[i - 1].right() + 4) << what << " labels " << i - 1 << " and " << i;
        }
    }
}

TEST(LabelLayout, CrowdedBatchAndBarrierLabelsNeverOverlapAndTheLongestBarrierIsNamed) {
    SyntheticOptions options;
    options.batchesPerEpoch = 120;
    options.tasksPerWorker = 4;
    options.barrierNs = 150'000;
    options.jitter = 0.5;   // barriers of different lengths
    const auto document = prepareDocument(makeSyntheticTrace(options), "crowded");
    const auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    ASSERT_GE(barriers->size(), 100u);
    const auto shot = render(document, barriers);
    const QRect area = shot.plot->axisRect()->rect();
    const OverlayLabels& labels = shot.plot->overlay()->labels();
    ASSERT_FALSE(labels.batch.empty());
    ASSERT_FALSE(labels.barrier.empty());
    EXPECT_LT(labels.batch.size(), document->batchMarkers.size()) << "the test needs more labels than fit";
    EXPECT_LT(labels.barrier.size(), barriers->size()) << "the test needs more labels than fit";
    expectApartAndInside(labels.batch, area, "batch");
    expectApartAndInside(labels.barrier, area, "barrier");
    // Batch labels along the top, barrier labels along the bottom: the lines never meet.
    for (const QRect& batch : labels.batch) {
        for (const QRect& barrier : labels.barrier) {
            EXPECT_FALSE(batch.intersects(barrier));
        }
    }
    const auto longest = static_cast<std::size_t>(
        std::max_element(barriers->begin(), barriers->end(),
                         [](const auto& a, const auto& b) { return a.duration() < b.duration(); })
        - barriers->begin());
    EXPECT_NE(std::find(labels.barrierIndex.begin(), labels.barrierIndex.end(), longest), labels.barrierIndex.end());
    // A barrier left without a label is named by the tooltip over its band.
    std::size_t unlabelled = barriers->size();
    for (std::size_t i = 0; i < barriers->size() && unlabelled == barriers->size(); ++i) {
        if (std::find(labels.barrierIndex.begin(), labels.barrierIndex.end(), i) == labels.barrierIndex.end()) {
            unlabelled = i;
        }
    }
    ASSERT_LT(unlabelled, barriers->size());
    const auto& hidden = (*barriers)[unlabelled];
    const QPointF over(shot.x(static_cast<double>(hidden.start + hidden.end) / 2.0), area.center().y());
    const QString tip = shot.plot->overlay()->tooltipAt(over);
    EXPECT_TRUE(tip.contains(QStringLiteral("barrier of"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QString::fromStdString(hidden.transitionLabel).toHtmlEscaped())) << tip.toStdString();
}

TEST(RealTraceRender, BarriersOfARecordedStarpuTraceAreRedAndTasksGreen) {
    const auto input = starscope::testing::testDataDir() / "tracer" / "small" / "prof_file__0";
    auto loaded = loadDocument(input);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    const auto document = *loaded;
    const auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    ASSERT_FALSE(barriers->empty());
    const auto shot = render(document, barriers);
    const auto longest = *std::max_element(barriers->begin(), barriers->end(),
                                           [](const auto& a, const auto& b) { return a.duration() < b.duration(); });
    const double mid = static_cast<double>(longest.start + longest.end) / 2.0;
    std::size_t workers = 0;
    for (std::size_t r = 0; r < document->rows.size(); ++r) {
        const auto& lane = document->trace.lanes[static_cast<std::size_t>(document->rows[r].lane)];
        if (!lane.isWorker()) {
            continue;
        }
        ++workers;
        // Every worker idles in a barrier: sleeping (red) under the band.
        EXPECT_TRUE(isReddish(shot.at(mid, static_cast<double>(r)))) << lane.name;
        // Its longest task, if wide enough to fill pixels by itself, is green.
        const auto& spans = lane.spans();
        const auto task = std::max_element(spans.begin(), spans.end(), [&](const auto& a, const auto& b) {
            const bool ea = document->trace.states[a.state].cls == StateClass::Executing;
            const bool eb = document->trace.states[b.state].cls == StateClass::Executing;
            return std::make_pair(ea, a.duration()) < std::make_pair(eb, b.duration());
        });
        if (task != spans.end() && document->trace.states[task->state].cls == StateClass::Executing
            && shot.x(static_cast<double>(task->end)) - shot.x(static_cast<double>(task->start)) >= 5) {
            EXPECT_TRUE(isGreenish(shot.at(static_cast<double>(task->start + task->end) / 2.0, static_cast<double>(r) - 0.3)))
                << lane.name;
        }
    }
    EXPECT_GE(workers, 1u);
}

// A real single+naive run (tests/data/viewer/README.md) at fit-all, at the README's size and
// in a small window where short barriers are a few pixels wide: at every barrier of a batch
// transition the worker rows show red (sleeping), whatever else folds into those columns. A
// worker may spend a barrier in a runtime state instead (grey: this run has one), so red is
// required in some worker row at every barrier and in most rows overall.
TEST(RealTraceRender, FitAllOfASingleNaiveRunShowsRedInTheWorkerRowsAtEachTransition) {
    const auto input = starscope::testing::testDataDir() / "viewer" / "single_naive";
    auto loaded = loadDocument(input);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    const auto document = *loaded;
    const auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    std::size_t atTransitions = 0;
    for (const auto& barrier : *barriers) {
        atTransitions += barrier.transition >= 0 ? 1 : 0;
    }
    ASSERT_GE(atTransitions, 10u);
    for (const QSize size : {QSize(1600, 1000), QSize(360, 300)}) {
        std::size_t pairs = 0;
        std::size_t redPairs = 0;
        GanttPlot plot;
        plot.resize(size);
        plot.setDocument(document);
        plot.setBarriers(barriers);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const QImage image = plot.toPixmap(size.width(), size.height(), 1.0).toImage();
        for (const auto& barrier : *barriers) {
            if (barrier.transition < 0) {
                continue;
            }
            const int x0 = static_cast<int>(std::floor(plot.xAxis->coordToPixel(static_cast<double>(barrier.start))));
            const int x1 = static_cast<int>(std::ceil(plot.xAxis->coordToPixel(static_cast<double>(barrier.end))));
            std::size_t redRows = 0;
            for (std::size_t r = 0; r < document->rows.size(); ++r) {
                const auto& lane = document->trace.lanes[static_cast<std::size_t>(document->rows[r].lane)];
                if (!lane.isWorker()) {
                    continue;
                }
                const double row = static_cast<double>(r);
                const int top = static_cast<int>(std::lround(plot.yAxis->coordToPixel(row - kRowHalfHeight)));
                const int bottom = static_cast<int>(std::lround(plot.yAxis->coordToPixel(row + kRowHalfHeight)));
                bool red = false;
                for (int x = x0; x <= x1 && !red; ++x) {
                    for (int y = top; y < bottom && !red; ++y) {
                        red = isReddish(toRgb(image.pixelColor(x, y)));
                    }
                }
                ++pairs;
                redPairs += red ? 1 : 0;
                redRows += red ? 1 : 0;
            }
            EXPECT_GE(redRows, 1u) << size.width() << "x" << size.height() << ": no red at "
                                   << barrier.transitionLabel << " [" << x0 << ", " << x1 << "]";
        }
        EXPECT_GE(static_cast<double>(redPairs), 0.8 * static_cast<double>(pairs))
            << size.width() << "x" << size.height() << ": " << redPairs << " of " << pairs;
    }
}

// A barrier's duration label sits on the chart's bottom line, over the last row: drawn while a
// row is taller than a label, left to the tooltip when a small window makes rows shorter (it
// would hide the whole last row there, the barrier's sleeping red included).
TEST(RealTraceRender, BarrierLabelsAreLeftOutWhenRowsAreShorterThanALabel) {
    const auto loaded = loadDocument(starscope::testing::testDataDir() / "viewer" / "single_naive");
    ASSERT_TRUE(loaded) << loaded.error().describe();
    const auto barriers = std::make_shared<const Barriers>(computeBarriers(**loaded, 100'000));
    // 360x240: with its colour key below, rows of 10 px or so.
    for (const QSize size : {QSize(1600, 1000), QSize(360, 240)}) {
        GanttPlot plot;
        plot.resize(size);
        plot.setDocument(*loaded);
        plot.setBarriers(barriers);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        // The picture is laid out and drawn at its size (as --render does), labels included.
        plot.toPixmap(size.width(), size.height(), 1.0);
        const double rowPx = std::abs(plot.yAxis->coordToPixel(1.0) - plot.yAxis->coordToPixel(0.0));
        const int labelPx = QFontMetrics(plot.font()).height();
        const auto& labels = plot.overlay()->labels().barrier;
        if (size.width() == 1600) {
            ASSERT_GT(rowPx, labelPx + 4.0);
            EXPECT_FALSE(labels.empty());
        } else {
            ASSERT_LT(rowPx, labelPx + 4.0) << "the small window must make rows shorter than a label";
            EXPECT_TRUE(labels.empty()) << labels.size() << " labels over rows of " << rowPx << " px";
        }
    }
}

TEST(RenderToFile, WritesPngAndPdfAndRejectsUnknownFormats) {
    starscope::testing::TempDir dir;
    const auto document = prepareDocument(makeSyntheticTrace({}), "synthetic");
    const auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    RenderRequest request;
    request.size = {800, 500};
    const QString png = QString::fromStdString((dir / "out.png").string());
    ASSERT_TRUE(renderToFile(document, barriers, request, png));
    const QImage image(png);
    EXPECT_EQ(image.size(), QSize(800, 500));
    const QString pdf = QString::fromStdString((dir / "out.pdf").string());
    ASSERT_TRUE(renderToFile(document, barriers, request, pdf));
    QFile pdfFile(pdf);
    ASSERT_TRUE(pdfFile.open(QIODevice::ReadOnly));
    EXPECT_TRUE(pdfFile.read(4) == "%PDF");
    const auto tiff = renderToFile(document, barriers, request, QString::fromStdString((dir / "out.tiff").string()));
    ASSERT_FALSE(tiff);
    EXPECT_NE(tiff.error().message.find("'.tiff'"), std::string::npos);
    const auto missing = renderToFile(document, barriers, request,
                                      QString::fromStdString((dir / "no" / "such" / "out.png").string()));
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find((dir / "no" / "such" / "out.png").string()), std::string::npos)
        << missing.error().message;
    EXPECT_NE(missing.error().message.find("No such file or directory"), std::string::npos) << missing.error().message;
}

// A --range that misses the trace is refused with the trace's extent, nothing written; one that
// overlaps it is drawn.
TEST(RenderToFile, ARangeOutsideTheTraceIsRefusedWithItsExtent) {
    starscope::testing::TempDir dir;
    const auto document = prepareDocument(makeSyntheticTrace({}), "synthetic");
    const auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    const double nsPerTick = starscope::tracer::nsPerTick(document->trace);
    const double begin = static_cast<double>(document->trace.begin) * nsPerTick;
    const double end = static_cast<double>(document->trace.end) * nsPerTick;
    RenderRequest request;
    request.size = {400, 300};
    const QString png = QString::fromStdString((dir / "out.png").string());
    request.range = TimeRange{end + 1e9, end + 2e9};
    const auto after = renderToFile(document, barriers, request, png);
    ASSERT_FALSE(after);
    EXPECT_EQ(after.error().code, ViewerErrorCode::InvalidArgument);
    EXPECT_NE(after.error().message.find("--range"), std::string::npos) << after.error().message;
    EXPECT_NE(after.error().message.find("lies outside the trace, which runs from " + formatDuration(begin) + " to "
                                         + formatDuration(end)),
              std::string::npos)
        << after.error().message;
    EXPECT_FALSE(std::filesystem::exists(dir / "out.png"));
    request.range = TimeRange{begin - 2e9, begin - 1e9};
    EXPECT_FALSE(renderToFile(document, barriers, request, png));
    request.range = TimeRange{end / 2, end + 1e9};
    ASSERT_TRUE(renderToFile(document, barriers, request, png));
    EXPECT_EQ(QImage(png).size(), QSize(400, 300));
}

// A --range shorter than one tick of the trace (1 ns here) is refused naming the flag and the
// resolution, nothing written; one tick is drawn.
TEST(RenderToFile, ARangeShorterThanTheTracesResolutionIsRefused) {
    starscope::testing::TempDir dir;
    const auto document = prepareDocument(makeSyntheticTrace({}), "synthetic");
    const auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    ASSERT_EQ(starscope::tracer::nsPerTick(document->trace), 1.0);
    RenderRequest request;
    request.size = {400, 300};
    const QString png = QString::fromStdString((dir / "out.png").string());
    for (const TimeRange tiny : {TimeRange{0.0, 1e-9}, TimeRange{1000.0, 1000.5}}) {
        request.range = tiny;
        const auto refused = renderToFile(document, barriers, request, png);
        ASSERT_FALSE(refused);
        EXPECT_EQ(refused.error().code, ViewerErrorCode::InvalidArgument);
        EXPECT_EQ(refused.error().message, "--range is shorter than the trace's resolution, 1 ns: nothing in it to draw");
        EXPECT_FALSE(std::filesystem::exists(dir / "out.png"));
    }
    request.range = TimeRange{1000.0, 1001.0};
    ASSERT_TRUE(renderToFile(document, barriers, request, png));
    EXPECT_EQ(QImage(png).size(), QSize(400, 300));
}

// --render OUT and File > Export used to hand OUT to Qt, which replaces whatever is there: a
// symlink became a file, a FIFO or /dev/null a regular file. They go through the project's one
// writer now.
TEST(RenderToFile, FollowsSymlinksAndWritesThroughFifosAndDevices) {
    namespace fs = std::filesystem;
    starscope::testing::TempDir dir;
    const auto document = prepareDocument(makeSyntheticTrace({}), "synthetic");
    const auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    RenderRequest request;
    request.size = {400, 300};
    const auto at = [](const fs::path& path) { return QString::fromStdString(path.string()); };

    fs::create_symlink("real.png", dir / "link.png");
    ASSERT_TRUE(renderToFile(document, barriers, request, at(dir / "link.png")));
    EXPECT_TRUE(fs::is_symlink(dir / "link.png"));
    EXPECT_EQ(QImage(at(dir / "real.png")).size(), QSize(400, 300));

    const auto fifo = dir / "pipe.png";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    starscope::testing::FifoReader reader(fifo);
    ASSERT_TRUE(renderToFile(document, barriers, request, at(fifo)));
    const std::string received = reader.received();
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
    EXPECT_EQ(QImage::fromData(QByteArray(received.data(), static_cast<qsizetype>(received.size()))).size(),
              QSize(400, 300));

    const auto device = dir / "null.png";
    if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
        ASSERT_TRUE(renderToFile(document, barriers, request, at(device)));
        EXPECT_TRUE(fs::is_character_file(fs::symlink_status(device)));
    }
}
