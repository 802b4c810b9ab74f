// The window around the chart under keyboard and menus: the search status is never cut, every
// panel comes back from View > Panels, the chart's keys work whichever panel was clicked last,
// and `?` lists every shortcut.
#include "tests/support/synthetic_trace.hpp"
#include "tests/support/test_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "tests/viewer/window_support.hpp"
#include "tracer/native/native_format.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/panels/barrier_list_model.hpp"
#include "viewer/gui/panels/search_bar.hpp"
#include "viewer/gui/window/main_window.hpp"
#include "viewer/gui/window/shortcut_help.hpp"

#include <gtest/gtest.h>

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace starscope::viewer;
using starscope::testing::TempDir;
using starscope::viewer::testing::showAndOpen;
using starscope::viewer::testing::writeSynthetic;

namespace {

QMenu* menuNamed(MainWindow& window, const QString& title) {
    for (QAction* action : window.menuBar()->actions()) {
        if (action->menu() != nullptr && action->text().remove(QLatin1Char('&')) == title) {
            return action->menu();
        }
    }
    return nullptr;
}

} // namespace

// "match 1 of 2,074" was shown as "match 1 of 2": the label kept the width of its first text.
TEST(WindowKeyboard, SearchStatusIsNeverCut) {
    TempDir dir;
    SyntheticOptions options;
    options.batchesPerEpoch = 12;
    options.tasksPerWorker = 60;   // 4 workers * 60 * 12 = 2,880 tasks, 720 per codelet
    MainWindow window;
    ASSERT_TRUE(showAndOpen(window, writeSynthetic(dir, "many.sstrace", options)));
    SearchBar* search = window.searchBar();
    search->field()->setFocus();
    QTest::keyClicks(search->field(), QStringLiteral("_"));
    QTest::keyClick(search->field(), Qt::Key_Return);
    ASSERT_TRUE(search->status().startsWith(QStringLiteral("match 1 of 2,880"))) << search->status().toStdString();
    QApplication::processEvents();
    auto* label = search->findChild<QLabel*>(QStringLiteral("searchStatus"));
    ASSERT_NE(label, nullptr);
    const int needed = label->fontMetrics().horizontalAdvance(QStringLiteral("match 1 of 2,880"));
    EXPECT_GE(label->width(), needed) << "the count is cut";
    // Within the window: the search bar is not pushed past its right edge.
    const QRect shown(label->mapTo(&window, QPoint(0, 0)), label->size());
    EXPECT_LE(shown.left() + needed, window.width());
}

// A closed panel comes back from View > Panels, not only from another panel's context menu.
TEST(WindowKeyboard, ViewMenuListsEveryPanelAndBringsAClosedOneBack) {
    TempDir dir;
    MainWindow window;
    ASSERT_TRUE(showAndOpen(window, writeSynthetic(dir, "docks.sstrace")));
    QMenu* view = menuNamed(window, QStringLiteral("View"));
    ASSERT_NE(view, nullptr);
    QMenu* panels = nullptr;
    for (QAction* action : view->actions()) {
        if (action->menu() != nullptr && action->text().remove(QLatin1Char('&')) == QStringLiteral("Panels")) {
            panels = action->menu();
        }
    }
    ASSERT_NE(panels, nullptr);
    emit panels->aboutToShow();
    const auto docks = window.findChildren<QDockWidget*>();
    ASSERT_GE(docks.size(), 4);
    const QList<QAction*> listed = panels->actions();
    for (QDockWidget* dock : docks) {
        EXPECT_TRUE(std::any_of(listed.begin(), listed.end(), [&](QAction* a) { return a->text() == dock->windowTitle(); }))
            << dock->windowTitle().toStdString();
    }
    auto* barriers = window.findChild<QDockWidget*>(QStringLiteral("barrierDock"));
    ASSERT_NE(barriers, nullptr);
    barriers->close();
    QApplication::processEvents();
    ASSERT_FALSE(barriers->isVisible());
    emit panels->aboutToShow();
    for (QAction* action : panels->actions()) {
        if (action->text() == barriers->windowTitle()) {
            EXPECT_FALSE(action->isChecked());
            action->trigger();
        }
    }
    QApplication::processEvents();
    EXPECT_TRUE(barriers->isVisible());
}

// After a click in the barrier list (or another panel), W/A/S/D still zoom and pan the chart;
// the list keeps its arrow keys.
TEST(WindowKeyboard, ChartKeysWorkAfterAClickInAPanel) {
    TempDir dir;
    MainWindow window;
    ASSERT_TRUE(showAndOpen(window, writeSynthetic(dir, "wasd.sstrace")));
    QTableView* list = window.barrierView();
    ASSERT_GT(window.barrierModel()->rowCount(), 1);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, Qt::NoModifier,
                      list->visualRect(list->model()->index(0, 0)).center());
    QApplication::processEvents();
    QWidget* focused = QApplication::focusWidget();
    ASSERT_NE(focused, nullptr);
    const TimeView before = window.plot()->view();
    QTest::keyClick(focused, Qt::Key_W);
    const TimeView zoomed = window.plot()->view();
    EXPECT_LT(zoomed.durationNs(), before.durationNs() * 0.9) << "W zooms in";
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_D);
    EXPECT_GT(window.plot()->view().startNs, zoomed.startNs) << "D pans right";
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_A);
    EXPECT_NEAR(window.plot()->view().startNs, zoomed.startNs, zoomed.durationNs() * 0.01) << "A pans back";
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_S);
    EXPECT_NEAR(window.plot()->view().durationNs(), before.durationNs(), before.durationNs() * 0.01) << "S zooms out";
    // The list's own keys are its own.
    list->setFocus();
    const int row = list->currentIndex().row();
    QTest::keyClick(list, Qt::Key_Down);
    EXPECT_EQ(list->currentIndex().row(), row + 1);
}

// `?` opens the keyboard help, which lists every shortcut of the chart and the window's menus
// (folding a lane group with F, moving a row with Alt+Up/Down among them).
TEST(WindowKeyboard, QuestionMarkListsEveryShortcut) {
    TempDir dir;
    MainWindow window;
    ASSERT_TRUE(showAndOpen(window, writeSynthetic(dir, "help.sstrace")));
    window.plot()->setFocus();
    QTest::keyClick(window.plot(), Qt::Key_Question, Qt::ShiftModifier);
    QApplication::processEvents();
    auto* help = window.findChild<ShortcutHelp*>();
    ASSERT_NE(help, nullptr);
    EXPECT_TRUE(help->isVisible());
    auto* table = help->findChild<QTableWidget*>();
    ASSERT_NE(table, nullptr);
    QStringList keys;
    for (int r = 0; r < table->rowCount(); ++r) {
        keys << table->item(r, 0)->text();
    }
    for (const QString& key : {QStringLiteral("W"), QStringLiteral("S"), QStringLiteral("A"), QStringLiteral("D"),
                               QStringLiteral("Home"), QStringLiteral("Esc"), QStringLiteral("M"), QStringLiteral("?"),
                               QStringLiteral("F"), QStringLiteral("Alt+Up, Alt+Down")}) {
        EXPECT_TRUE(keys.contains(key)) << key.toStdString();
    }
    // Every menu action with a shortcut is listed under its shortcut.
    for (QAction* menu : window.menuBar()->actions()) {
        if (menu->menu() == nullptr) {
            continue;
        }
        for (QAction* action : menu->menu()->actions()) {
            if (!action->shortcut().isEmpty()) {
                EXPECT_TRUE(keys.contains(action->shortcut().toString(QKeySequence::NativeText)))
                    << action->text().toStdString() << " " << action->shortcut().toString().toStdString();
            }
        }
    }
}
