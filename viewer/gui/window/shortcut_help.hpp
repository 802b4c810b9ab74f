#pragma once
// The keyboard help (`?`, Help > Keyboard shortcuts): the chart's keys and gestures
// (chart_keys.hpp) and every menu command that has a shortcut, read from the menus themselves
// so the list cannot fall behind them.

#include <QDialog>

class QMenuBar;

namespace starscope::viewer {

class ShortcutHelp : public QDialog {
    Q_OBJECT
public:
    ShortcutHelp(const QMenuBar* menus, QWidget* parent);
};

} // namespace starscope::viewer
