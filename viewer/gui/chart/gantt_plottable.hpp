#pragma once
// The Gantt rows as one QCustomPlot plottable. Each frame it asks the core for the visible
// marks of every row (binary search + folding) and paints them, merging neighbours of one
// colour, so a frame costs O(pixels * log(spans)) whatever the trace size. A folded mark shows
// the share of each state as stacked bands (state_stack.hpp), not one blended colour. A group's
// header row (a StarPU-MPI rank, a kind of lanes) shows the mix of its lanes' states per pixel
// column, so a folded group still shows when it works and when it waits.

#include "viewer/core/layout/lane_layout.hpp"
#include "viewer/core/layout/lane_order.hpp"
#include "viewer/core/drawing/overview_profile.hpp"
#include "viewer/core/drawing/span_folding.hpp"
#include "viewer/core/drawing/state_stack.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <qcustomplot.h>

#include <QImage>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace starscope::viewer {

// Value-axis layout: row r is centred on value r and spans r +- kRowHalfHeight.
inline constexpr double kRowHalfHeight = 0.42;
// Pushed levels (Paje Push/Pop) are drawn as strips at the bottom of the row, this share of its
// height each, at most kMaxDrawnLevels levels in all.
inline constexpr double kNestedLevelShare = 0.3;
inline constexpr std::size_t kMaxDrawnLevels = 3;

class GanttPlottable : public QCPAbstractPlottable {
    Q_OBJECT
public:
    GanttPlottable(QCPAxis* timeAxis, QCPAxis* rowAxis);

    // Shows every group unfolded, the lanes in layoutRows' order.
    void setDocument(std::shared_ptr<const TraceDocument> document);
    const std::shared_ptr<const TraceDocument>& document() const { return m_document; }
    // The rows drawn (chartRows of the document's lanes): row r is centred on value r.
    const std::vector<Row>& rows() const { return m_rows; }
    // The row showing each lane (its own, or its folded group's header); -1 when none.
    std::int32_t rowOfLane(std::int32_t lane) const;
    const std::vector<std::int32_t>& laneRows() const { return m_laneRows; }
    void setFoldedGroups(std::set<GroupId> groups);
    const std::set<GroupId>& foldedGroups() const { return m_folded; }
    // The lanes in the user's order (lane_order.hpp), kept through filters and folds.
    const LaneOrder& laneOrder() const { return m_order; }
    bool moveRow(std::size_t row, LaneMove where);
    void resetLaneOrder();
    // The lane rows the filter keeps, in the user's order, before folding.
    const std::vector<Row>& shownLanes() const { return m_shownLanes; }
    // Only the lanes the filter keeps (filterRows) get a row.
    void setLaneFilter(std::string filter);
    const std::string& laneFilter() const { return m_filter; }
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
    // The columns of every lane under a header row on screen, for drawGroupSummary; nullopt
    // when no header row is on screen.
    std::optional<LaneColumns> headerColumns(const TimeView& view) const;
    void drawGroupSummary(QCPPainter* painter, const LaneColumns& columns, const std::vector<std::int32_t>& lanes,
                          double top, double height);
    // Where row r lies in pixels (top, height), and whether any of it is within the clip.
    std::pair<double, double> rowPixels(std::size_t r) const;
    bool rowOnScreen(std::size_t r) const;
    void layOut();

    std::shared_ptr<const TraceDocument> m_document;
    std::set<GroupId> m_folded;
    LaneOrder m_order;
    std::string m_filter;
    std::vector<Row> m_shownLanes;             // filtered, not folded
    std::vector<Row> m_rows;
    std::vector<std::vector<std::int32_t>> m_headerLanes;   // per row: a header's lanes
    std::vector<std::int32_t> m_laneRows;      // lane -> row
    double m_foldPx = kDefaultFoldPx;
    bool m_rowImages = true;
    std::vector<DrawRun> m_runs;               // reused between frames
    std::vector<tracer::TimeNs> m_stateTimes;  // reused between folds
    StateStack m_stack;                        // how folded marks show their mix of states
    std::vector<StackBand> m_bands;            // reused between folds
    QImage m_row;
};

} // namespace starscope::viewer
