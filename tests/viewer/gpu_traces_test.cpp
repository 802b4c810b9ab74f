// The viewer on a real trace of a machine with GPUs: StarPU's cholesky example on the simulated
// mirage machine (12 CPUs, 3 CUDA GPUs), recorded by scripts/record_gpu_traces.sh with StarPU's
// SimGrid build as the tracer's GPU tests record it (skipped without that build; CI's GPU leg
// has it). Workers and memory nodes grouped by kind, named as users name them; the transfers as arrows
// between the memory rows, every one when zoomed in and folded at fit-all; a transfer's tooltip;
// waiting for data drawn in its own colour; a barrier caused by a transfer says so in the list.

#include "tests/support/test_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "tests/viewer/window_support.hpp"
#include "tracer/analysis/machine.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/chart/link_plottable.hpp"
#include "viewer/gui/chart/qt_support.hpp"
#include "viewer/gui/chart/span_description.hpp"
#include "viewer/gui/chart/transfer_arrows.hpp"
#include "viewer/gui/panels/barrier_list_model.hpp"

#include <gtest/gtest.h>

#include <QAction>
#include <QImage>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace starscope::viewer {
namespace {

using tracer::LaneKind;

constexpr int kWidth = 1400;
constexpr int kHeight = 900;

class GpuTrace : public ::testing::Test {
protected:
    void SetUp() override {
        const auto recorded = starscope::testing::recordGpuExample(m_dir.path(), "mirage", "cholesky_implicit");
        if (recorded.skipped) {
            GTEST_SKIP() << recorded.log;
        }
        ASSERT_TRUE(recorded.ok) << recorded.log;
        m_prof = recorded.run / "prof_file__0";
        auto loaded = loadDocument(m_prof);
        ASSERT_TRUE(loaded) << loaded.error().describe();
        document = *loaded;
        ASSERT_FALSE(document->trace.transfers.empty());
        barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
        plot = std::make_unique<GanttPlot>();
        plot->resize(kWidth, kHeight);
        plot->setDocument(document);
        plot->setBarriers(barriers);
        plot->replot(QCustomPlot::rpImmediateRefresh);
    }

    QImage shoot() {
        plot->replot(QCustomPlot::rpImmediateRefresh);
        return plot->toPixmap(kWidth, kHeight, 1.0).toImage();
    }
    std::size_t transfersBetween(double from, double to) const {
        std::size_t n = 0;
        for (const auto& x : document->trace.transfers) {
            n += static_cast<double>(x.end) >= from && static_cast<double>(x.start) <= to ? 1U : 0U;
        }
        return n;
    }

    starscope::testing::TempDir m_dir;
    std::filesystem::path m_prof;
    std::shared_ptr<const TraceDocument> document;
    std::shared_ptr<const Barriers> barriers;
    std::unique_ptr<GanttPlot> plot;
};

TEST_F(GpuTrace, WorkersAndMemoryNodesAreGroupedByKindUnderTheirHeaders) {
    std::vector<std::string> labels;
    for (const Row& row : plot->rows()) {
        labels.push_back(row.label);
    }
    // main, then the CPUs, the CUDA workers and the memory nodes, each under its header (two
    // kinds of worker: every kind of two lanes or more gets one).
    ASSERT_GE(labels.size(), 12u);
    EXPECT_EQ(labels.front(), "main");
    EXPECT_EQ(labels[1].substr(labels[1].find(' ') + 1, 11), "CPU workers");
    const auto cuda = std::find(labels.begin(), labels.end(), "\u25BE CUDA workers (3)");
    ASSERT_NE(cuda, labels.end());
    for (auto it = labels.begin() + 2; it != cuda; ++it) {
        const Row& row = plot->rows()[static_cast<std::size_t>(it - labels.begin())];
        EXPECT_EQ(document->trace.lanes[static_cast<std::size_t>(row.lane)].kind, LaneKind::CpuWorker) << *it;
    }
    const std::vector<std::string> rest(cuda + 1, labels.end());
    EXPECT_EQ(rest, (std::vector<std::string>{"CUDA 0", "CUDA 1", "CUDA 2", "\u25BE memory nodes (4)", "RAM",
                                              "CUDA 0 memory", "CUDA 1 memory", "CUDA 2 memory"}));
}

// starpu_fxt_tool's Paje trace of the same run reads to the same rows, named alike.
TEST_F(GpuTrace, ThePajeTraceOfTheRunHasTheSameRows) {
    const auto paje = loadDocument(m_prof.parent_path() / "paje.trace");
    ASSERT_TRUE(paje) << paje.error().describe();
    std::vector<std::string> fromProf;
    std::vector<std::string> fromPaje;
    for (const Row& row : document->rows) {
        fromProf.push_back(row.label);
    }
    for (const Row& row : (*paje)->rows) {
        fromPaje.push_back(row.label);
    }
    EXPECT_EQ(fromPaje, fromProf);
}

TEST_F(GpuTrace, AMemoryNodesSpanNamesItsNodeAsItsRowDoes) {
    for (std::size_t l = 0; l < document->trace.lanes.size(); ++l) {
        const auto& lane = document->trace.lanes[l];
        if (lane.kind != LaneKind::MemoryNode || lane.memoryNode != 1 || lane.spans().empty()) {
            continue;
        }
        const QString details = describeSpan(*document, ShownBarriers{}, SpanRef{l, 0, 0}, 1);
        EXPECT_TRUE(details.contains(QStringLiteral("<br>memory node: CUDA 0 memory (node 1)<br>"))) << details.toStdString();
        return;
    }
    FAIL() << "no span on memory node 1";
}

TEST_F(GpuTrace, TransfersAreEveryArrowZoomedInAndFoldedAtFitAll) {
    // Fit-all: far more transfers than arrows, none lost.
    const auto& all = plot->transfers()->arrows();
    ASSERT_FALSE(all.empty());
    std::size_t count = 0;
    for (const auto& arrow : all) {
        count += arrow.count;
    }
    EXPECT_EQ(count, document->trace.transfers.size());
    EXPECT_LT(all.size(), document->trace.transfers.size());
    EXPECT_EQ(plot->transfers()->links()->links().size(), all.size());

    // Zoomed onto a few transfers: one arrow each.
    const auto& x = document->trace.transfers[document->trace.transfers.size() / 2];
    plot->setView(static_cast<double>(x.start), static_cast<double>(x.start + (x.end - x.start) / 4 + 1));
    shoot();
    const auto& zoomed = plot->transfers()->arrows();
    const double from = plot->view().startNs;
    const double to = plot->view().endNs;
    ASSERT_LE(transfersBetween(from, to), LinkBundling{}.maxSingle);
    EXPECT_EQ(zoomed.size(), transfersBetween(from, to));
    for (const auto& arrow : zoomed) {
        EXPECT_EQ(arrow.count, 1u);
    }

    // The toggle hides them all.
    plot->setTransfersVisible(false);
    shoot();
    EXPECT_TRUE(plot->transfers()->links()->links().empty());
}

TEST_F(GpuTrace, ATransfersTooltipGivesBytesBandwidthNodesAndItsTask) {
    const auto& transfers = document->trace.transfers;
    const auto withTask = std::find_if(transfers.begin(), transfers.end(), [](const tracer::Transfer& x) {
        return x.job != 0 && x.end > x.start;
    });
    ASSERT_NE(withTask, transfers.end());
    plot->setView(static_cast<double>(withTask->start) - 1.0, static_cast<double>(withTask->end) + 1.0);
    shoot();
    const auto& arrows = plot->transfers()->arrows();
    const auto mine = std::find_if(arrows.begin(), arrows.end(), [&](const TransferArrow& a) {
        return &transfers[a.first] == &*withTask;
    });
    ASSERT_NE(mine, arrows.end());
    // What it says: its kind and nodes, bytes, duration and bandwidth, the task that needed it.
    const auto lines = describeTransferArrow(document->trace, *mine, document->time);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], std::string(tracer::nameOf(withTask->kind)) + " "
                            + memoryNodeName(document->trace, withTask->rank, withTask->fromNode) + " -> "
                            + memoryNodeName(document->trace, withTask->rank, withTask->toNode));
    const double seconds = static_cast<double>(withTask->duration()) * 1e-9;
    EXPECT_EQ(lines[1].rfind(tracer::formatBytes(static_cast<double>(withTask->size)) + " in ", 0), 0u) << lines[1];
    EXPECT_NE(lines[1].find(": " + tracer::formatBytes(static_cast<double>(withTask->size) / seconds) + "/s"),
              std::string::npos)
        << lines[1];
    EXPECT_EQ(lines[2].rfind("for job " + std::to_string(withTask->job) + " (", 0), 0u) << lines[2];

    // The tooltip under the arrow's tail is the description of the arrow there (ends win).
    const Link& link = plot->transfers()->links()->links()[static_cast<std::size_t>(mine - arrows.begin())];
    const QPointF tail = plot->transfers()->links()->fromPixel(link);
    const auto hit = plot->transfers()->links()->hitTest(tail);
    ASSERT_TRUE(hit);
    const QString text = plot->transfers()->tooltipAt(tail);
    for (const auto& line : describeTransferArrow(document->trace, arrows[hit->link], document->time)) {
        EXPECT_TRUE(text.contains(toQString(line).toHtmlEscaped())) << text.toStdString() << " lacks " << line;
    }
    EXPECT_TRUE(text.contains(QStringLiteral("B/s"))) << text.toStdString();
}

TEST_F(GpuTrace, AWorkerWaitingForDataIsDrawnInItsOwnColourNotSleepingRed) {
    // The longest FetchingInput of a CUDA worker.
    const tracer::Span* longest = nullptr;
    std::int32_t laneOfLongest = -1;
    for (std::size_t l = 0; l < document->trace.lanes.size(); ++l) {
        const auto& lane = document->trace.lanes[l];
        if (lane.kind != LaneKind::CudaWorker) {
            continue;
        }
        for (const auto& span : lane.spans()) {
            if (document->trace.stateOf(span).name == tracer::kFetchingInputState
                && (longest == nullptr || span.duration() > longest->duration())) {
                longest = &span;
                laneOfLongest = static_cast<std::int32_t>(l);
            }
        }
    }
    ASSERT_NE(longest, nullptr);
    plot->setTransfersVisible(false);
    plot->setView(static_cast<double>(longest->start), static_cast<double>(longest->end));
    const QImage image = shoot();
    const std::int32_t row = rowOfLanes(plot->rows(), document->trace)[static_cast<std::size_t>(laneOfLongest)];
    ASSERT_GE(row, 0);
    const int x = static_cast<int>(std::lround(plot->xAxis->coordToPixel(static_cast<double>(longest->start + longest->end) / 2.0)));
    const int y = static_cast<int>(std::lround(plot->yAxis->coordToPixel(static_cast<double>(row) + 0.3)));
    const Rgb colour = toRgb(image.pixelColor(x, y));
    EXPECT_EQ(colour, kWaitingForDataAmber);
    EXPECT_NE(colour, kSleepingRed);
    // Its details name it so too.
    const auto& spans = document->trace.lanes[static_cast<std::size_t>(laneOfLongest)].spans();
    const SpanRef ref{static_cast<std::size_t>(laneOfLongest), 0, static_cast<std::size_t>(longest - spans.data())};
    const QString details = describeSpan(*document, ShownBarriers{}, ref, 1);
    EXPECT_TRUE(details.startsWith(QStringLiteral("<b>Waiting for data</b> (FetchingInput)<br>worker: CUDA ")))
        << details.toStdString();
    const auto& legend = document->palette.legend();
    EXPECT_NE(std::find_if(legend.begin(), legend.end(),
                           [](const LegendEntry& e) { return e.label == kWaitingForDataLabel && e.colour == kWaitingForDataAmber; }),
              legend.end());
}

TEST_F(GpuTrace, ABarrierCausedByATransferSaysSoInTheBarrierList) {
    BarrierListModel model;
    model.setBarriers(barriers, document->time, &document->trace);
    int transferCaused = 0;
    for (int r = 0; r < model.rowCount(); ++r) {
        const auto& barrier = (*barriers)[static_cast<std::size_t>(r)];
        const QString cause = model.data(model.index(r, BarrierListModel::CauseColumn)).toString();
        EXPECT_EQ(cause.toStdString(), barrier.cause == tracer::BarrierCause::Unattributed
                                           ? std::string("-")
                                           : tracer::describeCause(document->trace, barrier));
        if (barrier.cause == tracer::BarrierCause::DataTransfer) {
            ++transferCaused;
            EXPECT_TRUE(cause.startsWith(QStringLiteral("data transfer"))) << cause.toStdString();
        }
    }
    EXPECT_GT(transferCaused, 0);
}

// View > Show data transfers: on for a trace with transfers, T toggles the arrows; a trace
// without transfers leaves it disabled.
TEST_F(GpuTrace, TheViewMenuTogglesTheTransfers) {
    MainWindow window;
    ASSERT_TRUE(testing::showAndOpen(window, QString::fromStdString(m_prof.string()), QSize(1200, 800)));
    QAction* action = window.transfersAction();
    ASSERT_TRUE(action->isEnabled());
    EXPECT_TRUE(action->isChecked());
    EXPECT_EQ(action->shortcut(), QKeySequence(Qt::Key_T));
    window.plot()->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_FALSE(window.plot()->transfers()->links()->links().empty());
    action->trigger();
    window.plot()->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_FALSE(window.plot()->transfersVisible());
    EXPECT_TRUE(window.plot()->transfers()->links()->links().empty());

    MainWindow cpuOnly;
    const QString synthetic = testing::writeSynthetic(m_dir, "cpu.sstrace");
    ASSERT_TRUE(testing::showAndOpen(cpuOnly, synthetic, QSize(1000, 700)));
    EXPECT_FALSE(cpuOnly.transfersAction()->isEnabled());
}

} // namespace
} // namespace starscope::viewer
