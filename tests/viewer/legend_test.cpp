// The legend as a colour key at a glance: one entry per colour (states of one colour share it,
// no name twice), every codelet named beside its shade, wrapped to the plot's width so no
// entry is cut; and the chart keeps most of a small window (the docks start narrow).
#include "tests/support/test_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "viewer/core/document/trace_document.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/window/main_window.hpp"

#include <gtest/gtest.h>

#include <QSignalSpy>

#include <set>

using namespace starscope::viewer;

namespace {

constexpr int kTimeoutMs = 120'000;

// The recorded single+naive run: its real state names (Sleeping and Idle both sleeping red)
// and the CNN's codelets.
QString realRun() {
    return QString::fromStdString((starscope::testing::testDataDir() / "viewer" / "single_naive").string());
}

} // namespace

TEST(Legend, OneEntryPerColourNamingEveryCodeletOfARealRun) {
    MainWindow window;
    window.resize(1400, 850);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    window.openPath(realRun());
    ASSERT_TRUE(loaded.wait(kTimeoutMs));
    const auto& document = *window.plot()->document();
    const auto& legend = document.palette.legend();
    std::set<std::string> labels;
    std::string all;
    for (std::size_t i = 0; i < legend.size(); ++i) {
        EXPECT_TRUE(labels.insert(legend[i].label).second) << "listed twice: " << legend[i].label;
        for (std::size_t j = 0; j < i; ++j) {
            EXPECT_NE(legend[j].colour, legend[i].colour) << legend[j].label << " and " << legend[i].label;
        }
        all += legend[i].label + "\n";
    }
    std::set<std::string> codelets;
    for (const auto& task : document.trace.tasks) {
        if (task.start >= 0) {
            codelets.insert(std::string(document.trace.codeletOf(task)));
        }
    }
    ASSERT_GE(codelets.size(), 2u);
    for (const auto& codelet : codelets) {
        EXPECT_NE(all.find(codelet), std::string::npos) << codelet << " not in the legend:\n" << all;
    }
    // The plot shows the same key, plus the barrier band.
    std::size_t shown = 0;
    for (int i = 0; i < window.plot()->legend->itemCount(); ++i) {
        shown += window.plot()->legend->item(i) != nullptr ? 1U : 0U;
    }
    EXPECT_EQ(shown, legend.size() + 1);
}

TEST(Legend, ChartKeepsMostOfA900x600WindowAndTheLegendWrapsInsideIt) {
    MainWindow window;
    window.resize(900, 600);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    window.openPath(realRun());
    ASSERT_TRUE(loaded.wait(kTimeoutMs));
    QApplication::processEvents();
    GanttPlot* plot = window.plot();
    EXPECT_GE(plot->width(), 0.6 * window.width()) << "chart " << plot->width() << " px of " << window.width();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QRect bounds = plot->rect();
    ASSERT_GT(plot->legend->itemCount(), 0);
    for (int i = 0; i < plot->legend->itemCount(); ++i) {
        if (plot->legend->item(i) == nullptr) {
            continue;   // an empty cell of the last row
        }
        const QRect item = plot->legend->item(i)->outerRect();
        EXPECT_TRUE(bounds.contains(item)) << "legend entry " << i << " at x " << item.left() << ".." << item.right()
                                           << " outside the plot's " << bounds.width() << " px";
        // Not squeezed below what its text needs.
        EXPECT_GE(item.width(), plot->legend->item(i)->minimumOuterSizeHint().width())
            << "entry " << i << " in a " << plot->width() << "x" << plot->height() << " plot, legend " << plot->legend->rowCount() << " rows";
    }
    EXPECT_GT(plot->legend->rowCount(), 1) << "a full key does not fit one row of a 900 px window";
}

// The headless picture of the same run: every entry of the key inside the picture, at the
// width its label needs.
TEST(Legend, RenderedKeyFitsThePicture) {
    auto document = loadDocument(starscope::testing::testDataDir() / "viewer" / "single_naive");
    ASSERT_TRUE(document) << document.error().describe();
    for (const QSize size : {QSize(1200, 700), QSize(1600, 1000), QSize(900, 600)}) {
        GanttPlot plot;
        plot.resize(size);
        plot.setDocument(*document);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        // Laid out at the picture's size, as --render draws it.
        const QImage picture = plot.toPixmap(size.width(), size.height(), 1.0).toImage();
        ASSERT_EQ(picture.size(), size);
        for (int i = 0; i < plot.legend->itemCount(); ++i) {
            const QCPAbstractLegendItem* item = plot.legend->item(i);
            if (item == nullptr) {
                continue;
            }
            const QRect rect = item->outerRect();
            EXPECT_LE(rect.right(), size.width()) << size.width() << "x" << size.height() << " entry " << i;
            EXPECT_GE(rect.width(), item->minimumOuterSizeHint().width())
                << size.width() << "x" << size.height() << " entry " << i << " at " << rect.left() << ", legend "
                << plot.legend->columnCount() << " columns";
        }
    }
}
