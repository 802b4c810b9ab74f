// A StarPU-MPI job on the chart: each rank's rows under its header, a collapsed rank drawn as
// its header's mix of states, the job's barriers across every rank and each rank's own only
// over its rows, with their causes in the tooltip. Checked on pixels of a synthetic 2-rank
// trace whose times are known (tests/support/synthetic_trace.hpp).

#include "tests/support/synthetic_trace.hpp"
#include "tests/viewer/pixel_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "viewer/core/format/time_format.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/chart/gantt_plottable.hpp"
#include "viewer/gui/chart/link_plottable.hpp"
#include "viewer/gui/chart/message_arrows.hpp"
#include "viewer/gui/chart/overlay_plottable.hpp"
#include "viewer/gui/chart/qt_support.hpp"
#include "viewer/gui/export/render.hpp"

#include <gtest/gtest.h>

#include <QImage>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace starscope::viewer;
using starscope::viewer::testing::near;
using starscope::viewer::testing::over;
using starscope::tracer::LaneKind;
using starscope::tracer::TimeNs;

namespace {

constexpr int kWidth = 1200;
constexpr int kHeight = 800;

class RanksRender : public ::testing::Test {
protected:
    void SetUp() override {
        document = prepareDocument(makeSyntheticRanksTrace(options, 2), "two ranks");
        auto computed = computeJobAndRankBarriers(*document, 100'000);
        barriers = std::make_shared<const Barriers>(std::move(computed.job));
        rankBarriers = std::make_shared<const Barriers>(std::move(computed.ranks));
        plot = std::make_unique<GanttPlot>();
        plot->resize(kWidth, kHeight);
        plot->setDocument(document);
        plot->setBarriers(barriers);
        plot->setRankBarriers(rankBarriers);
        // Batch 0 and the transition to batch 1, where the ranks differ.
        plot->replot(QCustomPlot::rpImmediateRefresh);
        plot->setView(0.0, 1'000'000.0);
        shoot();
    }

    void shoot() {
        plot->replot(QCustomPlot::rpImmediateRefresh);
        image = plot->toPixmap(kWidth, kHeight, 1.0).toImage();
    }

    int x(double ns) const { return static_cast<int>(std::lround(plot->xAxis->coordToPixel(ns))); }
    int y(double row) const { return static_cast<int>(std::lround(plot->yAxis->coordToPixel(row))); }
    // Near the bottom of the row: a bar's name, when it has room for one, sits in its middle.
    Rgb at(double ns, std::size_t row) const {
        return toRgb(image.pixelColor(x(ns), y(static_cast<double>(row) + 0.3)));
    }

    // The chart row of the first CPU worker of a rank, or of its header.
    std::size_t workerRow(std::int32_t rank) const {
        for (std::size_t r = 0; r < plot->rows().size(); ++r) {
            const Row& row = plot->rows()[r];
            if (row.kind == RowKind::Lane && row.rank == rank
                && document->trace.lanes[static_cast<std::size_t>(row.lane)].kind == LaneKind::CpuWorker) {
                return r;
            }
        }
        ADD_FAILURE() << "no worker row of rank " << rank;
        return 0;
    }
    std::size_t headerRow(std::int32_t rank) const {
        for (std::size_t r = 0; r < plot->rows().size(); ++r) {
            if (plot->rows()[r].kind == RowKind::RankHeader && plot->rows()[r].rank == rank) {
                return r;
            }
        }
        ADD_FAILURE() << "no header row of rank " << rank;
        return 0;
    }

    // 4 workers per rank, 8 tasks of 50 us (rank 0) and 62.5 us (rank 1) per worker and batch:
    // rank 0's workers finish batch 0 at 460 us, rank 1's at 560 us; batch 1's first tasks
    // start at 885 us on both.
    SyntheticOptions options;
    std::shared_ptr<const TraceDocument> document;
    std::shared_ptr<const Barriers> barriers;
    std::shared_ptr<const Barriers> rankBarriers;
    std::unique_ptr<GanttPlot> plot;
    QImage image;
};

} // namespace

TEST_F(RanksRender, BarriersOfTheJobAndOfEachRankAreWhereTheTraceSays) {
    ASSERT_FALSE(barriers->empty());
    EXPECT_EQ((*barriers)[0].start, 560'000);
    EXPECT_EQ((*barriers)[0].end, 885'000);
    const auto rank0 = barriersOfRank(*rankBarriers, 0);
    const auto rank1 = barriersOfRank(*rankBarriers, 1);
    ASSERT_FALSE(rank0.empty());
    ASSERT_FALSE(rank1.empty());
    EXPECT_EQ(rank0[0].start, 460'000);
    EXPECT_EQ(rank1[0].start, 560'000);
    // The reply from rank 0 (sent 60 us after rank 1's batch end, 40 us long) is the last
    // message into the job's barrier, rank 1's update the one into rank 0's.
    EXPECT_EQ((*barriers)[0].cause, starscope::tracer::BarrierCause::DataFromRank);
    EXPECT_EQ((*barriers)[0].fromRank, 0);
    EXPECT_EQ(rank0[0].fromRank, 1);
}

TEST_F(RanksRender, EachRankHasAHeaderRowThenItsLanesAndBothRanksAreDrawn) {
    const auto& rows = plot->rows();
    // Per rank: header, main thread, 4 workers, MPI thread.
    ASSERT_EQ(rows.size(), 14u);
    EXPECT_EQ(headerRow(0), 0u);
    EXPECT_EQ(headerRow(1), 7u);
    EXPECT_EQ(rows[6].rank, 0);
    EXPECT_EQ(document->trace.lanes[static_cast<std::size_t>(rows[6].lane)].kind, LaneKind::MpiThread);
    // The first task of batch 0 (codelet 0) on a worker of each rank: 25-75 us and 25-87.5 us.
    EXPECT_EQ(at(50'000, workerRow(0)), document->palette.codeletColour("conv_fwd"));
    EXPECT_EQ(at(50'000, workerRow(1)), document->palette.codeletColour("conv_fwd"));
    // Each header row is its workers' mix: all executing at 50 us.
    EXPECT_TRUE(isGreenish(at(50'000, headerRow(0))));
    EXPECT_TRUE(isGreenish(at(50'000, headerRow(1))));
    // Between the ranks' batch ends only rank 0 waits: its workers sleep under its own
    // barrier's tint, rank 1's still execute, untinted.
    EXPECT_TRUE(near(at(510'000, workerRow(0)), over(kSleepingRed, kRankBarrierFill)));
    EXPECT_TRUE(isGreenish(at(510'000, workerRow(1))));
    EXPECT_EQ(at(510'000, workerRow(1)), document->palette.codeletColour("dense_bwd"));
    // In the job's barrier every rank's rows carry the job's band over their own.
    EXPECT_TRUE(near(at(750'000, workerRow(0)), over(over(kSleepingRed, kRankBarrierFill), kBarrierFill)));
    EXPECT_TRUE(near(at(750'000, workerRow(1)), over(over(kSleepingRed, kRankBarrierFill), kBarrierFill)));
}

TEST_F(RanksRender, TooltipsNameEachBarrierWithItsCause) {
    const QString inJob = plot->overlay()->tooltipAt(QPointF(x(750'000), y(static_cast<double>(workerRow(1)))));
    EXPECT_TRUE(inJob.contains(QStringLiteral("barrier of"))) << inJob.toStdString();
    EXPECT_TRUE(inJob.contains(QStringLiteral("data from rank 0"))) << inJob.toStdString();
    EXPECT_TRUE(inJob.contains(QStringLiteral("rank 1 barrier of"))) << inJob.toStdString();
    const QString rank0Only = plot->overlay()->tooltipAt(QPointF(x(510'000), y(static_cast<double>(workerRow(0)))));
    EXPECT_TRUE(rank0Only.contains(QStringLiteral("rank 0 barrier of"))) << rank0Only.toStdString();
    EXPECT_TRUE(rank0Only.contains(QStringLiteral("data from rank 1"))) << rank0Only.toStdString();
    // Over rank 1's rows at that time there is no barrier (nor an arrow: batch 0's leave at 560 us).
    EXPECT_TRUE(plot->overlay()->tooltipAt(QPointF(x(510'000), y(static_cast<double>(workerRow(1))))).isEmpty());
    // A span's details name the barriers it starts in.
    const auto hit = plot->hitTest(QPointF(x(750'000), y(static_cast<double>(workerRow(0)))));
    ASSERT_TRUE(hit);
    const QString details = plot->details(*hit);
    EXPECT_TRUE(details.contains(QStringLiteral("a barrier of rank 0"))) << details.toStdString();
}

TEST_F(RanksRender, ACollapsedRankIsItsHeaderRowShowingItsWorkersMix) {
    QSignalSpy changed(plot.get(), &GanttPlot::rowsChanged);
    plot->setRankCollapsed(1, true);
    EXPECT_EQ(changed.count(), 1);
    EXPECT_TRUE(plot->isRankCollapsed(1));
    ASSERT_EQ(plot->rows().size(), 8u);
    for (const Row& row : plot->rows()) {
        EXPECT_TRUE(row.rank == 0 || row.kind == RowKind::RankHeader) << row.label;
    }
    shoot();
    const std::size_t header = headerRow(1);
    EXPECT_EQ(header, 7u);
    // Executing while its workers run, sleeping red in the job's barrier (under the bands).
    EXPECT_TRUE(isGreenish(at(50'000, header)));
    EXPECT_TRUE(near(at(750'000, header), over(over(kSleepingRed, kRankBarrierFill), kBarrierFill)));
    // Rank 0 is untouched.
    EXPECT_EQ(at(50'000, workerRow(0)), document->palette.codeletColour("conv_fwd"));
    // A click on the header expands it again, a click on its label collapses it.
    plot->setAttribute(Qt::WA_DontShowOnScreen);
    plot->show();
    QTest::mouseClick(plot.get(), Qt::LeftButton, Qt::NoModifier, QPoint(x(300'000), y(static_cast<double>(header))));
    EXPECT_FALSE(plot->isRankCollapsed(1));
    EXPECT_EQ(plot->rows().size(), 14u);
    EXPECT_EQ(changed.count(), 2);
    const int labelX = plot->axisRect()->rect().left() - 20;
    QTest::mouseClick(plot.get(), Qt::LeftButton, Qt::NoModifier, QPoint(labelX, y(static_cast<double>(headerRow(0)))));
    EXPECT_TRUE(plot->isRankCollapsed(0));
    EXPECT_EQ(plot->rows().size(), 8u);
    // A click on a lane's label does nothing.
    QTest::mouseClick(plot.get(), Qt::LeftButton, Qt::NoModifier, QPoint(labelX, y(static_cast<double>(workerRow(1)))));
    EXPECT_EQ(changed.count(), 3);
}

namespace {

bool dark(Rgb c) { return c.r < 90 && c.g < 90 && c.b < 90; }

// Points along the arrow's shaft (its middle 60 %) with a pixel as dark as the arrow within
// one pixel (the line is antialiased: the point itself may fall on its lighter edge).
int darkPixelsAlong(const QImage& image, const QPointF& from, const QPointF& to) {
    int count = 0;
    for (int i = 20; i <= 80; ++i) {
        const QPoint p = (from + (to - from) * (i / 100.0)).toPoint();
        bool found = false;
        for (int dx = -1; dx <= 1 && !found; ++dx) {
            for (int dy = -1; dy <= 1 && !found; ++dy) {
                found = dark(toRgb(image.pixelColor(p + QPoint(dx, dy))));
            }
        }
        count += found ? 1 : 0;
    }
    return count;
}

} // namespace

TEST_F(RanksRender, MessagesAreArrowsBetweenTheRanksMpiRowsWhenShownAndAbsentWhenHidden) {
    ASSERT_TRUE(plot->messagesVisible());
    // Batch 0's two messages (rank 1's update, rank 0's reply) are in the view, batch 1's not.
    const auto& links = plot->messages()->links()->links();
    ASSERT_EQ(links.size(), 2u);
    const auto& up = document->trace.messages[plot->messages()->arrows()[0].first];
    EXPECT_EQ(up.fromRank, 1);
    EXPECT_EQ(links[0].fromTime, 560'000.0);
    EXPECT_EQ(links[0].toTime, 600'000.0);
    EXPECT_EQ(links[0].fromRow, 13.0);   // rank 1's MPI thread
    EXPECT_EQ(links[0].toRow, 6.0);      // rank 0's
    const QPointF from = plot->messages()->links()->fromPixel(links[0]);
    const QPointF to = plot->messages()->links()->toPixel(links[0]);
    const int shown = darkPixelsAlong(image, from, to);
    EXPECT_GE(shown, 55) << "the arrow's shaft is drawn";
    // The tooltip names it.
    const QString tip = plot->messages()->tooltipAt((from + to) / 2.0);
    EXPECT_TRUE(tip.contains(QStringLiteral("rank 1 -&gt; rank 0"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("4,096 B"))) << tip.toStdString();

    plot->setMessagesVisible(false);
    shoot();
    EXPECT_EQ(darkPixelsAlong(image, from, to), 0) << "no arrow when messages are hidden";
    EXPECT_TRUE(plot->messages()->tooltipAt((from + to) / 2.0).isEmpty());

    plot->setMessagesVisible(true);
    plot->setRankCollapsed(1, true);
    shoot();
    // Collapsed, rank 1's end of the arrow is its header row.
    ASSERT_EQ(plot->messages()->links()->links().size(), 2u);
    EXPECT_EQ(plot->messages()->links()->links()[0].fromRow, 7.0);
    const auto& collapsed = plot->messages()->links()->links()[0];
    EXPECT_GE(darkPixelsAlong(image, plot->messages()->links()->fromPixel(collapsed),
                              plot->messages()->links()->toPixel(collapsed)),
              55);
}

TEST_F(RanksRender, HeadlessRenderDrawsArrowsUnlessToldNot) {
    RenderRequest request;
    request.size = {kWidth, kHeight};
    request.range = TimeRange{0.0, 1'000'000.0};
    request.rankBarriers = rankBarriers;
    const QImage with = renderImage(document, barriers, request);
    request.messages = false;
    const QImage without = renderImage(document, barriers, request);
    // The plot above has the same size and view: the arrow lies where it drew it.
    const auto& link = plot->messages()->links()->links()[0];
    const QPointF from = plot->messages()->links()->fromPixel(link);
    const QPointF to = plot->messages()->links()->toPixel(link);
    EXPECT_GE(darkPixelsAlong(with, from, to), 55);
    EXPECT_EQ(darkPixelsAlong(without, from, to), 0);
}

// Each rank's own barriers are labelled with their duration on its rows, as the job's are.
TEST_F(RanksRender, EachRanksBarriersAreLabelledWithTheirDuration) {
    const auto& labels = plot->overlay()->labels().rankBarrier;
    ASSERT_FALSE(labels.empty()) << "no rank barrier has a label";
    for (const auto& label : labels) {
        bool named = false;
        for (const auto& barrier : *rankBarriers) {
            named = named || label.text == QString::fromStdString(formatDuration(static_cast<double>(barrier.duration())));
        }
        EXPECT_TRUE(named) << label.text.toStdString() << " names no rank barrier";
        // Within one rank's rows, below the batch labels and above the job's barrier labels.
        const int rankOf = [&] {
            for (const std::int32_t rank : {0, 1}) {
                const auto rows = rowsOfRank(plot->rows(), rank);
                if (label.box.top() >= y(static_cast<double>(rows->first) - 0.5)
                    && label.box.bottom() <= y(static_cast<double>(rows->second) + 0.5)) {
                    return rank;
                }
            }
            return -1;
        }();
        EXPECT_GE(rankOf, 0) << label.text.toStdString() << " lies outside the rows of a rank";
        for (const QRect& job : plot->overlay()->labels().barrier) {
            EXPECT_FALSE(job.intersects(label.box));
        }
        for (const QRect& batch : plot->overlay()->labels().batch) {
            EXPECT_FALSE(batch.intersects(label.box));
        }
    }
    // Both ranks have one at the transition to batch 1, where their workers finish apart.
    std::set<int> tops;
    for (const auto& label : labels) {
        tops.insert(label.box.top());
    }
    EXPECT_EQ(tops.size(), 2u);
}

// Labels are drawn over the message arrows: a label box has the same pixels with and without
// the messages, at zooms where arrows cross labels (a narrow chart: labels take more time).
TEST_F(RanksRender, MessageArrowsNeverCrossALabel) {
    constexpr int kNarrow = 640;
    plot->resize(kNarrow, kHeight);
    const auto narrowShot = [&] {
        plot->replot(QCustomPlot::rpImmediateRefresh);
        image = plot->toPixmap(kNarrow, kHeight, 1.0).toImage();
    };
    int crossings = 0;
    for (const double widthNs : {1'000'000.0, 2'000'000.0, 4'000'000.0}) {
        plot->setMessagesVisible(true);
        plot->setView(0.0, widthNs);
        narrowShot();
        const QImage with = image;
        std::vector<QRect> boxes = plot->overlay()->labels().barrier;
        boxes.insert(boxes.end(), plot->overlay()->labels().batch.begin(), plot->overlay()->labels().batch.end());
        for (const auto& label : plot->overlay()->labels().rankBarrier) {
            boxes.push_back(label.box);
        }
        const auto* links = plot->messages()->links();
        for (const auto& link : links->links()) {
            const QLineF arrow(links->fromPixel(link), links->toPixel(link));
            for (const QRect& box : boxes) {
                const QRectF r(box);
                for (const QLineF edge : {QLineF(r.topLeft(), r.topRight()), QLineF(r.bottomLeft(), r.bottomRight()),
                                          QLineF(r.topLeft(), r.bottomLeft()), QLineF(r.topRight(), r.bottomRight())}) {
                    crossings += arrow.intersects(edge, nullptr) == QLineF::BoundedIntersection ? 1 : 0;
                }
            }
        }
        plot->setMessagesVisible(false);
        narrowShot();
        for (const QRect& box : boxes) {
            for (int py = box.top(); py <= box.bottom(); ++py) {
                for (int px = box.left(); px <= box.right(); ++px) {
                    ASSERT_EQ(with.pixel(px, py), image.pixel(px, py))
                        << "an arrow crosses the label at (" << px << ", " << py << ") at a " << widthNs << " ns view";
                }
            }
        }
    }
    EXPECT_GT(crossings, 0) << "no arrow reached a label: the test shows nothing";
}

// A busy 2-rank epoch at fit-all is no solid comb of arrows: the messages between the two MPI
// rows starting in one slice of the chart are one thicker arrow whose tooltip gives their count
// and says to zoom in, the arrows' counts add up to the messages in view, and zoomed in each
// message is its own arrow again.
TEST(RanksMessageBundles, AtFitAllMessagesAreBundledAndZoomedInEachIsItsOwnArrow) {
    SyntheticOptions options;
    options.batchesPerEpoch = 300;
    const auto document = prepareDocument(makeSyntheticRanksTrace(options, 2), "two busy ranks");
    const auto& messages = document->trace.messages;
    ASSERT_EQ(messages.size(), 600u);
    GanttPlot plot;
    plot.resize(kWidth, kHeight);
    plot.setDocument(document);
    plot.fitAll();
    plot.replot(QCustomPlot::rpImmediateRefresh);
    const auto inView = [&] {
        const TimeView view = plot.view();
        return static_cast<std::size_t>(std::count_if(messages.begin(), messages.end(), [&](const auto& m) {
            return static_cast<double>(m.end) >= view.startNs && static_cast<double>(m.start) <= view.endNs;
        }));
    };

    const auto& bundled = plot.messages()->arrows();
    ASSERT_FALSE(bundled.empty());
    EXPECT_LE(bundled.size(), 2u * static_cast<std::size_t>(std::ceil(kWidth / LinkBundling{}.bucketPx)));
    std::size_t count = 0;
    for (const auto& arrow : bundled) {
        count += arrow.count;
    }
    EXPECT_EQ(count, inView());
    EXPECT_EQ(count, messages.size());
    const auto& links = plot.messages()->links()->links();
    ASSERT_EQ(links.size(), bundled.size());
    EXPECT_GT(links[0].width, 1.5) << "a bundle is drawn thicker than one message";
    const QPointF middle = (plot.messages()->links()->fromPixel(links[0]) + plot.messages()->links()->toPixel(links[0])) / 2.0;
    const QString tip = plot.messages()->tooltipAt(middle);
    EXPECT_TRUE(tip.contains(QString::number(bundled[0].count) + QStringLiteral(" messages rank"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("zoom in to see each"))) << tip.toStdString();

    // Three batches in view: every message its own arrow.
    const auto& middleMessage = messages[messages.size() / 2];
    plot.setView(static_cast<double>(middleMessage.start),
                 static_cast<double>(middleMessage.start) + static_cast<double>(document->trace.end) / 100.0);
    plot.replot(QCustomPlot::rpImmediateRefresh);
    const auto& single = plot.messages()->arrows();
    ASSERT_GE(single.size(), 2u);
    EXPECT_EQ(single.size(), inView());
    for (const auto& arrow : single) {
        EXPECT_EQ(arrow.count, 1u);
    }
    EXPECT_FALSE(plot.messages()->tooltipAt(plot.messages()->links()->fromPixel(plot.messages()->links()->links()[0]))
                     .contains(QStringLiteral("zoom in")));
}
