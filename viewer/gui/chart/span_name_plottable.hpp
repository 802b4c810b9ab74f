#pragma once
// Codelet names written inside the bars wide enough to hold them, as Tracy and Perfetto do:
// elided in the middle to the bar's visible width (a common prefix is not what tells codelets
// apart) and clipped to it, never running over a neighbour; bars too narrow for a few letters
// stay unnamed (hover names them). The bars come from the same
// folding as the rows (span_folding.hpp) with a wide fold, so a frame at full zoom-out costs
// a few binary searches per row, not a look at every span.

#include "viewer/core/drawing/span_folding.hpp"
#include "viewer/core/document/trace_document.hpp"

#include "viewer/gui/chart/decoration_plottable.hpp"

#include <memory>
#include <vector>

namespace starscope::viewer {

class SpanNamePlottable : public DecorationPlottable {
    Q_OBJECT
public:
    SpanNamePlottable(QCPAxis* timeAxis, QCPAxis* rowAxis);

    void setDocument(std::shared_ptr<const TraceDocument> document);
    // The chart's rows (headers, folds, the filter and the user's order applied): row r's lane
    // is named at row r.
    void setRows(std::vector<Row> rows) { m_rows = std::move(rows); }
    const std::vector<Row>& rows() const { return m_rows; }
    // The names the last draw wrote, with the bar each sits in, in widget pixels.
    struct Placed {
        QRect bar;
        QString text;
    };
    const std::vector<Placed>& placed() const { return m_placed; }

protected:
    void draw(QCPPainter* painter) override;

private:
    std::shared_ptr<const TraceDocument> m_document;
    std::vector<Row> m_rows;
    std::vector<DrawRun> m_runs;   // reused between frames
    std::vector<Placed> m_placed;
    // The start every codelet name of the trace shares, up to an underscore
    // ("starpu_slu_lu_model_"): left out of a name that does not fit its bar.
    QString m_sharedPrefix;
};

// Dark text on light bars, white on dark ones.
QColor nameColourOn(Rgb bar);

} // namespace starscope::viewer
