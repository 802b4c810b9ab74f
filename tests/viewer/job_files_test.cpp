// Several prof files opened as one job: from the window (File > Open's multi-selection ends in
// openPaths) and dropped together, they are read as one trace with a rank per file, and the job
// is one recent entry that opens all of them again.

#include "tests/support/test_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "tests/viewer/window_support.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/window/main_window.hpp"

#include <gtest/gtest.h>

#include <QDropEvent>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QUrl>

using namespace starscope::viewer;
using starscope::viewer::testing::kTimeoutMs;

namespace {

// Two prof files of separate one-process runs: the reader numbers them as ranks 0 and 1 (with
// a warning that they name no rank), which is all a job of two files needs to show.
QStringList twoProfFiles() {
    const auto data = starscope::testing::testDataDir();
    return {QString::fromStdString((data / "tracer" / "small" / "prof_file__0").string()),
            QString::fromStdString((data / "viewer" / "single_naive" / "prof_file__0").string())};
}

::testing::AssertionResult waitForLoad(MainWindow& window) {
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    if (!loaded.wait(kTimeoutMs)) {
        return ::testing::AssertionFailure() << "no document loaded; error: " << window.lastError().toStdString();
    }
    return ::testing::AssertionSuccess();
}

} // namespace

TEST(JobFiles, TwoProfFilesOpenAsOneTraceWithARankEach) {
    QSettings().remove(QStringLiteral("recentFiles"));
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    window.openPaths(twoProfFiles());
    ASSERT_TRUE(waitForLoad(window));
    const auto& document = *window.plot()->document();
    EXPECT_EQ(document.trace.ranks.size(), 2u);
    EXPECT_EQ(QString::fromStdString(document.source), twoProfFiles().join(QStringLiteral(" + ")));
    EXPECT_EQ(window.plot()->rows().front().kind, RowKind::RankHeader);

    // The job is one recent entry, which opens both files again.
    ASSERT_FALSE(window.recentFiles().isEmpty());
    EXPECT_EQ(window.recentFiles().front().split(QStringLiteral(" + ")).size(), 2);
    window.openPath(twoProfFiles().front());
    ASSERT_TRUE(waitForLoad(window));
    EXPECT_TRUE(window.plot()->document()->trace.ranks.empty());
}

// QApplication delivers a drop only during a drag it runs itself: the test hands the event to
// the window's handler directly.
class DropTarget : public MainWindow {
public:
    using MainWindow::dropEvent;
};

TEST(JobFiles, FilesDroppedTogetherOpenAsOneJob) {
    DropTarget window;
    window.resize(1200, 800);
    window.show();
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString& path : twoProfFiles()) {
        urls.push_back(QUrl::fromLocalFile(path));
    }
    mime.setUrls(urls);
    QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    window.dropEvent(&drop);
    ASSERT_TRUE(loaded.wait(kTimeoutMs)) << window.lastError().toStdString();
    EXPECT_EQ(window.plot()->document()->trace.ranks.size(), 2u);
}
