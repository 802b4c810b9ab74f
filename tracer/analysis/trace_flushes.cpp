#include "tracer/analysis/trace_flushes.hpp"

#include <algorithm>

namespace starscope::tracer {

std::vector<TraceFlush> findTraceFlushes(const Trace& trace, std::optional<std::int32_t> rank) {
    std::vector<TraceFlush> out;
    std::vector<std::uint8_t> tracing(trace.states.size(), 0);
    bool any = false;
    for (std::size_t s = 0; s < trace.states.size(); ++s) {
        tracing[s] = trace.states[s].cls == StateClass::Tracing ? 1 : 0;
        any = any || tracing[s] != 0;
    }
    // Most traces have no flush: their spans are not walked.
    if (!any) {
        return out;
    }
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        const auto& lane = trace.lanes[l];
        if (rank && lane.rank != *rank) {
            continue;
        }
        for (const auto& span : lane.spans()) {
            if (span.state < tracing.size() && tracing[span.state] != 0) {
                out.push_back(
                    TraceFlush{static_cast<std::int32_t>(l), lane.rank, span.start, span.end});
            }
        }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const TraceFlush& a, const TraceFlush& b) { return a.start < b.start; });
    return out;
}

FlushTimeline::FlushTimeline(const std::vector<TraceFlush>& flushes) {
    for (const auto& f : flushes) {
        if (!m_intervals.empty() && f.start <= m_intervals.back().end) {
            m_intervals.back().end = std::max(m_intervals.back().end, f.end);
        } else if (f.end > f.start) {
            m_intervals.push_back(Interval{f.start, f.end});
        }
    }
}

TimeNs FlushTimeline::within(TimeNs from, TimeNs to) const {
    // The intervals' ends are sorted too (disjoint): the first one ending after `from` on.
    auto it = std::upper_bound(m_intervals.begin(), m_intervals.end(), from,
                               [](TimeNs t, const Interval& i) { return t < i.end; });
    TimeNs sum = 0;
    for (; it != m_intervals.end() && it->start < to; ++it) {
        sum += std::min(to, it->end) - std::max(from, it->start);
    }
    return sum;
}

} // namespace starscope::tracer
