// The window end to end, offscreen: loading off the UI thread, the reader's error in a
// dialog while the app keeps running, cancelling, the threshold, recent files, clicks.

#include "tests/support/synthetic_trace.hpp"
#include "tests/support/test_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "tests/viewer/window_support.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/native/native_format.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/chart/qt_support.hpp"
#include "viewer/gui/panels/barrier_list_model.hpp"
#include "viewer/gui/panels/overview_strip.hpp"
#include "viewer/gui/panels/range_stats_model.hpp"
#include "viewer/gui/panels/search_bar.hpp"
#include "viewer/gui/window/main_window.hpp"
#include "viewer/gui/window/trace_loader.hpp"

#include <gtest/gtest.h>

#include <QMessageBox>
#include <QPushButton>
#include <QLineEdit>
#include <QTableView>
#include <QSignalSpy>
#include <QTest>

#include <cstdint>
#include <cstring>
#include <fstream>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace starscope::viewer;
using starscope::testing::TempDir;
using starscope::viewer::testing::kTimeoutMs;
using starscope::viewer::testing::showAndOpen;
using starscope::viewer::testing::writeSynthetic;

namespace {

// Closes the reader's error dialog, if one is up, as a user would before opening the next file.
void dismissLoadError(MainWindow& window) {
    if (auto* dialog = window.findChild<QMessageBox*>(QStringLiteral("loadErrorDialog"))) {
        dialog->accept();
    }
}

QString writeCorrupt(const TempDir& dir) {
    // A native header followed by garbage: the reader must name the file and the problem.
    const auto path = dir / "corrupt.sstrace";
    std::ofstream out(path, std::ios::binary);
    out.write("SSTRACE\0", 8);
    out << "\x01garbage that is not a trace payload";
    return QString::fromStdString(path.string());
}

} // namespace

TEST(MainWindow, CorruptFileShowsTheReadersMessageAndTheAppKeepsWorking) {
    TempDir dir;
    MainWindow window;
    window.show();
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    const QString corrupt = writeCorrupt(dir);
    window.openPath(corrupt);
    ASSERT_TRUE(failed.wait(kTimeoutMs));
    const QString message = failed.front().front().toString();
    EXPECT_TRUE(message.contains(corrupt)) << message.toStdString();
    EXPECT_EQ(window.lastError(), message);
    auto* dialog = window.findChild<QMessageBox*>(QStringLiteral("loadErrorDialog"));
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_TRUE(dialog->informativeText().contains(corrupt));
    dialog->accept();
    EXPECT_EQ(window.plot()->document(), nullptr);

    // A missing file too, then a good one: the same window opens it.
    window.openPath(QString::fromStdString((dir / "missing.trace").string()));
    ASSERT_TRUE(failed.wait(kTimeoutMs));
    EXPECT_TRUE(failed.back().front().toString().contains(QStringLiteral("missing.trace")));
    const QString good = writeSynthetic(dir, "good.sstrace");
    window.openPath(good);
    ASSERT_TRUE(loaded.wait(kTimeoutMs));
    ASSERT_NE(window.plot()->document(), nullptr);
    EXPECT_EQ(window.plot()->document()->trace.tasks.size(), 128u);
    EXPECT_EQ(window.barrierModel()->rowCount(), 3);
    EXPECT_TRUE(window.lastError().isEmpty());
    EXPECT_EQ(window.recentFiles().front(), good);
}

TEST(MainWindow, ThresholdRecomputesBarriersAndAClickZoomsToOne) {
    TempDir dir;
    MainWindow window;
    window.show();
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    QSignalSpy updated(&window, &MainWindow::barriersUpdated);
    window.openPath(writeSynthetic(dir, "t.sstrace"));
    ASSERT_TRUE(loaded.wait(kTimeoutMs));
    EXPECT_EQ(window.barrierModel()->rowCount(), 3);
    updated.clear();
    window.setBarrierThreshold(500'000);   // longer than every 425 us barrier
    ASSERT_TRUE(updated.wait(kTimeoutMs));
    EXPECT_EQ(window.barrierModel()->rowCount(), 0);
    window.setBarrierThreshold(100'000);
    ASSERT_TRUE(updated.wait(kTimeoutMs));
    ASSERT_EQ(window.barrierModel()->rowCount(), 3);

    window.zoomToBarrier(1);
    const auto& barrier = (*window.barrierModel()->barriers())[1];
    const TimeView view = window.plot()->view();
    EXPECT_LE(view.startNs, static_cast<double>(barrier.start));
    EXPECT_GE(view.endNs, static_cast<double>(barrier.end));
    EXPECT_LT(view.durationNs(), 3.0 * static_cast<double>(barrier.duration()));
}

TEST(MainWindow, ShiftDragSelectsARangeAndClickShowsDetails) {
    TempDir dir;
    MainWindow window;
    ASSERT_TRUE(showAndOpen(window, writeSynthetic(dir, "s.sstrace")));
    GanttPlot* plot = window.plot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const int y = static_cast<int>(plot->yAxis->coordToPixel(1.0));
    const int x0 = static_cast<int>(plot->xAxis->coordToPixel(0.0));
    const int x1 = static_cast<int>(plot->xAxis->coordToPixel(460'000.0));
    QSignalSpy selected(plot, &GanttPlot::rangeSelected);
    QTest::mousePress(plot, Qt::LeftButton, Qt::ShiftModifier, QPoint(x0, y));
    QTest::mouseMove(plot, QPoint((x0 + x1) / 2, y));
    QTest::mouseMove(plot, QPoint(x1, y));
    QTest::mouseRelease(plot, Qt::LeftButton, Qt::ShiftModifier, QPoint(x1, y));
    ASSERT_EQ(selected.size(), 1);
    EXPECT_GT(window.statsModel()->rowCount(), 1);

    QSignalSpy clicked(plot, &GanttPlot::spanClicked);
    const int taskX = static_cast<int>(plot->xAxis->coordToPixel(50'000.0));
    QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, QPoint(taskX, y));
    ASSERT_EQ(clicked.size(), 1);
    const auto hit = plot->hitTest(QPointF(taskX, y));
    ASSERT_TRUE(hit);
    const QString details = plot->details(*hit);
    EXPECT_TRUE(details.contains(QStringLiteral("conv_fwd"))) << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("job ")));
    EXPECT_TRUE(details.contains(QStringLiteral("epoch 0 batch 0")));
}

TEST(MainWindow, KeyboardAndWheelNavigation) {
    TempDir dir;
    MainWindow window;
    window.show();
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    window.openPath(writeSynthetic(dir, "k.sstrace"));
    ASSERT_TRUE(loaded.wait(kTimeoutMs));
    GanttPlot* plot = window.plot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const TimeView fit = plot->view();
    QTest::keyClick(plot, Qt::Key_W);
    EXPECT_NEAR(plot->view().durationNs(), fit.durationNs() / 1.5, 1.0);
    const double before = plot->view().startNs;
    QTest::keyClick(plot, Qt::Key_D);
    EXPECT_GT(plot->view().startNs, before);
    QTest::keyClick(plot, Qt::Key_A);
    EXPECT_NEAR(plot->view().startNs, before, 1.0);
    QTest::keyClick(plot, Qt::Key_S);
    QTest::keyClick(plot, Qt::Key_Home);
    EXPECT_NEAR(plot->view().startNs, fit.startNs, 1.0);
    EXPECT_NEAR(plot->view().endNs, fit.endNs, 1.0);
}

// The overview strip under the chart: the whole trace's worker states, the chart's window
// framed and kept in step with the chart, a drag of the frame or a click beside it moves the chart.
TEST(MainWindow, OverviewStripFollowsTheChartAndDraggingItMovesTheChart) {
    TempDir dir;
    MainWindow window;
    ASSERT_TRUE(showAndOpen(window, writeSynthetic(dir, "o.sstrace")));
    GanttPlot* plot = window.plot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    OverviewStrip* strip = window.overview();
    ASSERT_NE(strip, nullptr);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    EXPECT_TRUE(strip->isVisible());
    EXPECT_GE(strip->height(), 30);
    EXPECT_GT(strip->width(), plot->width() * 9 / 10);
    EXPECT_GT(strip->geometry().top(), plot->geometry().top()) << "the strip sits under the chart";

    // Its picture: worker time executing (green) in the batches, sleeping (red) in the barriers.
    const QImage& picture = strip->picture();
    ASSERT_FALSE(picture.isNull());
    int greenColumns = 0;
    int redColumns = 0;
    for (int x = 0; x < picture.width(); ++x) {
        bool green = false;
        bool red = false;
        for (int y = 0; y < picture.height(); ++y) {
            const Rgb pixel = toRgb(picture.pixelColor(x, y));
            green = green || isGreenish(pixel);
            red = red || isReddish(pixel);
        }
        greenColumns += green ? 1 : 0;
        redColumns += red ? 1 : 0;
    }
    EXPECT_GT(greenColumns, picture.width() / 4);
    EXPECT_GT(redColumns, picture.width() / 10);

    // Fit-all frames the whole strip; zooming the chart narrows the frame to the chart's window.
    const QRect whole = strip->windowRect();
    QTest::keyClick(plot, Qt::Key_W);
    QTest::keyClick(plot, Qt::Key_W);
    QTest::keyClick(plot, Qt::Key_W);
    const TimeView zoomed = plot->view();
    EXPECT_NEAR(strip->window().first, zoomed.startNs, 1.0);
    EXPECT_NEAR(strip->window().second, zoomed.endNs, 1.0);
    const QRect frame = strip->windowRect();
    EXPECT_LT(frame.width(), whole.width() / 2);

    // Dragging the frame by 100 px moves the chart by the time those pixels stand for.
    const TimeView mapping = strip->mapping();
    const QPoint from = frame.center();
    const QPoint to = from + QPoint(100, 0);
    QTest::mousePress(strip, Qt::LeftButton, Qt::NoModifier, from);
    QTest::mouseMove(strip, from + QPoint(50, 0));
    QTest::mouseMove(strip, to);
    QTest::mouseRelease(strip, Qt::LeftButton, Qt::NoModifier, to);
    const double shift = mapping.toTime(to.x()) - mapping.toTime(from.x());
    EXPECT_NEAR(plot->view().startNs, zoomed.startNs + shift, mapping.nsPerPixel());
    EXPECT_NEAR(plot->view().durationNs(), zoomed.durationNs(), 1.0);
    EXPECT_NEAR(strip->window().first, plot->view().startNs, 1.0);

    // A click beside the frame centres the chart's window there.
    const int left = strip->windowRect().left() - 200;
    ASSERT_GT(left, mapping.leftPx);
    QTest::mouseClick(strip, Qt::LeftButton, Qt::NoModifier, QPoint(left, frame.center().y()));
    const TimeView moved = plot->view();
    EXPECT_NEAR((moved.startNs + moved.endNs) / 2.0, mapping.toTime(left), mapping.nsPerPixel());
    EXPECT_NEAR(moved.durationNs(), zoomed.durationNs(), 1.0);
}

TEST(TraceLoader, CancelStopsALoadAndReportsIt) {
    TempDir dir;
    SyntheticOptions big;
    big.tasksPerWorker = 20'000;
    big.batchesPerEpoch = 8;
    const QString path = writeSynthetic(dir, "big.sstrace", big);
    TraceLoader loader;
    QSignalSpy cancelled(&loader, &TraceLoader::cancelled);
    QSignalSpy loaded(&loader, &TraceLoader::loaded);
    loader.load(QStringList{path}, 100'000);
    EXPECT_TRUE(loader.isLoading());
    loader.cancel();
    ASSERT_TRUE(cancelled.wait(kTimeoutMs));
    EXPECT_EQ(cancelled.front().front().toString(), path);
    EXPECT_TRUE(loaded.isEmpty());
    EXPECT_FALSE(loader.isLoading());

    // A newer load supersedes an older one: only the newer one reports.
    const QString small = writeSynthetic(dir, "small.sstrace");
    loader.load(QStringList{path}, 100'000);
    loader.load(QStringList{small}, 100'000);
    ASSERT_TRUE(loaded.wait(kTimeoutMs));
    QTest::qWait(50);
    ASSERT_EQ(loaded.size(), 1);
    const auto document = loaded.front().front().value<std::shared_ptr<const TraceDocument>>();
    ASSERT_NE(document, nullptr);
    EXPECT_EQ(document->source, small.toStdString());
}

TEST(MainWindow, EmptyAndTruncatedFilesAreReportedAndTheAppKeepsWorking) {
    TempDir dir;
    MainWindow window;
    window.show();
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);

    const auto empty = dir / "empty.trace";
    std::ofstream(empty, std::ios::binary).close();
    window.openPath(QString::fromStdString(empty.string()));
    ASSERT_TRUE(failed.wait(kTimeoutMs));
    EXPECT_TRUE(failed.back().front().toString().contains(QStringLiteral("empty.trace")));
    dismissLoadError(window);

    // The golden FxT trace cut in the middle of its events: an error naming the file, or a
    // partial trace; either way the window stays usable.
    const auto golden = starscope::testing::readFile(starscope::testing::testDataDir()
                                                     / "tracer/small/prof_file__0");
    const auto truncated = dir / "prof_file_truncated";
    std::ofstream(truncated, std::ios::binary).write(golden.data(),
                                                     static_cast<std::streamsize>(golden.size() / 2));
    const auto failuresBefore = failed.size();
    const auto loadsBefore = loaded.size();
    window.openPath(QString::fromStdString(truncated.string()));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return failed.size() > failuresBefore || loaded.size() > loadsBefore; }, kTimeoutMs));
    if (failed.size() > failuresBefore) {
        EXPECT_TRUE(failed.back().front().toString().contains(QStringLiteral("prof_file_truncated")));
        dismissLoadError(window);
    }

    const QString good = writeSynthetic(dir, "good.sstrace");
    window.openPath(good);
    ASSERT_TRUE(loaded.wait(kTimeoutMs));
    EXPECT_EQ(window.plot()->document()->trace.tasks.size(), 128u);
}

// A FIFO, a device or a socket given as a trace: refused with the path and its kind, before
// the loader opens it (an open() of a FIFO nobody writes never returns).
TEST(MainWindow, NonRegularFilesAreRefusedWithoutBlocking) {
    TempDir dir;
    const auto fifo = dir / "pipe.trace";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto socketPath = dir / "sock.trace";
    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(sock, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, socketPath.c_str(), sizeof address.sun_path - 1);
    ASSERT_EQ(::bind(sock, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
    MainWindow window;
    window.show();
    // Should a regression block the loader in open(), a writer end releases it so that the
    // test fails instead of hanging in the window's destructor.
    struct ReleaseFifo {
        std::string path;
        int sock;
        ~ReleaseFifo() {
            const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0) {
                ::close(fd);
            }
            ::close(sock);
        }
    } release{fifo.string(), sock};
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {fifo.string(), "a FIFO"}, {"/dev/zero", "a character device"}, {socketPath.string(), "a socket"}};
    for (const auto& [path, kind] : cases) {
        const auto before = failed.size();
        window.openPath(QString::fromStdString(path));
        ASSERT_TRUE(QTest::qWaitFor([&] { return failed.size() > before; }, 10'000)) << path << ": no answer";
        const QString message = failed.back().front().toString();
        EXPECT_TRUE(message.contains(QString::fromStdString(path + ": is " + kind + ", not a regular file")))
            << message.toStdString();
        dismissLoadError(window);
    }
    EXPECT_TRUE(loaded.isEmpty());
}

// A trace of 64 GiB (a native header announcing it, then a hole): the load runs off the UI
// thread, shows progress, stops on Cancel, and the window opens the next file as usual. A
// Paje trace followed by 64 GiB of binary is refused with the reader's message.
TEST(MainWindow, EnormousFilesCanBeCancelledOrAreRefused) {
    TempDir dir;
    constexpr std::uintmax_t kEnormous = std::uintmax_t{64} << 30;
    const QString good = writeSynthetic(dir, "good.sstrace");
    std::string head = starscope::testing::readFile(good.toStdString());
    const std::uint64_t payload = kEnormous - 24 - 8;   // all but the header and the checksum
    std::memcpy(head.data() + 16, &payload, sizeof payload);
    const auto enormous = dir / "enormous.sstrace";
    ASSERT_TRUE(starscope::testing::writeSparseFile(enormous, head, kEnormous));

    MainWindow window;
    window.show();
    QSignalSpy cancelled(&window, &MainWindow::loadCancelled);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    window.openPath(QString::fromStdString(enormous.string()));
    auto* cancel = window.findChild<QPushButton*>(QStringLiteral("cancelLoadButton"));
    ASSERT_NE(cancel, nullptr);
    QTest::qWait(300);
    ASSERT_TRUE(window.loader()->isLoading()) << "a 64 GiB file cannot have been read already";
    EXPECT_TRUE(cancel->isVisible());
    QTest::mouseClick(cancel, Qt::LeftButton);
    ASSERT_TRUE(cancelled.wait(kTimeoutMs));
    EXPECT_EQ(cancelled.front().front().toString().toStdString(), enormous.string());
    EXPECT_TRUE(failed.isEmpty());
    EXPECT_FALSE(cancel->isVisible());

    const auto binaryTail = dir / "enormous.trace";
    ASSERT_TRUE(starscope::testing::writeSparseFile(
        binaryTail, starscope::testing::readFile(starscope::testing::testDataDir() / "tracer/small/paje.trace"),
        kEnormous));
    window.openPath(QString::fromStdString(binaryTail.string()));
    ASSERT_TRUE(failed.wait(kTimeoutMs));
    EXPECT_TRUE(failed.back().front().toString().contains(QStringLiteral("enormous.trace")))
        << failed.back().front().toString().toStdString();
    dismissLoadError(window);

    window.openPath(good);
    ASSERT_TRUE(loaded.wait(kTimeoutMs));
    EXPECT_EQ(window.plot()->document()->trace.tasks.size(), 128u);
}

// The barrier list under the keyboard: moving the current row with the arrow keys zooms the
// chart onto that barrier, as a click does.
TEST(MainWindow, ArrowKeysInTheBarrierListFollowOnTheChart) {
    TempDir dir;
    MainWindow window;
    ASSERT_TRUE(showAndOpen(window, writeSynthetic(dir, "keys.sstrace")));
    ASSERT_EQ(window.barrierModel()->rowCount(), 3);
    QTableView* list = window.barrierView();
    ASSERT_NE(list, nullptr);
    const auto& barriers = *window.barrierModel()->barriers();
    const auto shows = [&](std::size_t b) {
        const TimeView view = window.plot()->view();
        return view.startNs <= static_cast<double>(barriers[b].start) && view.endNs >= static_cast<double>(barriers[b].end)
               && view.durationNs() < 3.0 * static_cast<double>(barriers[b].duration());
    };
    const QRect first = list->visualRect(list->model()->index(0, 0));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, Qt::NoModifier, first.center());
    EXPECT_TRUE(shows(0));
    list->setFocus();
    QTest::keyClick(list, Qt::Key_Down);
    EXPECT_TRUE(shows(1)) << "Down moves the chart to the second barrier";
    QTest::keyClick(list, Qt::Key_Down);
    EXPECT_TRUE(shows(2));
    QTest::keyClick(list, Qt::Key_Up);
    EXPECT_TRUE(shows(1));
}

// The search field: Enter selects the next task of a codelet and brings it into view,
// Shift+Enter the previous one, a job id finds that job, and a query matching nothing says so.
TEST(MainWindow, SearchFindsTasksByCodeletOrJobIdWithNextAndPrevious) {
    TempDir dir;
    MainWindow window;
    ASSERT_TRUE(showAndOpen(window, writeSynthetic(dir, "search.sstrace")));
    GanttPlot* plot = window.plot();
    const auto& trace = plot->document()->trace;
    SearchBar* search = window.searchBar();
    ASSERT_NE(search, nullptr);
    // Zoomed in on the start: the matches found later lie outside the view until revealed.
    plot->setView(0.0, 100'000.0);
    search->field()->setFocus();
    QTest::keyClicks(search->field(), QStringLiteral("dense_bwd"));
    QTest::keyClick(search->field(), Qt::Key_Return);
    const auto first = plot->selectedTask();
    ASSERT_TRUE(first);
    EXPECT_EQ(trace.codeletOf(trace.tasks[*first]), "dense_bwd");
    EXPECT_TRUE(search->status().startsWith(QStringLiteral("match 1 of 32"))) << search->status().toStdString();
    QTest::keyClick(search->field(), Qt::Key_Return);
    const auto second = plot->selectedTask();
    ASSERT_TRUE(second);
    EXPECT_NE(*second, *first);
    EXPECT_GE(trace.tasks[*second].start, trace.tasks[*first].start);
    EXPECT_TRUE(search->status().startsWith(QStringLiteral("match 2 of 32"))) << search->status().toStdString();
    const TimeView view = plot->view();
    EXPECT_LE(view.startNs, static_cast<double>(trace.tasks[*second].start)) << "the match is brought into view";
    EXPECT_GE(view.endNs, static_cast<double>(trace.tasks[*second].end));
    QTest::keyClick(search->field(), Qt::Key_Return, Qt::ShiftModifier);
    EXPECT_EQ(plot->selectedTask(), first);

    // A job id.
    search->field()->clear();
    QTest::keyClicks(search->field(), QStringLiteral("77"));
    QTest::keyClick(search->field(), Qt::Key_Return);
    ASSERT_TRUE(plot->selectedTask());
    EXPECT_EQ(trace.tasks[*plot->selectedTask()].jobId, 77u);

    // Nothing: said plainly, the selection kept.
    search->field()->clear();
    QTest::keyClicks(search->field(), QStringLiteral("pooling"));
    QTest::keyClick(search->field(), Qt::Key_Return);
    EXPECT_TRUE(search->status().startsWith(QStringLiteral("no match"))) << search->status().toStdString();
    EXPECT_EQ(trace.tasks[*plot->selectedTask()].jobId, 77u);
}
