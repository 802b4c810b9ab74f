#include "viewer/gui/export/offscreen_messages.hpp"

#include <QString>

#include <atomic>

namespace starscope::viewer {

namespace {

// Where the filter passes the other messages on; one filter at a time (a headless render).
std::atomic<QtMessageHandler> g_next{nullptr};

void dropSizeHintsWarning(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (type == QtWarningMsg && message == QLatin1String("This plugin does not support propagateSizeHints()")) {
        return;
    }
    if (QtMessageHandler next = g_next.load()) {
        next(type, context, message);
    }
}

} // namespace

OffscreenSizeHintsWarningFilter::OffscreenSizeHintsWarningFilter()
    : m_previous(qInstallMessageHandler(dropSizeHintsWarning)) {
    g_next.store(m_previous);
}

OffscreenSizeHintsWarningFilter::~OffscreenSizeHintsWarningFilter() {
    qInstallMessageHandler(m_previous);
}

} // namespace starscope::viewer
