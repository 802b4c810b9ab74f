#pragma once
// One QApplication for a whole test executable (tests run with QT_QPA_PLATFORM=offscreen),
// created before the first test and destroyed after the last, and QSettings kept in a
// scratch folder so tests never touch the user's recent files.

#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>

#include <memory>

namespace starscope::viewer::testing {

class QtEnvironment : public ::testing::Environment {
public:
    void SetUp() override {
        static int argc = 1;
        static char name[] = "starscope_viewer_test";
        static char* argv[] = {name, nullptr};
        m_app = std::make_unique<QApplication>(argc, argv);
        QApplication::setOrganizationName(QStringLiteral("starscope-tests"));
        QApplication::setApplicationName(QStringLiteral("starscope-viewer-tests"));
        m_settings = std::make_unique<QTemporaryDir>();
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings->path());
    }
    void TearDown() override {
        m_settings.reset();
        m_app.reset();
    }

private:
    std::unique_ptr<QApplication> m_app;
    std::unique_ptr<QTemporaryDir> m_settings;
};

// Registers the environment during static initialisation of the including test file.
inline const bool kQtEnvironmentRegistered = [] {
    ::testing::AddGlobalTestEnvironment(new QtEnvironment);
    return true;
}();

} // namespace starscope::viewer::testing
