#include "viewer/core/message_links.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace starscope::viewer {

std::int32_t messageEndRow(const std::vector<Row>& rows, const std::vector<std::int32_t>& laneRows,
                           std::int32_t lane, std::int32_t rank) {
    if (lane >= 0 && static_cast<std::size_t>(lane) < laneRows.size() && laneRows[static_cast<std::size_t>(lane)] >= 0) {
        return laneRows[static_cast<std::size_t>(lane)];
    }
    // A reader that found no MPI thread for the rank: the rank's header (or first lane) row.
    if (const auto mine = rowsOfRank(rows, rank)) {
        return static_cast<std::int32_t>(mine->first);
    }
    return -1;
}

std::vector<MessageArrow> visibleMessages(const tracer::Trace& trace, const std::vector<Row>& rows,
                                          const std::vector<std::int32_t>& laneRows, const TimeView& view,
                                          double minSeparationPx) {
    std::vector<MessageArrow> out;
    const double step = std::max(minSeparationPx, 1e-9);
    // The last kept arrow's pixel slots per pair of rows: messages are sorted by start, so a
    // run of messages between two rows comes in order and only its last arrow matters.
    std::map<std::pair<std::int32_t, std::int32_t>, std::pair<double, double>> last;
    for (std::size_t i = 0; i < trace.messages.size(); ++i) {
        const auto& m = trace.messages[i];
        if (static_cast<double>(m.start) > view.endNs) {
            break;   // sorted by start: none later is in view
        }
        if (static_cast<double>(m.end) < view.startNs) {
            continue;
        }
        const std::int32_t from = messageEndRow(rows, laneRows, m.fromLane, m.fromRank);
        const std::int32_t to = messageEndRow(rows, laneRows, m.toLane, m.toRank);
        if (from < 0 || to < 0) {
            continue;
        }
        const double x0 = std::floor(view.toPixel(static_cast<double>(m.start)) / step);
        const double x1 = std::floor(view.toPixel(static_cast<double>(m.end)) / step);
        const auto key = std::make_pair(from, to);
        const auto it = last.find(key);
        if (it != last.end() && it->second == std::make_pair(x0, x1)) {
            continue;
        }
        last[key] = {x0, x1};
        out.push_back({i, static_cast<double>(from), static_cast<double>(to)});
    }
    return out;
}

} // namespace starscope::viewer
