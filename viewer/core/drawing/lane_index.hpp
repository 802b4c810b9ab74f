#pragma once
// Per-lane block summaries: prefix sums of time per state, so the colour of a folded run of
// thousands of spans costs a block look-up plus at most kBlock span reads instead of a scan,
// and the end time of each block, a compact array that searches for fold boundaries go
// through before touching one block of spans (a few cache lines instead of a miss per step
// of a bisection over the whole lane).
//
// The prefixes hold a column only for the states the lane uses: a worker never enters the main
// thread's states nor the main thread a worker's. A column for each of a CNN trace's 14 states
// cost 3.5 bytes a span, where its main thread uses 4 of them and a worker 10.

#include "tracer/model/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace starscope::viewer {

class LaneIndex {
public:
    static constexpr std::size_t kBlock = 32;

    LaneIndex() = default;
    LaneIndex(std::span<const tracer::Span> spans, std::size_t stateCount);

    // Adds the time each state takes in spans [first, last) to perState (stateCount entries).
    void addStateTimes(std::span<const tracer::Span> spans, std::size_t first, std::size_t last,
                       tracer::TimeNs* perState) const;
    // Sets perState to the time of each state in spans [0, k). Consecutive marks share
    // boundaries, so a painter computes one prefix per mark and subtracts neighbours.
    void prefixAt(std::span<const tracer::Span> spans, std::size_t k, tracer::TimeNs* perState) const;
    std::size_t stateCount() const { return m_states; }
    // The states the lane's spans use, in id order: the columns of the prefixes.
    const std::vector<std::uint32_t>& usedStates() const { return m_used; }
    // End of the last span of each block of kBlock spans.
    const std::vector<tracer::TimeNs>& blockEnds() const { return m_blockEnd; }

private:
    std::size_t m_states = 0;
    std::vector<std::uint32_t> m_used;
    // m_prefix[b * m_used.size() + c]: time of state m_used[c] in spans [0, b * kBlock).
    std::vector<tracer::TimeNs> m_prefix;
    std::vector<tracer::TimeNs> m_blockEnd;
};

} // namespace starscope::viewer
