#pragma once
// Opening a trace in a shown main window, as the window tests start.

#include "viewer/gui/window/main_window.hpp"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QSize>
#include <QString>

namespace starscope::viewer::testing {

// How long a test waits for a window's signal (a load, a recomputation).
inline constexpr int kTimeoutMs = 60'000;

// Shows the window at `size`, opens `path` and waits until its document is loaded.
inline ::testing::AssertionResult showAndOpen(MainWindow& window, const QString& path,
                                              QSize size = QSize(1400, 900)) {
    window.resize(size);
    window.show();
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    window.openPath(path);
    if (!loaded.wait(kTimeoutMs)) {
        return ::testing::AssertionFailure() << path.toStdString() << " was not loaded within " << kTimeoutMs << " ms";
    }
    return ::testing::AssertionSuccess();
}

} // namespace starscope::viewer::testing
