#include "viewer/core/drawing/lane_index.hpp"

#include <algorithm>
#include <cassert>
#include <span>

namespace starscope::viewer {

using tracer::Span;
using tracer::TimeNs;

LaneIndex::LaneIndex(std::span<const Span> spans, std::size_t stateCount) : m_states(stateCount) {
    constexpr auto kUnused = static_cast<std::uint32_t>(-1);
    std::vector<std::uint32_t> column(m_states, kUnused);
    for (const Span& span : spans) {
        assert(span.state < m_states);
        column[span.state] = 0;
    }
    for (std::size_t s = 0; s < m_states; ++s) {
        if (column[s] != kUnused) {
            column[s] = static_cast<std::uint32_t>(m_used.size());
            m_used.push_back(static_cast<std::uint32_t>(s));
        }
    }
    const std::size_t columns = m_used.size();
    const std::size_t blocks = spans.size() / kBlock + 1;
    m_prefix.assign(blocks * columns, 0);
    std::vector<TimeNs> running(columns, 0);
    for (std::size_t i = 0; i < spans.size(); ++i) {
        if (i % kBlock == 0) {
            std::copy(running.begin(), running.end(), m_prefix.begin() + static_cast<std::ptrdiff_t>((i / kBlock) * columns));
        }
        running[column[spans[i].state]] += spans[i].duration();
    }
    m_blockEnd.reserve((spans.size() + kBlock - 1) / kBlock);
    for (std::size_t last = kBlock; last < spans.size() + kBlock; last += kBlock) {
        m_blockEnd.push_back(spans[std::min(last, spans.size()) - 1].end);
    }
    if (spans.size() % kBlock == 0) {
        // The loop never reaches the boundary at the very end: store it too.
        std::copy(running.begin(), running.end(), m_prefix.begin() + static_cast<std::ptrdiff_t>((spans.size() / kBlock) * columns));
    }
}

void LaneIndex::addStateTimes(std::span<const Span> spans, std::size_t first, std::size_t last,
                              TimeNs* perState) const {
    assert(first <= last && last <= spans.size());
    const std::size_t firstBlock = (first + kBlock - 1) / kBlock;
    const std::size_t lastBlock = last / kBlock;
    if (firstBlock >= lastBlock) {
        for (std::size_t i = first; i < last; ++i) {
            perState[spans[i].state] += spans[i].duration();
        }
        return;
    }
    // [first, firstBlock*B) directly, whole blocks from the prefix, [lastBlock*B, last) directly.
    for (std::size_t i = first; i < firstBlock * kBlock; ++i) {
        perState[spans[i].state] += spans[i].duration();
    }
    const std::size_t columns = m_used.size();
    const TimeNs* lo = m_prefix.data() + firstBlock * columns;
    const TimeNs* hi = m_prefix.data() + lastBlock * columns;
    for (std::size_t c = 0; c < columns; ++c) {
        perState[m_used[c]] += hi[c] - lo[c];
    }
    for (std::size_t i = lastBlock * kBlock; i < last; ++i) {
        perState[spans[i].state] += spans[i].duration();
    }
}

void LaneIndex::prefixAt(std::span<const Span> spans, std::size_t k, TimeNs* perState) const {
    assert(k <= spans.size());
    const std::size_t block = k / kBlock;
    const std::size_t columns = m_used.size();
    std::fill_n(perState, m_states, TimeNs{0});
    const TimeNs* prefix = m_prefix.data() + block * columns;
    for (std::size_t c = 0; c < columns; ++c) {
        perState[m_used[c]] = prefix[c];
    }
    for (std::size_t i = block * kBlock; i < k; ++i) {
        perState[spans[i].state] += spans[i].duration();
    }
}

} // namespace starscope::viewer
