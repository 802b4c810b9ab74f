#include "viewer/gui/chart/time_ticker.hpp"

#include <cmath>

namespace starscope::viewer {

TimeTicker::TimeTicker() { setTickCount(8); }

void TimeTicker::setTimeScale(const TimeScale& time) {
    m_time = time;
    setTickOrigin(static_cast<double>(time.zeroTick));
}

double TimeTicker::getTickStep(const QCPRange& range) {
    m_plan = planTicks(m_time.timeNs(range.lower), m_time.timeNs(range.upper), tickCount(), m_time.nsPerTick);
    return m_plan.stepNs / m_time.nsPerTick;
}

int TimeTicker::getSubTickCount(double tickStep) {
    const double mantissa = tickStep / std::pow(10.0, std::floor(std::log10(tickStep)));
    return mantissa > 1.5 && mantissa < 2.5 ? 3 : 4;
}

QString TimeTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    return QString::fromStdString(formatTick(m_time.timeNs(tick), m_plan));
}

SwatchLegendItem::SwatchLegendItem(QCPLegend* legend, const QColor& colour, const QString& label, bool outlined)
    : QCPAbstractLegendItem(legend), m_colour(colour), m_label(label), m_outlined(outlined) {}

void SwatchLegendItem::draw(QCPPainter* painter) {
    const QSize icon = mParentLegend->iconSize();
    const QRect rect = mRect;
    const QRect swatch(rect.left(), rect.top() + (rect.height() - icon.height()) / 2, icon.width(), icon.height());
    painter->fillRect(swatch, m_colour);
    if (m_outlined) {
        painter->setPen(QPen(QColor(m_colour.red(), m_colour.green(), m_colour.blue()), 1));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(swatch.adjusted(0, 0, -1, -1));
    }
    painter->setFont(mFont);
    painter->setPen(mTextColor);
    painter->drawText(QRect(swatch.right() + mParentLegend->iconTextPadding(), rect.top(), rect.width(), rect.height()),
                      Qt::AlignLeft | Qt::AlignVCenter, m_label);
}

// An entry is clipped to its cell, and the underscore of "conv_fwd" sits on the cell's last
// line or below it, where it was cut off ("conv fwd"): the clip reaches a descent lower.
QRect SwatchLegendItem::clipRect() const {
    return mOuterRect.adjusted(0, 0, 0, QFontMetrics(mFont).descent());
}

QSize SwatchLegendItem::minimumOuterSizeHint() const {
    const QFontMetrics metrics(mFont);
    const QSize icon = mParentLegend->iconSize();
    return {icon.width() + mParentLegend->iconTextPadding() + metrics.horizontalAdvance(m_label) + mMargins.left()
                + mMargins.right(),
            std::max(icon.height(), metrics.height()) + mMargins.top() + mMargins.bottom()};
}

} // namespace starscope::viewer
