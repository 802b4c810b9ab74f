#include "viewer/gui/chart/span_name_plottable.hpp"

#include "viewer/core/drawing/palette.hpp"
#include "viewer/core/drawing/span_folding.hpp"
#include "viewer/gui/chart/gantt_plottable.hpp"
#include "viewer/gui/chart/qt_support.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

namespace starscope::viewer {

namespace {

constexpr int kPaddingPx = 3;
// A bar must hold this many pixels of text besides its padding to be named: fewer show only
// an ellipsis or a letter, which says nothing.
constexpr int kMinTextPx = 18;
constexpr double kFoldPx = 2.0 * kPaddingPx + kMinTextPx;

} // namespace

QColor nameColourOn(Rgb bar) {
    // Relative luminance (Rec. 709 weights) on the 0-255 scale.
    const double luminance = 0.2126 * bar.r + 0.7152 * bar.g + 0.0722 * bar.b;
    return luminance > 140.0 ? QColor(20, 20, 20) : QColor(255, 255, 255);
}

SpanNamePlottable::SpanNamePlottable(QCPAxis* timeAxis, QCPAxis* rowAxis) : DecorationPlottable(timeAxis, rowAxis) {
    setAntialiased(true);
}

void SpanNamePlottable::setDocument(std::shared_ptr<const TraceDocument> document) {
    m_document = std::move(document);
    m_placed.clear();
    m_sharedPrefix.clear();
    if (!m_document) {
        return;
    }
    const auto& trace = m_document->trace;
    const auto runs = codeletsRun(trace);
    std::optional<std::string_view> prefix;
    std::size_t names = 0;
    for (std::size_t id = 0; id < runs.size(); ++id) {
        if (!runs[id]) {
            continue;
        }
        const std::string_view name = trace.names.name(static_cast<tracer::NameId>(id));
        ++names;
        if (!prefix) {
            prefix = name;
            continue;
        }
        const auto differ = std::mismatch(prefix->begin(), prefix->end(), name.begin(), name.end());
        prefix = prefix->substr(0, static_cast<std::size_t>(differ.first - prefix->begin()));
    }
    if (prefix && names > 1) {
        const auto cut = prefix->rfind('_');
        m_sharedPrefix = cut == std::string_view::npos ? QString() : toQString(std::string(prefix->substr(0, cut + 1)));
    }
}

void SpanNamePlottable::draw(QCPPainter* painter) {
    m_placed.clear();
    const QCPAxis* timeAxis = keyAxis();
    const QCPAxis* rowAxis = valueAxis();
    if (!m_document || timeAxis == nullptr || rowAxis == nullptr || timeAxis->axisRect() == nullptr) {
        return;
    }
    const QRect clip = clipRect();
    const TimeView view{timeAxis->range().lower, timeAxis->range().upper, static_cast<double>(clip.left()),
                        std::max(1.0, static_cast<double>(clip.width()))};
    const auto& trace = m_document->trace;
    const QFont font = mParentPlot->font();
    const QFontMetrics metrics(font);
    painter->setFont(font);
    const auto& rows = m_rows;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].lane < 0) {
            continue;
        }
        const auto& lane = trace.lanes[static_cast<std::size_t>(rows[r].lane)];
        if (lane.levels.empty()) {
            continue;
        }
        const double row = static_cast<double>(r);
        const double ya = rowAxis->coordToPixel(row - kRowHalfHeight);
        const double yb = rowAxis->coordToPixel(row + kRowHalfHeight);
        // The base level's part of the row: pushed levels take strips at its bottom.
        const std::size_t pushed = std::min(lane.levels.size(), kMaxDrawnLevels) - 1;
        const double height = std::abs(yb - ya) * (1.0 - kNestedLevelShare * static_cast<double>(pushed));
        const double top = std::min(ya, yb);
        if (height < metrics.height() || top > clip.bottom() || top + height < clip.top()) {
            continue;   // rows too thin for a line of text stay unnamed
        }
        const auto& spans = lane.levels[0];
        m_runs.clear();
        foldSpans(spans, view, kFoldPx, m_runs, &m_document->laneIndex[static_cast<std::size_t>(rows[r].lane)][0]);
        for (const DrawRun& run : m_runs) {
            if (run.folded) {
                continue;
            }
            const auto& span = spans[run.first];
            const tracer::Task* task = trace.taskOf(lane, span);
            if (task == nullptr || trace.codeletIdOf(*task) == tracer::kNoName) {
                continue;
            }
            // The bar as the rows draw it (whole pixels), and its visible part only.
            const int x0 = static_cast<int>(std::lround(run.x0));
            const int x1 = static_cast<int>(std::lround(run.x1));
            const QRect bar(x0, static_cast<int>(std::lround(top)), x1 - x0, static_cast<int>(std::lround(height)));
            const int room = bar.width() - 2 * kPaddingPx;
            if (room < kMinTextPx) {
                continue;
            }
            QString name = toQString(std::string(trace.codeletOf(*task)));
            // Too long for the bar: without the start all codelets share, elided in the middle,
            // so that starpu_slu_lu_model_11 and _12 keep what tells them apart ("...11").
            if (metrics.horizontalAdvance(name) > room && !m_sharedPrefix.isEmpty() && name.startsWith(m_sharedPrefix)) {
                name = QChar(0x2026) + name.mid(m_sharedPrefix.size());
            }
            const QString text = metrics.elidedText(name, Qt::ElideMiddle, room);
            if (text.isEmpty() || metrics.horizontalAdvance(text) > room) {
                continue;
            }
            painter->save();
            painter->setClipRect(bar.adjusted(kPaddingPx, 0, -kPaddingPx, 0), Qt::IntersectClip);
            painter->setPen(nameColourOn(m_document->palette.spanColour(trace, lane, span)));
            // At the bar's top, as Tracy does: the middle of the bar keeps its colour.
            painter->drawText(bar.adjusted(0, 1, 0, 0), Qt::AlignHCenter | Qt::AlignTop, text);
            painter->restore();
            m_placed.push_back({bar, text});
        }
    }
}

} // namespace starscope::viewer
