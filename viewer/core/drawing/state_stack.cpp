#include "viewer/core/drawing/state_stack.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace starscope::viewer {

using tracer::StateClass;
using tracer::TimeNs;

StateStack::StateStack(const tracer::Trace& trace, const Palette& palette) {
    // Work on top, waiting at the bottom: the sleeping share reads as a bar rising from the
    // row's base line, the same in every row.
    constexpr std::array<StateClass, 6> kTopToBottom{StateClass::Executing,   StateClass::Overhead,
                                                     StateClass::User,        StateClass::Tracing,
                                                     StateClass::NotProfiled, StateClass::Sleeping};
    for (const StateClass cls : kTopToBottom) {
        for (std::size_t s = 0; s < trace.states.size(); ++s) {
            if (trace.states[s].cls == cls) {
                m_order.push_back(static_cast<std::uint32_t>(s));
            }
        }
    }
    m_colours.reserve(trace.states.size());
    for (std::size_t s = 0; s < trace.states.size(); ++s) {
        m_colours.push_back(palette.stateColour(static_cast<std::uint32_t>(s)));
    }
    const std::vector<TimeNs> none(trace.states.size(), 0);
    m_neutral = palette.blend(none.data());
}

void StateStack::stack(const TimeNs* perState, TimeNs extentNs, int heightPx, std::vector<StackBand>& out) const {
    out.clear();
    if (heightPx <= 0) {
        return;
    }
    TimeNs covered = 0;
    for (const std::uint32_t s : m_order) {
        covered += std::max<TimeNs>(0, perState[s]);
    }
    if (covered <= 0) {
        out.push_back({m_neutral, heightPx, false});
        return;
    }
    const TimeNs total = std::max(covered, extentNs);
    const double scale = static_cast<double>(heightPx) / static_cast<double>(total);
    // Floors first, then the leftover pixels to the largest remainders (earliest band on ties).
    m_remainders.clear();
    int given = 0;
    const auto add = [&](Rgb colour, TimeNs time, bool empty) {
        if (time <= 0) {
            return;
        }
        const double exact = static_cast<double>(time) * scale;
        const double whole = std::floor(exact);
        out.push_back({colour, static_cast<int>(whole), empty});
        m_remainders.push_back(exact - whole);
        given += static_cast<int>(whole);
    };
    add(kBackground, total - covered, true);
    for (const std::uint32_t s : m_order) {
        add(m_colours[s], perState[s], false);
    }
    for (int left = heightPx - given; left > 0; --left) {
        const auto best = std::max_element(m_remainders.begin(), m_remainders.end());
        out[static_cast<std::size_t>(best - m_remainders.begin())].pixels += 1;
        *best = -1.0;
    }
    std::erase_if(out, [](const StackBand& band) { return band.pixels == 0; });
}

} // namespace starscope::viewer
