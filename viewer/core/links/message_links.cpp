#include "viewer/core/links/message_links.hpp"

#include "viewer/core/format/time_format.hpp"

#include <algorithm>
#include <limits>

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

MessageReach::MessageReach(const tracer::Trace& trace) {
    m_reach.reserve(trace.messages.size());
    tracer::TimeNs latest = std::numeric_limits<tracer::TimeNs>::min();
    for (const auto& m : trace.messages) {
        latest = std::max<tracer::TimeNs>(latest, m.end);
        m_reach.push_back(latest);
    }
}

std::size_t MessageReach::firstReaching(double startNs) const {
    const auto it = std::partition_point(m_reach.begin(), m_reach.end(),
                                         [startNs](tracer::TimeNs end) { return static_cast<double>(end) < startNs; });
    return static_cast<std::size_t>(it - m_reach.begin());
}

std::vector<MessageArrow> visibleMessages(const tracer::Trace& trace, const std::vector<Row>& rows,
                                          const std::vector<std::int32_t>& laneRows, const TimeView& view,
                                          const LinkBundling& options, const MessageReach* reach) {
    LinkBundler arrows(view, options);
    for (std::size_t i = reach != nullptr ? reach->firstReaching(view.startNs) : 0; i < trace.messages.size(); ++i) {
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
        arrows.add({i, 1, m.size, m.start, m.end, static_cast<double>(from), static_cast<double>(to)});
    }
    return std::move(arrows).take();
}

std::vector<std::string> describeMessageArrow(const tracer::Trace& trace, const MessageArrow& arrow,
                                              const TimeScale& scale) {
    if (arrow.first >= trace.messages.size()) {
        return {};
    }
    const auto& m = trace.messages[arrow.first];
    const std::string ranks = "rank " + std::to_string(m.fromRank) + " -> rank " + std::to_string(m.toRank);
    if (arrow.count > 1) {
        return describeBundle(arrow, "messages " + ranks, scale);
    }
    return {"message " + ranks, groupThousands(m.size) + " B, tag " + std::to_string(m.tag),
            "sent at " + formatDuration(scale.timeNs(static_cast<double>(m.start))) + ", received "
                + formatDuration(scale.durationNs(static_cast<double>(m.duration()))) + " later"};
}

} // namespace starscope::viewer
