#pragma once
// Small bridges between the Qt-free core and Qt types.

#include "viewer/core/palette.hpp"

#include <QColor>
#include <QString>

#include <string>

namespace starscope::viewer {

inline QColor toQColor(Rgb c, int alpha = 255) { return QColor(c.r, c.g, c.b, alpha); }
inline Rgb toRgb(const QColor& c) {
    return {static_cast<std::uint8_t>(c.red()), static_cast<std::uint8_t>(c.green()),
            static_cast<std::uint8_t>(c.blue())};
}
inline QString toQString(const std::string& text) { return QString::fromStdString(text); }

} // namespace starscope::viewer
