#include "tracer/analysis/idle_gaps.hpp"

#include <algorithm>

namespace starscope::tracer {

std::vector<IdleGap> laneIdleGaps(std::span<const Span> spans, const std::vector<std::uint8_t>& covers, TimeNs threshold,
                                  const std::function<bool(const Span&)>& starpus) {
    std::vector<IdleGap> gaps;
    bool started = false;
    TimeNs coverEnd = 0;
    for (const Span& span : spans) {
        if (span.state >= covers.size() || covers[span.state] == 0 || (starpus && span.runsTask != 0 && starpus(span))) {
            continue;
        }
        const TimeNs start = span.start;
        if (!started) {
            gaps.push_back(IdleGap{IdleGap::kBeforeAll, start});
            started = true;
            coverEnd = span.end;
            continue;
        }
        if (start > coverEnd && start - coverEnd > threshold) {
            gaps.push_back(IdleGap{coverEnd, start});
        }
        coverEnd = std::max<TimeNs>(coverEnd, span.end);
    }
    if (started) {
        gaps.push_back(IdleGap{coverEnd, IdleGap::kAfterAll});
    }
    return gaps;
}

namespace {

// Both lists sorted and disjoint (open intervals): so is what they share.
std::vector<IdleGap> intersect(const std::vector<IdleGap>& a, const std::vector<IdleGap>& b) {
    std::vector<IdleGap> out;
    out.reserve(std::min(a.size(), b.size()));
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        const TimeNs from = std::max(a[i].from, b[j].from);
        const TimeNs to = std::min(a[i].to, b[j].to);
        if (from < to) {
            out.push_back(IdleGap{from, to});
        }
        // The one ending first meets nothing more of the other; ending together, neither does.
        const TimeNs aTo = a[i].to;
        const TimeNs bTo = b[j].to;
        i += aTo <= bTo ? 1 : 0;
        j += bTo <= aTo ? 1 : 0;
    }
    return out;
}

} // namespace

std::vector<IdleGap> sharedIdleGaps(std::span<const std::vector<IdleGap>* const> lists) {
    if (lists.empty()) {
        return {IdleGap{}};
    }
    // Shortest first: every step's result is no longer than the shorter list.
    std::vector<const std::vector<IdleGap>*> order(lists.begin(), lists.end());
    std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->size() < b->size(); });
    std::vector<IdleGap> shared = *order.front();
    for (std::size_t k = 1; k < order.size() && !shared.empty(); ++k) {
        shared = intersect(shared, *order[k]);
    }
    return shared;
}

} // namespace starscope::tracer
