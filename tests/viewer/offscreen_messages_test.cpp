// The filter that keeps headless renders quiet drops exactly Qt's propagateSizeHints() warning
// of the offscreen platform while it exists, passes every other message on to the handler
// installed before it, and puts that handler back when it goes.

#include "viewer/gui/export/offscreen_messages.hpp"

#include <gtest/gtest.h>

#include <QString>
#include <QStringList>

namespace {

using starscope::viewer::OffscreenSizeHintsWarningFilter;

QStringList g_seen;

void remember(QtMsgType, const QMessageLogContext&, const QString& message) {
    g_seen.push_back(message);
}

class OffscreenMessages : public ::testing::Test {
protected:
    void SetUp() override {
        g_seen.clear();
        m_previous = qInstallMessageHandler(remember);
    }
    void TearDown() override { qInstallMessageHandler(m_previous); }

private:
    QtMessageHandler m_previous = nullptr;
};

TEST_F(OffscreenMessages, DropsOnlyTheSizeHintsWarningWhileItLives) {
    {
        const OffscreenSizeHintsWarningFilter filter;
        qWarning("This plugin does not support propagateSizeHints()");
        qWarning("This plugin does not support propagateSizeHints() at all");
        qWarning("another warning");
        qInfo("This plugin does not support propagateSizeHints()");
    }
    qWarning("This plugin does not support propagateSizeHints()");
    EXPECT_EQ(g_seen, (QStringList{QStringLiteral("This plugin does not support propagateSizeHints() at all"),
                                   QStringLiteral("another warning"),
                                   QStringLiteral("This plugin does not support propagateSizeHints()"),
                                   QStringLiteral("This plugin does not support propagateSizeHints()")}));
}

} // namespace
