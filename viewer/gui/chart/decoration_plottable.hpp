#pragma once
// The base of what is drawn over the chart's rows (arrows, frames, names): it points at what
// other plottables show, so it never widens the axes, is never picked by QCustomPlot's own
// selection (its owner hit-tests) and has no legend entry of its own.

#include <qcustomplot.h>

namespace starscope::viewer {

class DecorationPlottable : public QCPAbstractPlottable {
public:
    DecorationPlottable(QCPAxis* timeAxis, QCPAxis* rowAxis) : QCPAbstractPlottable(timeAxis, rowAxis) {
        setSelectable(QCP::stNone);
    }

    double selectTest(const QPointF&, bool, QVariant* = nullptr) const override { return -1.0; }
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain = QCP::sdBoth) const override {
        foundRange = false;
        return {};
    }
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain = QCP::sdBoth, const QCPRange& = QCPRange()) const override {
        foundRange = false;
        return {};
    }

protected:
    void drawLegendIcon(QCPPainter*, const QRectF&) const override {}
};

} // namespace starscope::viewer
