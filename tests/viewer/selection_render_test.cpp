// What the chart draws beyond the states, checked by pixels on a synthetic trace with known
// positions: a barrier narrower than a pixel at fit-all still drawn, codelet names inside the
// bars that hold them and never past their edges, the selected task framed with arrows to and
// from the tasks it depends on, a click on an arrow's end selecting the task there, and the
// underscores of codelet names in the key.

#include "tests/support/synthetic_trace.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "viewer/core/format/time_format.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/chart/highlight_plottable.hpp"
#include "viewer/gui/chart/link_plottable.hpp"
#include "viewer/gui/chart/overlay_plottable.hpp"
#include "viewer/gui/chart/qt_support.hpp"
#include "viewer/gui/chart/span_name_plottable.hpp"
#include "viewer/gui/chart/span_selection.hpp"
#include "viewer/gui/chart/time_ticker.hpp"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <set>

using namespace starscope::viewer;
using starscope::tracer::TaskIndex;
using starscope::tracer::TimeNs;

namespace {

constexpr int kWidth = 1200;
constexpr int kHeight = 700;

struct Shot {
    std::unique_ptr<GanttPlot> plot;
    QImage image;

    int x(double ns) const { return static_cast<int>(std::lround(plot->xAxis->coordToPixel(ns))); }
    int y(double row) const { return static_cast<int>(std::lround(plot->yAxis->coordToPixel(row))); }
    Rgb at(int px, int py) const { return toRgb(image.pixelColor(px, py)); }
};

std::unique_ptr<GanttPlot> makePlot(std::shared_ptr<const TraceDocument> document, std::shared_ptr<const Barriers> barriers) {
    auto plot = std::make_unique<GanttPlot>();
    plot->resize(kWidth, kHeight);
    plot->setDocument(std::move(document));
    if (barriers) {
        plot->setBarriers(std::move(barriers));
    }
    plot->replot(QCustomPlot::rpImmediateRefresh);
    return plot;
}

QImage picture(GanttPlot& plot) {
    plot.replot(QCustomPlot::rpImmediateRefresh);
    return plot.toPixmap(kWidth, kHeight, 1.0).toImage();
}

// Each task waits for the previous task of its worker and, from the second worker on, for the
// task at the same place on the worker before: a small graph with known edges.
starscope::tracer::Trace withDependencies(starscope::tracer::Trace trace, const SyntheticOptions& options) {
    const auto perBatch = static_cast<std::size_t>(options.cpuWorkers * options.tasksPerWorker);
    for (std::size_t i = 0; i < trace.tasks.size(); ++i) {
        const std::size_t inBatch = i % perBatch;
        const std::size_t k = inBatch % static_cast<std::size_t>(options.tasksPerWorker);
        const std::size_t worker = inBatch / static_cast<std::size_t>(options.tasksPerWorker);
        std::vector<std::uint64_t> dependencies;
        if (k > 0) {
            dependencies.push_back(trace.tasks[i - 1].jobId);
        }
        if (worker > 0) {
            dependencies.push_back(trace.tasks[i - static_cast<std::size_t>(options.tasksPerWorker)].jobId);
        }
        trace.setDependencies(static_cast<starscope::tracer::TaskIndex>(i), std::move(dependencies));
    }
    return trace;
}

bool isFrame(Rgb c) { return c == toRgb(kHighlightFrame); }

} // namespace

// 40 batches with 4 us barriers (2 us after the batch, 1 us of submission, 1 us of scheduling):
// at fit-all a pixel is ~15 us, so every barrier is under half a pixel; each still gets a
// column of its band with the ticks that make it visible. (The 1 us scheduling gaps between
// tasks stay under the 3 us threshold.)
TEST(SubPixelBarrier, EveryBarrierKeepsAColumnAtFitAll) {
    SyntheticOptions options;
    options.batchesPerEpoch = 40;
    options.barrierNs = 2'000;
    options.submitNs = 1'000;
    options.overheadNs = 1'000;
    const auto document = prepareDocument(makeSyntheticTrace(options), "sub-pixel");
    const auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 3'000));
    ASSERT_EQ(barriers->size(), 39u);
    auto plot = makePlot(document, barriers);
    const QImage image = picture(*plot);
    const TimeView view = plot->view();
    ASSERT_LT(static_cast<double>((*barriers)[0].duration()) / view.nsPerPixel(), 0.5) << "the barriers must be sub-pixel";
    const QRect area = plot->axisRect()->rect();
    std::set<int> columns;
    for (const auto& barrier : *barriers) {
        const int x = static_cast<int>(std::lround(view.toPixel(static_cast<double>(barrier.start))));
        // The tick on the bottom edge of the chart (under the barrier labels), in the band's
        // edge colour.
        EXPECT_EQ(toRgb(image.pixelColor(x, area.bottom() - 1)), toRgb(kBarrierEdge)) << "barrier at " << barrier.start;
        columns.insert(x);
    }
    EXPECT_EQ(columns.size(), barriers->size()) << "each barrier its own column";
    // And nowhere else: midway between two barriers the bottom edge is not barrier-coloured.
    const double between = (static_cast<double>((*barriers)[0].end) + static_cast<double>((*barriers)[1].start)) / 2.0;
    EXPECT_NE(toRgb(image.pixelColor(static_cast<int>(std::lround(view.toPixel(between))), area.bottom() - 1)),
              toRgb(kBarrierEdge));
}

// A 50 us task zoomed to 500 px holds its name in the text colour; zoomed out to ~40 px, the
// name is elided inside the bar and no text pixel falls outside it; at fit-all of a dense
// trace no bar holds a name.
TEST(SpanNames, WideBarsAreNamedInsideAndNamesNeverOverflow) {
    SyntheticOptions options;
    const auto document = prepareDocument(makeSyntheticTrace(options), "names");
    auto plot = makePlot(document, nullptr);
    const auto& trace = document->trace;
    const auto& task = trace.tasks[0];   // conv_fwd on CPU 0 [25, 75 us)
    ASSERT_EQ(trace.codeletOf(task), "conv_fwd");
    plot->setView(static_cast<double>(task.start) - 20'000.0, static_cast<double>(task.start) + 100'000.0);
    QImage image = picture(*plot);
    const auto& placed = plot->names()->placed();
    const auto named = std::find_if(placed.begin(), placed.end(), [](const auto& p) { return p.text == "conv_fwd"; });
    ASSERT_NE(named, placed.end());
    const auto& lane = trace.lanes[static_cast<std::size_t>(task.lane)];
    const Rgb bar = document->palette.spanColour(trace, lane, lane.spans()[2]);
    const QColor text = nameColourOn(bar);
    const int x0 = static_cast<int>(plot->xAxis->coordToPixel(static_cast<double>(task.start))) + 1;
    const int x1 = static_cast<int>(plot->xAxis->coordToPixel(static_cast<double>(task.end))) - 1;
    // Letters are antialiased: a pixel nearer the text colour than the bar's is a letter's.
    const auto distance = [](const QColor& a, Rgb b) {
        return std::abs(a.red() - b.r) + std::abs(a.green() - b.g) + std::abs(a.blue() - b.b);
    };
    int textPixels = 0;
    for (int x = x0; x < x1; ++x) {
        for (int y = named->bar.top(); y <= named->bar.bottom(); ++y) {
            const QColor pixel = image.pixelColor(x, y);
            textPixels += distance(pixel, toRgb(text)) < distance(pixel, bar) ? 1 : 0;
        }
    }
    EXPECT_GT(textPixels, 30) << "the name's letters in " << text.name().toStdString() << " inside the bar";

    // ~0.8 px per us: bars of 40 px, scheduling gaps of 4 px between them.
    plot->setView(0.0, 1'500'000.0);
    image = picture(*plot);
    ASSERT_FALSE(plot->names()->placed().empty());
    for (const auto& p : plot->names()->placed()) {
        EXPECT_LE(QFontMetrics(plot->font()).horizontalAdvance(p.text), p.bar.width()) << p.text.toStdString();
        // Just outside the bar, on the text's line: the neighbours' own colours, no letter.
        for (const int x : {p.bar.left() - 1, p.bar.right() + 2}) {
            const Rgb outside = toRgb(image.pixelColor(x, p.bar.top() + QFontMetrics(plot->font()).ascent() / 2));
            const Rgb below = toRgb(image.pixelColor(x, p.bar.bottom() - 1));
            EXPECT_EQ(outside, below) << "a letter past the bar at x " << x;
        }
    }

    // Dense: 2 us tasks at fit-all are folded, none named.
    SyntheticOptions dense;
    dense.tasksPerWorker = 2'000;
    dense.taskNs = 2'000;
    dense.overheadNs = 200;
    auto densePlot = makePlot(prepareDocument(makeSyntheticTrace(dense), "dense"), nullptr);
    picture(*densePlot);
    EXPECT_TRUE(densePlot->names()->placed().empty());
}

TEST(Selection, TheSelectedTaskIsFramedWithArrowsToAndFromItsDependencies) {
    SyntheticOptions options;
    const auto document = prepareDocument(withDependencies(makeSyntheticTrace(options), options), "graph");
    auto plot = makePlot(document, nullptr);
    const auto& trace = document->trace;
    // Batch 0, worker 1, its third task: waits for its worker's second and worker 0's third;
    // its worker's fourth and worker 2's third wait for it.
    const auto task = static_cast<TaskIndex>(options.tasksPerWorker + 2);
    QSignalSpy selected(plot.get(), &GanttPlot::spanSelected);
    ASSERT_TRUE(plot->selectTask(task));
    ASSERT_EQ(selected.size(), 1);
    EXPECT_EQ(plot->selectedTask(), task);
    const auto& links = plot->spanSelection()->links()->links();
    ASSERT_EQ(links.size(), 4u);
    const auto linked = plot->spanSelection()->linkedTasks();
    EXPECT_EQ(std::set<TaskIndex>(linked.begin(), linked.end()),
              (std::set<TaskIndex>{task - 1, task - 8, task + 1, task + 8}));
    EXPECT_EQ(links[0].colour, kPredecessorArrow);
    EXPECT_EQ(links[3].colour, kSuccessorArrow);

    // Zoom onto the task: the frame around it, the arrows' heads and tails in their colours.
    const auto& t = trace.tasks[task];
    plot->setView(static_cast<double>(t.start) - 100'000.0, static_cast<double>(t.end) + 100'000.0);
    const QImage image = picture(*plot);
    const QRect frame = plot->spanSelection()->highlight()->frameRect(plot->spanSelection()->highlight()->boxes().front());
    // Off the row's centre line, where the arrows along the row meet the task.
    const int y = frame.top() + 5;
    EXPECT_TRUE(isFrame(toRgb(image.pixelColor(frame.left(), y))));
    EXPECT_TRUE(isFrame(toRgb(image.pixelColor(frame.right(), y))));
    EXPECT_TRUE(isFrame(toRgb(image.pixelColor(frame.center().x(), frame.top()))));
    EXPECT_TRUE(isFrame(toRgb(image.pixelColor(frame.center().x(), frame.bottom()))));
    EXPECT_EQ(toRgb(image.pixelColor(frame.left() + 2, y)), toRgb(kHighlightInner));
    // Not selected: no frame there.
    plot->selectSpan(std::nullopt);
    const QImage plain = picture(*plot);
    EXPECT_FALSE(isFrame(toRgb(plain.pixelColor(frame.left(), y))));
    EXPECT_TRUE(plot->spanSelection()->links()->links().empty());

    // A task narrower than a pixel at fit-all keeps a frame of several pixels.
    ASSERT_TRUE(plot->selectTask(task));
    plot->fitAll();
    picture(*plot);
    EXPECT_GE(plot->spanSelection()->highlight()->frameRect(plot->spanSelection()->highlight()->boxes().front()).width(), 8);
}

TEST(Selection, AClickOnAnArrowsEndSelectsTheTaskThereAndTheDetailsLinkToIt) {
    SyntheticOptions options;
    const auto document = prepareDocument(withDependencies(makeSyntheticTrace(options), options), "graph");
    auto plot = makePlot(document, nullptr);
    plot->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(plot.get()));
    const auto task = static_cast<TaskIndex>(options.tasksPerWorker + 2);
    ASSERT_TRUE(plot->selectTask(task));
    const auto& t = document->trace.tasks[task];
    plot->setView(static_cast<double>(t.start) - 200'000.0, static_cast<double>(t.end) + 200'000.0);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    // The successor on worker 2 (task + 8): its arrow ends at its start, on its row.
    const auto& links = plot->spanSelection()->links()->links();
    const auto& linked = plot->spanSelection()->linkedTasks();
    const auto at = std::find(linked.begin(), linked.end(), task + 8) - linked.begin();
    ASSERT_LT(static_cast<std::size_t>(at), links.size());
    const QPointF head = plot->spanSelection()->links()->toPixel(links[static_cast<std::size_t>(at)]);
    QTest::mouseClick(plot.get(), Qt::LeftButton, Qt::NoModifier, head.toPoint() + QPoint(-2, 0));
    EXPECT_EQ(plot->selectedTask(), task + 8);

    // The details list the dependencies as links that name a task.
    const QString html = dependencyHtml(*document, task);
    EXPECT_TRUE(html.contains(QStringLiteral("href=\"%1\"").arg(taskAnchor(task - 1)))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("href=\"%1\"").arg(taskAnchor(task + 8)))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("conv_bwd")));
    EXPECT_EQ(taskOfAnchor(QUrl(taskAnchor(task + 8))), task + 8);
    EXPECT_FALSE(taskOfAnchor(QUrl(QStringLiteral("https://example.org/7"))));
    EXPECT_FALSE(taskOfAnchor(QUrl(QStringLiteral("task:x"))));
}

// "conv_fwd" in the key, not "conv fwd": each entry is clipped to its cell, and the key's last
// row sits on the picture's edge, which cut the underscore off. The synthetic trace's codelets
// each have their own shade, so each entry is one name, whose only mark below the baseline is
// its underscore.
TEST(LegendNames, UnderscoresOfCodeletNamesAreDrawn) {
    const auto document = prepareDocument(makeSyntheticTrace(SyntheticOptions{}), "key");
    for (const QSize size : {QSize(1600, 1000), QSize(900, 600)}) {
        GanttPlot plot;
        plot.resize(size);
        plot.setDocument(document);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const QImage image = plot.toPixmap(size.width(), size.height(), 1.0).toImage();
        const QFontMetrics metrics(plot.legend->font());
        int checked = 0;
        for (int i = 0; i < plot.legend->itemCount(); ++i) {
            const auto* item = dynamic_cast<const SwatchLegendItem*>(plot.legend->item(i));
            if (item == nullptr || !item->label().contains(QLatin1Char('_'))) {
                continue;
            }
            ASSERT_FALSE(item->label().contains(QLatin1Char(','))) << item->label().toStdString();
            const QRect cell = item->rect();
            const int baseline = cell.top() + (cell.height() - metrics.height()) / 2 + metrics.ascent();
            int below = 0;
            for (int y = baseline + 1; y < std::min(baseline + metrics.descent() + 1, size.height()); ++y) {
                for (int x = cell.left() + plot.legend->iconSize().width() + 1; x <= cell.right(); ++x) {
                    below += image.pixelColor(x, y).lightness() < 128 ? 1 : 0;
                }
            }
            EXPECT_GT(below, 3) << "no underscore under \"" << item->label().toStdString() << "\" at "
                                << size.width() << "x" << size.height();
            ++checked;
        }
        EXPECT_EQ(checked, 4) << "conv_fwd, conv_bwd, dense_fwd, dense_bwd";
    }
}

// A range's length is shown while it is dragged (zoom or selection), and a selected range the
// view has left leaves no label behind at the chart's edge.
TEST(RangeLabel, ShownWhileDraggingAndGoneWhenTheRangeLeavesTheView) {
    auto document = prepareDocument(makeSyntheticTrace({}), "synthetic");
    auto plot = makePlot(document, nullptr);
    plot->setView(0.0, 1'000'000.0);
    picture(*plot);
    const auto send = [&](QEvent::Type type, double ns, Qt::MouseButton button, Qt::MouseButtons buttons,
                          Qt::KeyboardModifiers modifiers) {
        const QPointF pos(plot->xAxis->coordToPixel(ns), plot->yAxis->coordToPixel(1.0));
        QMouseEvent event(type, pos, plot->mapToGlobal(pos), button, buttons, modifiers);
        QCoreApplication::sendEvent(plot.get(), &event);
    };
    // A right-drag (zoom) in progress: its length, before the release.
    send(QEvent::MouseButtonPress, 200'000.0, Qt::RightButton, Qt::RightButton, Qt::NoModifier);
    send(QEvent::MouseMove, 500'000.0, Qt::NoButton, Qt::RightButton, Qt::NoModifier);
    picture(*plot);
    ASSERT_TRUE(plot->overlay()->labels().range) << "no length while zooming to a range";
    EXPECT_EQ(plot->overlay()->labels().range->text, QString::fromStdString(formatDuration(300'000.0)));
    send(QEvent::MouseButtonRelease, 500'000.0, Qt::RightButton, Qt::NoButton, Qt::NoModifier);

    plot->setView(0.0, 1'000'000.0);
    plot->setSelection(std::make_pair(100'000.0, 300'000.0));
    picture(*plot);
    ASSERT_TRUE(plot->overlay()->labels().range);
    EXPECT_EQ(plot->overlay()->labels().range->text, QString::fromStdString(formatDuration(200'000.0)));
    // Panned past it, both ways: nothing drawn for it.
    plot->setView(1'500'000.0, 2'500'000.0);
    picture(*plot);
    EXPECT_FALSE(plot->overlay()->labels().range) << "the label stayed at the left edge";
    plot->setView(0.0, 50'000.0);
    picture(*plot);
    EXPECT_FALSE(plot->overlay()->labels().range) << "the label stayed at the right edge";
}

// Codelets sharing a long prefix keep apart when their names are elided in the bars: StarPU's
// LU example's four all read "st..." before.
TEST(SpanNames, ElidedNamesOfCodeletsWithACommonPrefixDiffer) {
    SyntheticOptions options;
    options.codelets = {"starpu_slu_lu_model_11", "starpu_slu_lu_model_12", "starpu_slu_lu_model_21",
                        "starpu_slu_lu_model_22"};
    const auto document = prepareDocument(makeSyntheticTrace(options), "lu");
    auto plot = makePlot(document, nullptr);
    // ~0.8 px per us: bars of 40 px, too narrow for the whole names.
    plot->setView(0.0, 1'500'000.0);
    picture(*plot);
    std::set<QString> texts;
    for (const auto& p : plot->names()->placed()) {
        EXPECT_NE(p.text, QStringLiteral("starpu_slu_lu_model_11")) << "the test needs elided names";
        texts.insert(p.text);
    }
    EXPECT_GE(texts.size(), 4u) << "elided names of different codelets read alike";
}
