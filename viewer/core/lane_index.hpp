#pragma once
// Per-lane block prefix sums of time per state, so the colour of a folded run of thousands of
// spans costs two block look-ups plus at most 2 * kBlock span reads instead of a scan.

#include "tracer/model/trace.hpp"

#include <cstddef>
#include <vector>

namespace starscope::viewer {

class LaneIndex {
public:
    static constexpr std::size_t kBlock = 64;

    LaneIndex() = default;
    LaneIndex(const std::vector<tracer::Span>& spans, std::size_t stateCount);

    // Adds the time each state takes in spans [first, last) to perState (stateCount entries).
    void addStateTimes(const std::vector<tracer::Span>& spans, std::size_t first, std::size_t last,
                       tracer::TimeNs* perState) const;
    std::size_t stateCount() const { return m_states; }

private:
    std::size_t m_states = 0;
    // m_prefix[b * m_states + s]: time of state s in spans [0, b * kBlock).
    std::vector<tracer::TimeNs> m_prefix;
};

} // namespace starscope::viewer
