#pragma once
// Headless pictures are drawn on Qt's offscreen platform, whose windows do not implement
// propagateSizeHints(): Qt's QPlatformWindow then warns "This plugin does not support
// propagateSizeHints()" each time a window with a size constraint is created or laid out, which
// the comparison view shown off screen for its picture is (its layout sets its minimum size).
// Nothing is wrong with the picture, so while one is drawn that one message is dropped; every
// other message goes on to the handler that was installed before.

#include <QtGlobal>

namespace starscope::viewer {

class OffscreenSizeHintsWarningFilter {
public:
    OffscreenSizeHintsWarningFilter();
    ~OffscreenSizeHintsWarningFilter();
    OffscreenSizeHintsWarningFilter(const OffscreenSizeHintsWarningFilter&) = delete;
    OffscreenSizeHintsWarningFilter& operator=(const OffscreenSizeHintsWarningFilter&) = delete;

private:
    QtMessageHandler m_previous;
};

} // namespace starscope::viewer
