#pragma once
// Time axis ticks whose unit follows the zoom (ns, us, ms, s), from the core's planTicks.

#include "viewer/core/format/time_format.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <qcustomplot.h>

namespace starscope::viewer {

class TimeTicker : public QCPAxisTicker {
public:
    TimeTicker();
    // Axis values are trace ticks; labels are the times they read as (TraceDocument::time),
    // ticks placed at round times from its zero.
    void setTimeScale(const TimeScale& time);

protected:
    double getTickStep(const QCPRange& range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    TickPlan m_plan;
    TimeScale m_time;
};

// One legend entry: a colour swatch and a label, independent of any plottable.
class SwatchLegendItem : public QCPAbstractLegendItem {
    Q_OBJECT
public:
    SwatchLegendItem(QCPLegend* legend, const QColor& colour, const QString& label, bool outlined = false);
    const QString& label() const { return m_label; }

protected:
    void draw(QCPPainter* painter) override;
    QSize minimumOuterSizeHint() const override;
    QRect clipRect() const override;

private:
    QColor m_colour;
    QString m_label;
    bool m_outlined;
};

} // namespace starscope::viewer
