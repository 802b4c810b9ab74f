#include "viewer/gui/window/chart_keys.hpp"

#include "viewer/gui/chart/gantt_plot.hpp"

#include <QCoreApplication>
#include <QKeyEvent>

namespace starscope::viewer {

namespace {

bool isNavigationKey(const QKeyEvent& key) {
    if ((key.modifiers() & ~Qt::KeypadModifier) != Qt::NoModifier) {
        return false;
    }
    switch (key.key()) {
    case Qt::Key_W:
    case Qt::Key_A:
    case Qt::Key_S:
    case Qt::Key_D: return true;
    default: return false;
    }
}

} // namespace

std::vector<ShortcutEntry> chartShortcuts() {
    return {
        {QStringLiteral("W"), QStringLiteral("zoom in (around the cursor when it is over the chart)")},
        {QStringLiteral("S"), QStringLiteral("zoom out")},
        {QStringLiteral("A"), QStringLiteral("pan left")},
        {QStringLiteral("D"), QStringLiteral("pan right")},
        {QStringLiteral("Home"), QStringLiteral("fit the whole trace")},
        {QStringLiteral("Esc"), QStringLiteral("clear the selected range and task")},
        {QStringLiteral("Wheel"), QStringLiteral("zoom around the cursor")},
        {QStringLiteral("Drag"), QStringLiteral("pan")},
        {QStringLiteral("Right-drag, Ctrl+drag"), QStringLiteral("zoom to a range (its length shown while dragging)")},
        {QStringLiteral("Shift+drag"), QStringLiteral("select a range: per-worker state shares (its length shown)")},
        {QStringLiteral("Click"), QStringLiteral("select a task: its details and dependency arrows")},
        {QStringLiteral("Click on an arrow"), QStringLiteral("select the task at its other end")},
        {QStringLiteral("Click on a group's header row"), QStringLiteral("fold or unfold the group (a rank, CPU workers, memory nodes...)")},
        {QStringLiteral("F"), QStringLiteral("fold or unfold the group of the row under the cursor (or of the selected task)")},
        {QStringLiteral("Alt+Up, Alt+Down"), QStringLiteral("move the row under the cursor (a lane, a group) up or down")},
        {QStringLiteral("Right-click on a row or its label"), QStringLiteral("move it, fold its group, reset the lane order")},
        {QStringLiteral("Shift+wheel, Page Up/Down"), QStringLiteral("scroll the rows (when more than fit)")},
        {QStringLiteral("Ctrl+wheel"), QStringLiteral("zoom the rows: fewer and taller, or more and thinner")},
    };
}

ChartKeyForwarder::ChartKeyForwarder(GanttPlot* plot, QObject* parent) : QObject(parent), m_plot(plot) {}

bool ChartKeyForwarder::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::KeyPress && isNavigationKey(*static_cast<QKeyEvent*>(event))) {
        QCoreApplication::sendEvent(m_plot, event);
        return true;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace starscope::viewer
