#pragma once
// The Gantt rows as one QCustomPlot plottable. Each frame it asks the core for the visible
// marks of every row (binary search + folding) and paints them, merging neighbours of one
// colour, so a frame costs O(pixels * log(spans)) whatever the trace size. A folded mark shows
// the share of each state as stacked bands (state_stack.hpp), not one blended colour.

#include "viewer/core/span_folding.hpp"
#include "viewer/core/state_stack.hpp"
#include "viewer/core/trace_document.hpp"

#include <qcustomplot.h>

#include <QImage>

#include <memory>
#include <vector>

namespace starscope::viewer {

// Value-axis layout: row r is centred on value r and spans r +- kRowHalfHeight.
inline constexpr double kRowHalfHeight = 0.42;

class GanttPlottable : public QCPAbstractPlottable {
    Q_OBJECT
public:
    GanttPlottable(QCPAxis* timeAxis, QCPAxis* rowAxis);

    void setDocument(std::shared_ptr<const TraceDocument> document);
    const std::shared_ptr<const TraceDocument>& document() const { return m_document; }
    void setFoldWidth(double pixels) { m_foldPx = pixels; }
    // Raster output composes each row as one image (default) or paints one rectangle per mark.
    void setRowImages(bool enabled) { m_rowImages = enabled; }
    // The view the last draw() used, from the axes; valid even before a draw.
    TimeView currentView() const;

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    void drawLevel(QCPPainter* painter, const TimeView& view, std::size_t lane, std::size_t level, double top,
                   double height);

    std::shared_ptr<const TraceDocument> m_document;
    double m_foldPx = kDefaultFoldPx;
    bool m_rowImages = true;
    std::vector<DrawRun> m_runs;               // reused between frames
    std::vector<tracer::TimeNs> m_stateTimes;  // reused between folds
    StateStack m_stack;                        // how folded marks show their mix of states
    std::vector<StackBand> m_bands;            // reused between folds
    QImage m_row;
};

} // namespace starscope::viewer
