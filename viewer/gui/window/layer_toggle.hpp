#pragma once
// The checkable action that shows or hides a layer a trace may not have (messages between ranks,
// data transfers, the critical path): in the main window's View menu and on the comparison
// window's toolbar alike, off-limits until a trace that has the layer is shown.

#include <QAction>
#include <QKeySequence>
#include <QString>

namespace starscope::viewer {

inline QAction* setUpLayerToggle(QAction* action, const QString& objectName, bool checked, Qt::Key key) {
    action->setObjectName(objectName);
    action->setCheckable(true);
    action->setChecked(checked);
    action->setShortcut(QKeySequence(key));
    action->setEnabled(false);
    return action;
}

} // namespace starscope::viewer
