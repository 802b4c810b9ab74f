#pragma once
// Writing a synthetic trace and opening it in a shown main window, as the window tests start.

#include "tests/support/synthetic_trace.hpp"
#include "tests/support/test_support.hpp"
#include "tracer/native/native_format.hpp"
#include "viewer/gui/window/main_window.hpp"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QSize>
#include <QString>

namespace starscope::viewer::testing {

// How long a test waits for a window's signal (a load, a recomputation).
inline constexpr int kTimeoutMs = 60'000;

// A synthetic trace written as a native file in dir, for a window to open.
inline QString writeSynthetic(const starscope::testing::TempDir& dir, const std::string& name,
                              const SyntheticOptions& options = {}) {
    const auto path = dir / name;
    const auto written = starscope::tracer::writeNativeFile(makeSyntheticTrace(options), path);
    EXPECT_TRUE(written) << written.error().describe();
    return QString::fromStdString(path.string());
}

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
