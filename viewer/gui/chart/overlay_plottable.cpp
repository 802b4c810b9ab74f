#include "viewer/gui/chart/overlay_plottable.hpp"

#include "tracer/model/time_unit.hpp"

#include "viewer/core/layout/label_layout.hpp"
#include "viewer/core/format/time_format.hpp"
#include "viewer/gui/chart/decoration_plottable.hpp"
#include "viewer/gui/chart/qt_support.hpp"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <span>

namespace starscope::viewer {

namespace {

constexpr int kLabelPadding = 3;
constexpr double kLabelGapPx = 8.0;   // between two labels of one line, so each reads on its own
constexpr double kHoverPx = 3.0;      // how near the cursor a barrier or marker must be for its tooltip
constexpr qsizetype kMaxTooltipLines = 8;
// Batch lines closer than this on average would hatch over the rows: ticks on the top edge instead.
constexpr double kMinMarkerSpacingPx = 8.0;
constexpr int kMinBandPx = 8;   // narrower bands get ticks instead of edges, which would hatch the rows
constexpr int kTickPx = 8;
const QColor kLabelBackground(255, 255, 255);
const QColor kSelectionFill(255, 200, 0, 60);
const QColor kSelectionEdge(200, 140, 0);

// Qt's raster engine hands a clipped fill taller than about 96 scanlines to its thread pool
// and waits for it; for the thin bands and lines drawn here that dispatch costs far more than
// the fill (tens of milliseconds per frame on a loaded machine). Strips of 64 lines stay on
// the painting thread.
void fillInStrips(QPainter* painter, const QRect& rect, const QColor& colour) {
    constexpr int kStrip = 64;
    for (int y = rect.top(); y <= rect.bottom(); y += kStrip) {
        painter->fillRect(QRect(rect.left(), y, rect.width(), std::min(kStrip, rect.bottom() - y + 1)), colour);
    }
}

// A one-pixel vertical line as a fill: QPen lines go through the same threaded path.
void verticalLine(QPainter* painter, int x, const QRect& area, const QColor& colour) {
    fillInStrips(painter, QRect(x, area.top(), 1, area.height()), colour);
}

int labelWidth(const QFontMetrics& metrics, const QString& text) {
    return metrics.horizontalAdvance(text) + 2 * kLabelPadding;
}

// The box of a label whose left edge is x.
QRect labelBox(const QFontMetrics& metrics, const QString& text, int x, int y) {
    return {x, y, labelWidth(metrics, text), metrics.height()};
}

// Text in an opaque white box: lines and bands drawn before it never run through the text.
void paintLabel(QCPPainter* painter, const QRect& box, const QString& text) {
    fillInStrips(painter, box, kLabelBackground);
    painter->setPen(QColor(20, 20, 20));
    painter->drawText(box, Qt::AlignCenter, text);
}

// One band per pixel range; barriers closer than a pixel share a band, which is named by its
// longest barrier (an index into the barriers given).
struct Band {
    int left;
    int right;
    std::size_t longest;
};

// The overlay's labels, drawn from its last draw's list on a layer of their own above it.
class LabelPlottable : public DecorationPlottable {
public:
    LabelPlottable(QCPAxis* timeAxis, QCPAxis* rowAxis, const std::vector<std::pair<QRect, QString>>& labels)
        : DecorationPlottable(timeAxis, rowAxis), m_labels(labels) {}

protected:
    void draw(QCPPainter* painter) override {
        painter->setFont(mParentPlot->font());
        for (const auto& [box, text] : m_labels) {
            paintLabel(painter, box, text);
        }
    }

private:
    const std::vector<std::pair<QRect, QString>>& m_labels;
};

// Duration labels of banded barriers on one line at labelTop, longest barriers first kept,
// those that would overlap a kept one left out.
struct DurationLabel {
    QRect box;
    QString text;
    std::size_t barrier;   // index into the barriers given
};

std::vector<Band> foldBands(std::span<const tracer::Barrier> barriers, const TimeView& view);

std::vector<DurationLabel> durationLabels(std::span<const tracer::Barrier> barriers, const std::vector<Band>& bands,
                                          int labelTop, const QFontMetrics& metrics, const QRect& area,
                                          const TimeScale& time) {
    std::vector<std::size_t> byLength(bands.size());
    std::iota(byLength.begin(), byLength.end(), std::size_t{0});
    std::stable_sort(byLength.begin(), byLength.end(), [&](std::size_t a, std::size_t b) {
        return barriers[bands[a].longest].duration() > barriers[bands[b].longest].duration();
    });
    std::vector<DurationLabel> out;
    LabelLine line(area.left(), area.right() + 1, kLabelGapPx);
    for (const std::size_t b : byLength) {
        const Band& band = bands[b];
        const double centre = (band.left + band.right) / 2.0;
        if (line.blocked(centre)) {
            continue;
        }
        const QString text =
            QString::fromStdString(formatDuration(time.durationNs(static_cast<double>(barriers[band.longest].duration()))));
        const int width = labelWidth(metrics, text);
        const int left = static_cast<int>(std::lround(centre)) - width / 2;
        if (line.place({static_cast<double>(left), static_cast<double>(left + width)})) {
            out.push_back({labelBox(metrics, text, left, labelTop), text, band.longest});
        }
    }
    return out;
}

std::vector<Band> foldBands(std::span<const tracer::Barrier> barriers, const TimeView& view) {
    std::vector<Band> bands;
    int lastBandRight = std::numeric_limits<int>::min();
    const auto first = std::partition_point(barriers.begin(), barriers.end(), [&](const tracer::Barrier& b) {
        return static_cast<double>(b.end) <= view.startNs;
    });
    for (auto i = static_cast<std::size_t>(first - barriers.begin());
         i < barriers.size() && static_cast<double>(barriers[i].start) < view.endNs; ++i) {
        const auto& barrier = barriers[i];
        const int x0 = static_cast<int>(std::lround(std::max(view.toPixel(static_cast<double>(barrier.start)), view.leftPx)));
        const int x1 = std::max(x0 + 1, static_cast<int>(std::lround(std::min(view.toPixel(static_cast<double>(barrier.end)),
                                                                                view.leftPx + view.widthPx))));
        if (x1 <= lastBandRight) {
            if (barrier.duration() > barriers[bands.back().longest].duration()) {
                bands.back().longest = i;
            }
            continue;
        }
        bands.push_back({std::max(x0, lastBandRight), x1, i});
        lastBandRight = x1;
    }
    return bands;
}

} // namespace

OverlayPlottable::OverlayPlottable(QCPAxis* timeAxis, QCPAxis* rowAxis) : QCPAbstractPlottable(timeAxis, rowAxis) {
    setSelectable(QCP::stNone);
    setAntialiased(false);
    m_labelPlottable = new LabelPlottable(timeAxis, rowAxis, m_pendingLabels);
}

void OverlayPlottable::setDocument(std::shared_ptr<const TraceDocument> document) {
    m_document = std::move(document);
    m_barriers.reset();
    m_selection.reset();
    m_rubberBand.reset();
}

void OverlayPlottable::setBarriers(std::shared_ptr<const Barriers> barriers) { m_barriers = std::move(barriers); }

double OverlayPlottable::selectTest(const QPointF&, bool, QVariant*) const { return -1.0; }

QCPRange OverlayPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const {
    foundRange = false;
    return {};
}

QCPRange OverlayPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const {
    foundRange = false;
    return {};
}

void OverlayPlottable::draw(QCPPainter* painter) {
    const QCPAxis* axis = keyAxis();
    if (!m_document || axis == nullptr || axis->axisRect() == nullptr) {
        return;
    }
    const QRect area = axis->axisRect()->rect();
    const TimeView view{axis->range().lower, axis->range().upper, static_cast<double>(area.left()),
                        std::max(1.0, static_cast<double>(area.width()))};
    painter->setFont(mParentPlot->font());
    m_lastView = view;
    m_lastArea = area;
    m_labels = {};
    m_pendingLabels.clear();
    drawRankBarriers(painter, view, area);
    drawBarriers(painter, view, area);
    drawMarkers(painter, view, area);
    if (m_selection) {
        drawRange(painter, view, area, *m_selection, true);
    }
    if (m_rubberBand) {
        drawRange(painter, view, area, *m_rubberBand, false);
    }
}

void OverlayPlottable::drawBarriers(QCPPainter* painter, const TimeView& view, const QRect& area) {
    if (!m_barriers) {
        return;
    }
    const Barriers& barriers = *m_barriers;
    const std::vector<Band> bands = foldBands(barriers, view);
    // Every barrier keeps its band at any zoom, at least one pixel wide: the tint over all
    // rows, with edges when there is room for them and ticks on the top and bottom edges when
    // it is too thin for the tint alone to catch the eye.
    for (const Band& band : bands) {
        const QRect rect(band.left, area.top(), band.right - band.left, area.height());
        fillInStrips(painter, rect, kBarrierFill);
        if (rect.width() >= kMinBandPx) {
            verticalLine(painter, rect.left(), area, kBarrierEdge);
            verticalLine(painter, rect.right(), area, kBarrierEdge);
        } else {
            painter->fillRect(QRect(rect.left(), area.top(), rect.width(), kTickPx), kBarrierEdge);
            painter->fillRect(QRect(rect.left(), area.bottom() - kTickPx + 1, rect.width(), kTickPx), kBarrierEdge);
        }
    }
    // Labels along the bottom; those that would overlap a kept label are left to the tooltip
    // (tooltipAt). Rows shorter than a label (a small window, a wide key) would have the last
    // one hidden under them, sleeping red included: then every label is left to the tooltip.
    const QFontMetrics metrics(painter->font());
    if (valueAxis() != nullptr
        && std::abs(valueAxis()->coordToPixel(1.0) - valueAxis()->coordToPixel(0.0)) < metrics.height() + 4.0) {
        return;
    }
    for (auto& label : durationLabels(barriers, bands, area.bottom() - metrics.height() - 2, metrics, area,
                                      m_document->time)) {
        addLabel(label.box, label.text);
        m_labels.barrier.push_back(label.box);
        m_labels.barrierIndex.push_back(label.barrier);
    }
}

std::optional<std::pair<int, int>> OverlayPlottable::rankPixels(std::int32_t rank) const {
    const auto rows = rowsOfRank(m_rows, rank);
    const QCPAxis* axis = valueAxis();
    if (!rows || axis == nullptr) {
        return std::nullopt;
    }
    const double a = axis->coordToPixel(static_cast<double>(rows->first) - 0.5);
    const double b = axis->coordToPixel(static_cast<double>(rows->second) + 0.5);
    return std::make_pair(static_cast<int>(std::lround(std::min(a, b))) + 1, static_cast<int>(std::lround(std::max(a, b))) - 1);
}

// A rank's own barriers over its rows only: where the job goes on but this rank waits (for
// data from another rank, its arena reset, its batch end).
void OverlayPlottable::drawRankBarriers(QCPPainter* painter, const TimeView& view, const QRect& area) {
    if (!m_rankBarriers || m_rankBarriers->empty()) {
        return;
    }
    for (const Row& row : m_rows) {
        if (row.kind != RowKind::RankHeader) {
            continue;
        }
        const auto pixels = rankPixels(row.rank);
        if (!pixels) {
            continue;
        }
        const int top = std::max(pixels->first, area.top());
        const int bottom = std::min(pixels->second, area.bottom());
        if (bottom < top) {
            continue;
        }
        const auto mine = barriersOfRank(*m_rankBarriers, row.rank);
        const std::vector<Band> bands = foldBands(mine, view);
        for (const Band& band : bands) {
            const QRect rect(band.left, top, band.right - band.left, bottom - top + 1);
            fillInStrips(painter, rect, kRankBarrierFill);
            if (rect.width() >= kMinBandPx) {
                fillInStrips(painter, QRect(rect.left(), top, 1, rect.height()), kRankBarrierEdge);
                fillInStrips(painter, QRect(rect.right(), top, 1, rect.height()), kRankBarrierEdge);
            }
        }
        // Its durations on the second line of its rows: clear of the batch labels on the
        // chart's first line and of the job's barrier labels on its last.
        const QFontMetrics metrics(painter->font());
        const int labelTop = top + metrics.height() + 4;
        if (labelTop + metrics.height() > std::min(bottom, area.bottom() - metrics.height() - 2)) {
            continue;   // rows too low for a line of their own
        }
        for (auto& label : durationLabels(mine, bands, labelTop, metrics, area, m_document->time)) {
            addLabel(label.box, label.text);
            m_labels.rankBarrier.push_back({label.box, label.text});
        }
    }
}

void OverlayPlottable::drawMarkers(QCPPainter* painter, const TimeView& view, const QRect& area) {
    const auto& markers = m_document->trace.markers;
    const auto& batchMarkers = m_document->batchMarkers;
    const auto first = std::partition_point(batchMarkers.begin(), batchMarkers.end(), [&](std::size_t m) {
        return static_cast<double>(markers[m].time) < view.startNs;
    });
    const auto last = std::partition_point(first, batchMarkers.end(), [&](std::size_t m) {
        return static_cast<double>(markers[m].time) <= view.endNs;
    });
    const bool dense = static_cast<double>(last - first) * kMinMarkerSpacingPx > static_cast<double>(area.width());
    int lastLine = std::numeric_limits<int>::min();
    const QFontMetrics metrics(painter->font());
    LabelLine line(area.left(), area.right() + 1, kLabelGapPx);
    for (auto it = first; it != last; ++it) {
        const auto& marker = markers[*it];
        const int x = static_cast<int>(std::lround(view.toPixel(static_cast<double>(marker.time))));
        if (x <= lastLine + 1) {
            continue;   // markers closer than two pixels: one line is enough
        }
        lastLine = x;
        if (dense) {
            painter->fillRect(QRect(x, area.top(), 1, kTickPx), kMarkerLine);
        } else {
            // Short of the edges, where a barrier band too thin to see keeps its ticks: a barrier
            // under a pixel usually shares its column with the next batch's line.
            verticalLine(painter, x, area.adjusted(0, kTickPx, 0, -kTickPx), kMarkerLine);
        }
        // Batches are equally important: kept from left to right where they fit.
        const int left = x + 2;
        if (line.blocked(left)) {
            continue;
        }
        const QString text = QStringLiteral("e%1 b%2").arg(marker.epoch).arg(marker.batch);
        const int width = labelWidth(metrics, text);
        if (line.place({static_cast<double>(left), static_cast<double>(left + width)})) {
            const QRect box = labelBox(metrics, text, left, area.top() + 2);
            addLabel(box, text);
            m_labels.batch.push_back(box);
        }
    }
}

QString OverlayPlottable::tooltipAt(const QPointF& pos) const {
    if (!m_document || !m_lastArea.contains(pos.toPoint())) {
        return {};
    }
    const double from = m_lastView.toTime(pos.x() - kHoverPx);
    const double to = m_lastView.toTime(pos.x() + kHoverPx);
    QStringList lines;
    // "barrier of 1.2 ms (epoch 0 batch 3->4): end of batch"; a rank's: "rank 1 barrier of ...".
    const auto addBarriers = [&](std::span<const tracer::Barrier> barriers) {
        auto it = std::partition_point(barriers.begin(), barriers.end(), [from](const tracer::Barrier& b) {
            return static_cast<double>(b.end) <= from;
        });
        for (; it != barriers.end() && static_cast<double>(it->start) <= to; ++it) {
            if (lines.size() >= kMaxTooltipLines) {
                lines << QStringLiteral("...");
                return false;
            }
            const auto& barrier = *it;
            QString line = barrier.rank >= 0 ? QStringLiteral("rank %1 barrier of %2").arg(barrier.rank)
                                             : QStringLiteral("barrier of %1");
            line = line.arg(QString::fromStdString(formatDuration(m_document->time.durationNs(static_cast<double>(barrier.duration())))));
            if (!barrier.transitionLabel.empty()) {
                line += QStringLiteral(" (%1)").arg(QString::fromStdString(barrier.transitionLabel).toHtmlEscaped());
            }
            if (barrier.cause != tracer::BarrierCause::Unattributed) {
                line += QStringLiteral(": %1").arg(
                    QString::fromStdString(tracer::describeCause(m_document->trace, barrier)).toHtmlEscaped());
            }
            lines << line;
        }
        return true;
    };
    bool room = true;
    if (m_barriers) {
        room = addBarriers(*m_barriers);
    }
    // A rank's own barriers where the cursor is over that rank's rows.
    if (room && m_rankBarriers && valueAxis() != nullptr) {
        const double row = std::round(valueAxis()->pixelToCoord(pos.y()));
        if (row >= 0.0 && row < static_cast<double>(m_rows.size())) {
            const std::int32_t rank = m_rows[static_cast<std::size_t>(row)].rank;
            if (rank >= 0) {
                addBarriers(barriersOfRank(*m_rankBarriers, rank));
            }
        }
    }
    const auto& markers = m_document->trace.markers;
    const auto& batchMarkers = m_document->batchMarkers;
    auto it = std::partition_point(batchMarkers.begin(), batchMarkers.end(),
                                   [&](std::size_t m) { return static_cast<double>(markers[m].time) < from; });
    for (; it != batchMarkers.end() && static_cast<double>(markers[*it].time) <= to; ++it) {
        if (lines.size() >= kMaxTooltipLines) {
            lines << QStringLiteral("...");
            break;
        }
        lines << QStringLiteral("%1 begins").arg(QString::fromStdString(batchLabel(m_document->trace.markerOf(markers[*it]))));
    }
    return lines.join(QStringLiteral("<br>"));
}

void OverlayPlottable::drawRange(QCPPainter* painter, const TimeView& view, const QRect& area,
                                 std::pair<double, double> range, bool committed) {
    // A range the view has left is not drawn: clamped to the edge, its label stayed behind.
    if (std::max(range.first, range.second) < view.startNs || std::min(range.first, range.second) > view.endNs) {
        return;
    }
    const double a = std::clamp(view.toPixel(std::min(range.first, range.second)), view.leftPx, view.leftPx + view.widthPx);
    const double b = std::clamp(view.toPixel(std::max(range.first, range.second)), view.leftPx, view.leftPx + view.widthPx);
    const QRect rect(static_cast<int>(a), area.top(), std::max(1, static_cast<int>(b - a)), area.height());
    if (committed) {
        fillInStrips(painter, rect, kSelectionFill);
        painter->setPen(QPen(kSelectionEdge, 1));
    } else {
        painter->setPen(QPen(QColor(30, 30, 30), 1, Qt::DashLine));
    }
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(rect);
    // Its length, while dragging too (a Shift+drag is committed as it goes, a zoom is not).
    const QString text =
        QString::fromStdString(formatDuration(m_document->time.durationNs(std::abs(range.second - range.first))));
    const QFontMetrics metrics(painter->font());
    const QRect box = labelBox(metrics, text, rect.center().x() - labelWidth(metrics, text) / 2,
                               area.top() + metrics.height() + 6);
    addLabel(box, text);
    m_labels.range = OverlayLabels::Label{box, text};
}

void OverlayPlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const {
    painter->fillRect(rect, kBarrierFill);
}

} // namespace starscope::viewer
