#include "viewer/core/layout/lane_order.hpp"

#include <algorithm>
#include <optional>

namespace starscope::viewer {

namespace {

enum class Level : std::uint8_t { Rank, Group, Lane };

// What a move carries: a rank, a kind group of a rank, or a lane, named by the rows it holds.
struct Unit {
    Level level = Level::Lane;
    std::int32_t rank = -1;
    LaneGroup group = LaneGroup::Rank;
    std::int32_t lane = -1;

    bool holds(const Row& row) const {
        switch (level) {
        case Level::Rank: return row.rank == rank;
        case Level::Group: return row.rank == rank && row.laneGroup == group;
        case Level::Lane: return row.lane == lane;
        }
        return false;
    }
    bool operator==(const Unit&) const = default;
};

// The unit at `level` a chart row belongs to, if it belongs to one at that level.
std::optional<Unit> unitAt(const Row& row, Level level) {
    switch (level) {
    case Level::Rank:
        return row.rank >= 0 ? std::optional<Unit>(Unit{Level::Rank, row.rank, LaneGroup::Rank, -1}) : std::nullopt;
    case Level::Group:
        return row.kind != RowKind::RankHeader ? std::optional<Unit>(Unit{Level::Group, row.rank, row.laneGroup, -1})
                                               : std::nullopt;
    case Level::Lane:
        return row.kind == RowKind::Lane ? std::optional<Unit>(Unit{Level::Lane, row.rank, row.laneGroup, row.lane})
                                         : std::nullopt;
    }
    return std::nullopt;
}

// Whether two units at one level share the parent they move within.
bool siblings(const Unit& a, const Unit& b) {
    switch (a.level) {
    case Level::Rank: return true;
    case Level::Group: return a.rank == b.rank;
    case Level::Lane: return a.rank == b.rank && a.group == b.group;
    }
    return false;
}

// The unit chart row `row` moves, and where to: the sibling it goes before (Up, ToTop) or after
// (Down), as the chart shows them.
std::optional<std::pair<Unit, Unit>> plan(const std::vector<Row>& laneRows, const std::vector<Row>& chartRows,
                                          std::size_t row, LaneMove where) {
    if (row >= chartRows.size()) {
        return std::nullopt;
    }
    const Row& picked = chartRows[row];
    Level level = Level::Lane;
    if (picked.kind == RowKind::RankHeader) {
        level = Level::Rank;
    } else if (picked.kind == RowKind::KindHeader) {
        level = Level::Group;
    } else {
        const auto lanes = std::count_if(laneRows.begin(), laneRows.end(), [&](const Row& r) {
            return r.rank == picked.rank && r.laneGroup == picked.laneGroup;
        });
        level = lanes > 1 ? Level::Lane : Level::Group;
    }
    const Unit unit = *unitAt(picked, level);
    // The siblings in the chart's order, each once.
    std::vector<Unit> order;
    for (const Row& r : chartRows) {
        const auto u = unitAt(r, level);
        if (u && siblings(*u, unit) && std::find(order.begin(), order.end(), *u) == order.end()) {
            order.push_back(*u);
        }
    }
    const auto at = std::find(order.begin(), order.end(), unit);
    if (at == order.end()) {
        return std::nullopt;
    }
    const auto index = static_cast<std::size_t>(at - order.begin());
    switch (where) {
    case LaneMove::Up:
    case LaneMove::ToTop:
        if (index == 0) {
            return std::nullopt;
        }
        return std::make_pair(unit, where == LaneMove::Up ? order[index - 1] : order.front());
    case LaneMove::Down:
        if (index + 1 >= order.size()) {
            return std::nullopt;
        }
        return std::make_pair(unit, order[index + 1]);
    }
    return std::nullopt;
}

} // namespace

LaneOrder::LaneOrder(std::vector<Row> laneRows) : m_default(std::move(laneRows)), m_rows(m_default) {}

bool LaneOrder::canMove(const std::vector<Row>& chartRows, std::size_t row, LaneMove where) const {
    return plan(m_rows, chartRows, row, where).has_value();
}

bool LaneOrder::move(const std::vector<Row>& chartRows, std::size_t row, LaneMove where) {
    const auto planned = plan(m_rows, chartRows, row, where);
    if (!planned) {
        return false;
    }
    const auto& [unit, target] = *planned;
    // The unit's rows out, then back in before the target's first row or after its last.
    std::vector<Row> moved;
    std::vector<Row> rest;
    for (Row& r : m_rows) {
        (unit.holds(r) ? moved : rest).push_back(std::move(r));
    }
    auto at = where == LaneMove::Down
                  ? std::find_if(rest.rbegin(), rest.rend(), [&](const Row& r) { return target.holds(r); }).base()
                  : std::find_if(rest.begin(), rest.end(), [&](const Row& r) { return target.holds(r); });
    rest.insert(at, std::make_move_iterator(moved.begin()), std::make_move_iterator(moved.end()));
    m_rows = std::move(rest);
    return true;
}

} // namespace starscope::viewer
