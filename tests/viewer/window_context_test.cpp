// What the window says about the loaded trace besides the chart: every reader warning of a
// damaged trace in full (not only "(2 reader warnings)" in the status bar), and no "Selected
// range" left over from the previous trace.
#include "tests/support/synthetic_trace.hpp"
#include "tests/support/test_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "tracer/native/native_format.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/panels/range_stats_model.hpp"
#include "viewer/gui/window/main_window.hpp"

#include <gtest/gtest.h>

#include <QDockWidget>
#include <QFileInfo>
#include <QListWidget>
#include <QPushButton>
#include <QMap>
#include <QSignalSpy>

#include <fstream>

using namespace starscope::viewer;
using starscope::testing::TempDir;
namespace fs = std::filesystem;

namespace {

constexpr int kTimeoutMs = 60'000;

QString writeSynthetic(const TempDir& dir, const std::string& name) {
    const auto path = dir / name;
    const auto written = starscope::tracer::writeNativeFile(makeSyntheticTrace({}), path);
    EXPECT_TRUE(written) << written.error().describe();
    return QString::fromStdString(path.string());
}

// A Paje trace damaged twice over, as a cut copy of a job is: states on a container never
// declared, and its last line without a line end. It reads, with both warnings.
std::optional<std::pair<fs::path, std::vector<std::string>>> damagedTrace(const TempDir& dir) {
    std::string text = starscope::testing::readFile(starscope::testing::testDataDir() / "tracer" / "paje" / "nested_links.paje");
    text += "10 6.5 nowhere S r\n10 7.0 nowhere S r\n10 5.5 t1 S r";
    const auto path = dir / "damaged.paje";
    std::ofstream(path, std::ios::binary) << text;
    const auto document = loadDocument(path);
    if (!document || (*document)->trace.warnings.size() < 2) {
        return std::nullopt;
    }
    return std::pair{path, (*document)->trace.warnings};
}

bool load(MainWindow& window, const QString& path) {
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    window.openPath(path);
    return loaded.wait(kTimeoutMs);
}

} // namespace

TEST(WindowContext, ReaderWarningsAreListedInFullInTheirDock) {
    TempDir scratch;
    const auto damaged = damagedTrace(scratch);
    ASSERT_TRUE(damaged) << "the damaged Paje trace does not read with two warnings";
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    ASSERT_TRUE(load(window, QString::fromStdString(damaged->first.string())));
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("warningsDock"));
    ASSERT_NE(dock, nullptr);
    EXPECT_TRUE(dock->isVisibleTo(&window));
    EXPECT_TRUE(dock->windowTitle().contains(QString::number(damaged->second.size()))) << dock->windowTitle().toStdString();
    const QStringList listed = window.readerWarnings();
    ASSERT_EQ(static_cast<std::size_t>(listed.size()), damaged->second.size());
    for (std::size_t i = 0; i < damaged->second.size(); ++i) {
        EXPECT_EQ(listed[static_cast<qsizetype>(i)].toStdString(), damaged->second[i]);
    }

    // A clean trace next: no warnings left, the dock goes away.
    TempDir dir;
    ASSERT_TRUE(load(window, writeSynthetic(dir, "clean.sstrace")));
    EXPECT_TRUE(window.readerWarnings().isEmpty());
    EXPECT_FALSE(dock->isVisibleTo(&window));
}

TEST(WindowContext, ANewTraceResetsTheSelectedRange) {
    TempDir dir;
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    ASSERT_TRUE(load(window, writeSynthetic(dir, "a.sstrace")));
    const QString prompt = window.rangeText();
    window.plot()->setSelection(std::pair{0.0, 400'000.0});
    ASSERT_NE(window.rangeText(), prompt);
    ASSERT_GT(window.statsModel()->rowCount(), 0);
    ASSERT_TRUE(load(window, writeSynthetic(dir, "b.sstrace")));
    EXPECT_EQ(window.rangeText(), prompt);
    EXPECT_EQ(window.statsModel()->rowCount(), 0);
    EXPECT_FALSE(window.plot()->selection());
}

// With no trace the window offers what to do (Open buttons, recent files) instead of an empty
// axis whose ticks collapse into a sliver; the chart replaces it once a trace is loaded.
TEST(WindowContext, EmptyStateOffersOpenAndRecentFilesUntilATraceIsLoaded) {
    TempDir dir;
    const QString earlier = writeSynthetic(dir, "earlier.sstrace");
    {
        MainWindow first;
        first.show();
        ASSERT_TRUE(load(first, earlier));
    }
    MainWindow window;
    window.resize(900, 600);
    window.show();
    EXPECT_TRUE(window.showsEmptyState());
    EXPECT_FALSE(window.plot()->isVisible());
    auto* openTrace = window.findChild<QPushButton*>(QStringLiteral("openTraceButton"));
    ASSERT_NE(openTrace, nullptr);
    EXPECT_TRUE(openTrace->isVisible());
    EXPECT_TRUE(window.findChild<QPushButton*>(QStringLiteral("openFolderButton"))->isVisible());
    auto* recent = window.findChild<QListWidget*>(QStringLiteral("recentList"));
    ASSERT_NE(recent, nullptr);
    ASSERT_TRUE(recent->isVisible());
    ASSERT_GE(recent->count(), 1);
    EXPECT_EQ(recent->item(0)->text(), QFileInfo(earlier).absoluteFilePath());

    // Activating a recent file opens it, and the chart takes the empty state's place.
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    emit recent->itemActivated(recent->item(0));
    ASSERT_TRUE(loaded.wait(kTimeoutMs));
    EXPECT_FALSE(window.showsEmptyState());
    EXPECT_TRUE(window.plot()->isVisible());
    EXPECT_FALSE(openTrace->isVisible());
}

// The Run panel: what the recorded run was, from its run.json, and its counters or why they
// are n/a (this machine had no PMU and no RAPL when it was recorded).
TEST(WindowContext, RunPanelShowsTheRunsRecordAndWhyCountersAreMissing) {
    MainWindow window;
    window.show();
    const fs::path folder = starscope::testing::testDataDir() / "viewer" / "single_naive";
    ASSERT_TRUE(load(window, QString::fromStdString(folder.string())));
    QMap<QString, QString> rows;
    for (const auto& [label, value] : window.runRows()) {
        rows.insert(label, value);
    }
    EXPECT_EQ(rows.value(QStringLiteral("Strategy")), QStringLiteral("single+naive"));
    EXPECT_EQ(rows.value(QStringLiteral("Scheduler")), QStringLiteral("lws"));
    EXPECT_EQ(rows.value(QStringLiteral("Workers")), QStringLiteral("2"));
    EXPECT_EQ(rows.value(QStringLiteral("StarPU")), QStringLiteral("1.3.10"));
    EXPECT_EQ(rows.value(QStringLiteral("Status")), QStringLiteral("completed"));
    EXPECT_EQ(rows.value(QStringLiteral("Tasks")), QStringLiteral("executed 174, submitted 174"));
    EXPECT_TRUE(rows.value(QStringLiteral("Counters")).startsWith(QStringLiteral("n/a (")))
        << rows.value(QStringLiteral("Counters")).toStdString();
    EXPECT_TRUE(rows.value(QStringLiteral("Counters")).contains(QStringLiteral("PMU")));
    EXPECT_TRUE(rows.value(QStringLiteral("Energy")).contains(QStringLiteral("powercap")))
        << rows.value(QStringLiteral("Energy")).toStdString();

    // A trace outside any run folder: the panel says there is no run.json, not stale figures.
    TempDir dir;
    ASSERT_TRUE(load(window, writeSynthetic(dir, "alone.sstrace")));
    const auto alone = window.runRows();
    ASSERT_EQ(alone.size(), 1);
    EXPECT_EQ(alone.front().first, QStringLiteral("run.json"));
    EXPECT_TRUE(alone.front().second.startsWith(QStringLiteral("none in "))) << alone.front().second.toStdString();

    // A damaged run.json: the reader's error, naming the file.
    std::ofstream(dir / "run.json") << "{\"format\": \"starscope-run\", \"version\": 2, \"status\": 7}";
    ASSERT_TRUE(load(window, writeSynthetic(dir, "again.sstrace")));
    const auto damaged = window.runRows();
    ASSERT_EQ(damaged.size(), 1);
    EXPECT_TRUE(damaged.front().second.contains(QString::fromStdString((dir / "run.json").string())))
        << damaged.front().second.toStdString();
}

// The prof files of one job opened together belong to their folder's run: its run.json was looked
// for beside the job's joined name ("a/prof_file__0 + a/prof_file__1"), and the panel said none.
TEST(WindowContext, RunPanelOfAJobsProfFilesShowsTheirFoldersRun) {
    TempDir dir;
    const fs::path ranks = starscope::testing::testDataDir() / "tracer" / "ranks13";
    QStringList files;
    for (const char* name : {"prof_file__0", "prof_file__1"}) {
        fs::copy_file(ranks / name, dir / name);
        files << QString::fromStdString((dir / name).string());
    }
    fs::copy_file(starscope::testing::testDataDir() / "viewer" / "single_naive" / "run.json", dir / "run.json");
    MainWindow window;
    window.show();
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    window.openPaths(files);
    ASSERT_TRUE(loaded.wait(kTimeoutMs));
    QMap<QString, QString> rows;
    for (const auto& [label, value] : window.runRows()) {
        rows.insert(label, value);
    }
    EXPECT_EQ(rows.value(QStringLiteral("Strategy")), QStringLiteral("single+naive")) << rows.keys().join(QLatin1Char(','))
                                                                                     .toStdString();
    EXPECT_FALSE(rows.contains(QStringLiteral("run.json"))) << rows.value(QStringLiteral("run.json")).toStdString();
}
