#pragma once
// The order a user gave the lanes: a lane moved up or down among its kind group's lanes, a kind
// group among its rank's groups, a rank among the ranks. Held as the lane rows in that order
// (layoutRows' rows, permuted), so the chart's filter and folding apply on top of it and leave
// it as it was; a new trace starts from layoutRows' order again.
//
// A move is asked on a chart row (chartRows: headers included, a filter and folds applied) and
// goes past the neighbour the user sees there: a lane past the previous shown lane of its group,
// a group past the previous group of its rank. A one-lane group (the main thread, an MPI thread)
// moves as its group: a lane has no other place in it. Groups stay whole, so their headers and
// folding keep their meaning.

#include "viewer/core/layout/lane_layout.hpp"

#include <cstdint>
#include <vector>

namespace starscope::viewer {

enum class LaneMove : std::uint8_t { Up, Down, ToTop };

class LaneOrder {
public:
    LaneOrder() = default;
    explicit LaneOrder(std::vector<Row> laneRows);

    // The lane rows in the user's order.
    const std::vector<Row>& rows() const { return m_rows; }
    bool isDefault() const { return m_rows == m_default; }
    void reset() { m_rows = m_default; }

    // Moves what chart row `row` of chartRows shows (a lane, a kind group, a rank); false when
    // it has no neighbour that way (already first or last) or the row is none of them.
    bool move(const std::vector<Row>& chartRows, std::size_t row, LaneMove where);
    // Whether move would move something (a menu greys out what would not).
    bool canMove(const std::vector<Row>& chartRows, std::size_t row, LaneMove where) const;

private:
    std::vector<Row> m_default;
    std::vector<Row> m_rows;
};

} // namespace starscope::viewer
