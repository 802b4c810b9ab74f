#include "viewer/gui/chart/gantt_plottable.hpp"

#include "viewer/core/drawing/overview_profile.hpp"
#include "viewer/gui/chart/qt_support.hpp"

#include <algorithm>
#include <cmath>

namespace starscope::viewer {

namespace {

const QColor kGroupSeparator(90, 90, 90);
const QColor kRankSeparator(20, 20, 20);

} // namespace

GanttPlottable::GanttPlottable(QCPAxis* timeAxis, QCPAxis* rowAxis) : QCPAbstractPlottable(timeAxis, rowAxis) {
    setAntialiasedFill(false);
    setAntialiased(false);
    setSelectable(QCP::stNone);
}

void GanttPlottable::setDocument(std::shared_ptr<const TraceDocument> document) {
    m_document = std::move(document);
    m_stack = m_document ? StateStack(m_document->trace, m_document->palette) : StateStack();
    m_runs.clear();
    m_folded.clear();
    m_order = m_document ? LaneOrder(m_document->rows) : LaneOrder();
    m_filter.clear();
    layOut();
}

void GanttPlottable::setFoldedGroups(std::set<GroupId> groups) {
    m_folded = std::move(groups);
    layOut();
}

bool GanttPlottable::moveRow(std::size_t row, LaneMove where) {
    if (!m_order.move(m_rows, row, where)) {
        return false;
    }
    layOut();
    return true;
}

void GanttPlottable::resetLaneOrder() {
    m_order.reset();
    layOut();
}

void GanttPlottable::setLaneFilter(std::string filter) {
    m_filter = std::move(filter);
    layOut();
}

void GanttPlottable::layOut() {
    m_shownLanes = m_document ? filterRows(m_order.rows(), m_filter) : std::vector<Row>{};
    m_rows = chartRows(m_shownLanes, m_folded);
    m_laneRows = m_document ? rowOfLanes(m_rows, m_document->trace) : std::vector<std::int32_t>{};
    m_headerLanes.assign(m_rows.size(), {});
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        if (m_rows[r].kind != RowKind::Lane) {
            m_headerLanes[r] = lanesUnder(m_shownLanes, m_rows[r]);
        }
    }
}

std::int32_t GanttPlottable::rowOfLane(std::int32_t lane) const {
    return lane >= 0 && static_cast<std::size_t>(lane) < m_laneRows.size() ? m_laneRows[static_cast<std::size_t>(lane)]
                                                                           : -1;
}

TimeView GanttPlottable::currentView() const {
    const QCPAxis* axis = keyAxis();
    if (axis == nullptr || axis->axisRect() == nullptr) {
        return {};
    }
    const QRect rect = axis->axisRect()->rect();
    return TimeView{axis->range().lower, axis->range().upper, static_cast<double>(rect.left()),
                    std::max(1.0, static_cast<double>(rect.width()))};
}

double GanttPlottable::selectTest(const QPointF&, bool, QVariant*) const {
    // Hit tests go through the core (spanAt) in GanttPlot, not through QCustomPlot selection.
    return -1.0;
}

QCPRange GanttPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const {
    foundRange = m_document != nullptr;
    if (!foundRange) {
        return {};
    }
    return QCPRange(static_cast<double>(m_document->trace.begin), static_cast<double>(m_document->trace.end));
}

QCPRange GanttPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const {
    foundRange = m_document != nullptr && !m_rows.empty();
    if (!foundRange) {
        return {};
    }
    return QCPRange(-0.5, static_cast<double>(m_rows.size()) - 0.5);
}

void GanttPlottable::draw(QCPPainter* painter) {
    const QCPAxis* rowAxis = valueAxis();
    if (!m_document || rowAxis == nullptr) {
        return;
    }
    const TimeView view = currentView();
    const QRect clip = clipRect();
    painter->setPen(Qt::NoPen);
    const auto& rows = m_rows;
    const auto columns = headerColumns(view);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const double row = static_cast<double>(r);
        if (!rowOnScreen(r)) {
            continue;
        }
        const auto [top, height] = rowPixels(r);
        if (r > 0 && rows[r].group != rows[r - 1].group) {
            // A rank's header starts a new process: a heavier line than between lane groups.
            const bool rank = rows[r].kind == RowKind::RankHeader;
            const double boundary = std::round(rowAxis->coordToPixel(row - 0.5));
            painter->setPen(QPen(rank ? kRankSeparator : kGroupSeparator, rank ? 2 : 1));
            painter->drawLine(QPointF(clip.left(), boundary), QPointF(clip.right(), boundary));
            painter->setPen(Qt::NoPen);
        }
        if (rows[r].kind != RowKind::Lane) {
            if (columns) {
                drawGroupSummary(painter, *columns, m_headerLanes[r], top, height);
            }
            continue;
        }
        const auto lane = static_cast<std::size_t>(rows[r].lane);
        const auto& levels = m_document->trace.lanes[lane].levels;
        const std::size_t drawn = std::min(levels.size(), kMaxDrawnLevels);
        for (std::size_t level = 0; level < drawn; ++level) {
            if (level == 0) {
                drawLevel(painter, view, lane, 0, top, height);
            } else {
                // Pushed states sit as thinner strips at the bottom of the row.
                const double strip = height * kNestedLevelShare;
                drawLevel(painter, view, lane, level, top + height - strip * static_cast<double>(level), strip);
            }
        }
    }
}

std::pair<double, double> GanttPlottable::rowPixels(std::size_t r) const {
    const double row = static_cast<double>(r);
    const double y0 = valueAxis()->coordToPixel(row - kRowHalfHeight);
    const double y1 = valueAxis()->coordToPixel(row + kRowHalfHeight);
    return {std::min(y0, y1), std::abs(y1 - y0)};
}

bool GanttPlottable::rowOnScreen(std::size_t r) const {
    const QRect clip = clipRect();
    const auto [top, height] = rowPixels(r);
    return !(top > clip.bottom() || top + height < clip.top());
}

std::optional<LaneColumns> GanttPlottable::headerColumns(const TimeView& view) const {
    const QRect clip = clipRect();
    const int width = std::max(0, clip.width());
    std::vector<std::int32_t> lanes;
    bool any = false;
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        if (m_rows[r].kind != RowKind::Lane && rowOnScreen(r)) {
            any = true;
            lanes.insert(lanes.end(), m_headerLanes[r].begin(), m_headerLanes[r].end());
        }
    }
    if (!any || width == 0) {
        return std::nullopt;
    }
    // One column per pixel of the clip, which is the axis rect the view maps onto.
    const double from = view.toTime(static_cast<double>(clip.left()));
    const double to = view.toTime(static_cast<double>(clip.left() + width));
    return LaneColumns(*m_document, from, to, static_cast<std::size_t>(width), lanes);
}

void GanttPlottable::drawGroupSummary(QCPPainter* painter, const LaneColumns& columns, const std::vector<std::int32_t>& lanes,
                                      double top, double height) {
    // headerColumns, whose columns these are, made none for a clip of no width.
    const QRect clip = clipRect();
    const int width = clip.width();
    const OverviewProfile profile = columns.profile(*m_document, lanes);
    const int y = static_cast<int>(std::lround(top));
    const int h = std::max(1, static_cast<int>(std::lround(top + height)) - y);
    const QRgb background = qRgb(kBackground.r, kBackground.g, kBackground.b);
    QImage image(width, h, QImage::Format_RGB32);
    image.fill(background);
    for (std::size_t c = 0; c < profile.columns; ++c) {
        const tracer::TimeNs* times = profile.column(c);
        // Before the trace and after it no worker has a span: the background shows.
        if (profile.extents[c] <= 0 || std::all_of(times, times + profile.states, [](tracer::TimeNs t) { return t == 0; })) {
            continue;
        }
        m_stack.stack(profile.column(c), profile.extents[c], h, m_bands);
        int line = 0;
        for (const StackBand& band : m_bands) {
            const QRgb pixel = band.empty ? background : qRgb(band.colour.r, band.colour.g, band.colour.b);
            for (int l = line; l < line + band.pixels && l < h; ++l) {
                reinterpret_cast<QRgb*>(image.scanLine(l))[c] = pixel;
            }
            line += band.pixels;
        }
    }
    // An image in vector output too: a column per pixel would be thousands of rectangles.
    painter->drawImage(QPoint(clip.left(), y), image);
}

void GanttPlottable::drawLevel(QCPPainter* painter, const TimeView& view, std::size_t lane, std::size_t level,
                               double top, double height) {
    const auto& spans = m_document->trace.lanes[lane].levels[level];
    const auto& index = m_document->laneIndex[lane][level];
    const Palette& palette = m_document->palette;
    m_runs.clear();
    foldSpans(spans, view, m_foldPx, m_runs, &index);

    const int y = static_cast<int>(std::lround(top));
    const int h = std::max(1, static_cast<int>(std::lround(top + height)) - y);
    // On raster devices the row is composed as one image of pixels and blitted once: a
    // QPainter call per mark costs more than the marks themselves at full zoom-out. Vector
    // output (PDF) keeps one rectangle per mark and band. Gaps of the base level show the
    // background; those of pushed levels stay transparent over the base level.
    const bool raster = m_rowImages && !painter->modes().testFlag(QCPPainter::pmVectorized);
    const QRect clip = clipRect();
    const QRgb gap = level == 0 ? qRgb(kBackground.r, kBackground.g, kBackground.b) : qRgba(0, 0, 0, 0);
    const int width = std::max(0, clip.width());
    if (raster) {
        const auto format = level == 0 ? QImage::Format_RGB32 : QImage::Format_ARGB32_Premultiplied;
        if (m_row.width() != width || m_row.height() != h || m_row.format() != format) {
            m_row = QImage(std::max(1, width), h, format);
        }
        m_row.fill(gap);
    }
    // Fills columns [x0, x1) of lines [line0, line0 + lines) of the row.
    const auto fill = [&](int x0, int x1, int line0, int lines, QRgb pixel) {
        if (raster) {
            const int from = std::clamp(x0 - clip.left(), 0, width);
            const int to = std::clamp(x1 - clip.left(), 0, width);
            for (int line = line0; line < line0 + lines && from < to; ++line) {
                auto* scan = reinterpret_cast<QRgb*>(m_row.scanLine(line));
                std::fill(scan + from, scan + to, pixel);
            }
        } else if (pixel != gap) {
            painter->fillRect(QRect(x0, y + line0, x1 - x0, lines), QColor::fromRgba(pixel));
        }
    };
    // Neighbouring single spans of one colour are merged into one fill.
    bool open = false;
    Rgb colour;
    int openX0 = 0;
    int openX1 = 0;
    const auto flush = [&] {
        if (open) {
            fill(openX0, openX1, 0, h, qRgb(colour.r, colour.g, colour.b));
            open = false;
        }
    };
    // Runs are contiguous (each starts where the previous ended), so the time per state of a
    // fold is the difference of two prefixes, and each prefix is computed once.
    const std::size_t states = index.stateCount();
    m_stateTimes.resize(3 * states);
    tracer::TimeNs* before = m_stateTimes.data();
    tracer::TimeNs* after = before + states;
    tracer::TimeNs* fold = after + states;
    if (!m_runs.empty()) {
        index.prefixAt(spans, m_runs.front().first, before);
    }
    for (const DrawRun& run : m_runs) {
        // Snap to whole pixels and give every mark at least one column, so short events show.
        const int x0 = static_cast<int>(std::lround(run.x0));
        const int x1 = std::max(x0 + 1, static_cast<int>(std::lround(run.x1)));
        if (run.folded) {
            index.prefixAt(spans, run.last, after);
            for (std::size_t s = 0; s < states; ++s) {
                fold[s] = after[s] - before[s];
            }
            std::swap(before, after);
            // Many spans in these columns: the share of each state, stacked (state_stack.hpp).
            flush();
            m_stack.stack(fold, spans[run.last - 1].end - spans[run.first].start, h, m_bands);
            int line = 0;
            for (const StackBand& band : m_bands) {
                fill(x0, x1, line, band.pixels, band.empty ? gap : qRgb(band.colour.r, band.colour.g, band.colour.b));
                line += band.pixels;
            }
            continue;
        }
        const auto& span = spans[run.first];
        const Rgb c = palette.spanColour(m_document->trace, m_document->trace.lanes[lane], span);
        before[span.state] += span.duration();
        if (open && c == colour && x0 <= openX1) {
            openX1 = std::max(openX1, x1);
            continue;
        }
        flush();
        open = true;
        colour = c;
        openX0 = x0;
        openX1 = x1;
    }
    flush();
    if (raster && width > 0) {
        painter->drawImage(QPoint(clip.left(), y), m_row);
    }
}

void GanttPlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const {
    painter->fillRect(rect, toQColor(kExecutingGreen));
}

} // namespace starscope::viewer
