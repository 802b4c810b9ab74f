#pragma once
// Small bridges between the Qt-free core and Qt types.

#include "viewer/core/drawing/palette.hpp"

#include <QColor>
#include <QString>

#include <QStringList>

#include <string>
#include <vector>

namespace starscope::viewer {

inline QColor toQColor(Rgb c, int alpha = 255) { return QColor(c.r, c.g, c.b, alpha); }
inline Rgb toRgb(const QColor& c) {
    return {static_cast<std::uint8_t>(c.red()), static_cast<std::uint8_t>(c.green()),
            static_cast<std::uint8_t>(c.blue())};
}
inline QString toQString(const std::string& text) { return QString::fromStdString(text); }
// A tooltip of lines the core described (describeTransferArrow, ...): escaped, the first in bold.
inline QString tooltipHtml(const std::vector<std::string>& lines) {
    QStringList html;
    for (const auto& line : lines) {
        html << toQString(line).toHtmlEscaped();
    }
    if (!html.isEmpty()) {
        html[0] = QStringLiteral("<b>%1</b>").arg(html[0]);
    }
    return html.join(QStringLiteral("<br>"));
}

} // namespace starscope::viewer
