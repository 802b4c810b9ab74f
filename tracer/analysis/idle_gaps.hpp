#pragma once
// Where workers execute nothing, found lane by lane: each worker's own long gaps between the
// spans that cover time (executing, or not profiled), then the gaps all the workers of a scope
// share, by intersecting their lists. The gaps of the union of a scope's covering spans are the
// intersection of its lanes' gaps, and a shared gap longer than the threshold lies in a gap at
// least as long on every lane: so each lane keeps only its gaps longer than the threshold (a few
// per batch), its spans are read once, in order, whatever the number of lanes (a k-way merge of
// every lane's spans paid a heap step per span), and the lists of one read serve the job and
// each rank alike (findJobAndRankBarriers read every span of the job five times for 4 ranks).

#include "tracer/model/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <vector>

namespace starscope::tracer {

// An open interval (from, to) a lane spends covering nothing. A lane is idle before its first
// covering span (from = kBeforeAll) and after its last (to = kAfterAll).
struct IdleGap {
    static constexpr TimeNs kBeforeAll = std::numeric_limits<TimeNs>::min();
    static constexpr TimeNs kAfterAll = std::numeric_limits<TimeNs>::max();

    TimeNs from = kBeforeAll;
    TimeNs to = kAfterAll;

    bool bounded() const { return from != kBeforeAll && to != kAfterAll; }
    bool operator==(const IdleGap&) const = default;
};

// covers[state] != 0 for the states that count as covering time (a state id beyond covers
// covers nothing). A lane without any covering span gives {} (it constrains nothing, as a
// lane that does not exist); otherwise its gaps in time order, the two unbounded ones and every
// bounded one longer than threshold.
// starpus, when given, tells the spans that run StarPU's own tasks (starpu_tasks.hpp), which cover
// nothing: the program's work is what it runs. Asked only of covering spans that run a task, in
// time order.
std::vector<IdleGap> laneIdleGaps(std::span<const Span> spans, const std::vector<std::uint8_t>& covers, TimeNs threshold,
                                  const std::function<bool(const Span&)>& starpus = {});

// The gaps every list shares (each list as laneIdleGaps gives it, none empty), in time order:
// the unbounded ones included, and bounded ones of any length (the caller keeps those longer
// than its threshold). No list at all shares the whole time line: {IdleGap{}}.
std::vector<IdleGap> sharedIdleGaps(std::span<const std::vector<IdleGap>* const> lists);

} // namespace starscope::tracer
