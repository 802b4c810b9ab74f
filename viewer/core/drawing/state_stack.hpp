#pragma once
// A folded mark (many spans in a few pixel columns) drawn as the mix of its states: one band
// per state, stacked in a fixed order, each as tall as its share of the mark's time. A blended
// colour turns a 30 % sleeping column into a muddy green that reads as "busy"; stacked bands
// show 30 % red, and the red rises in every worker row at once at a batch transition.

#include "tracer/model/trace.hpp"
#include "viewer/core/drawing/palette.hpp"

#include <cstdint>
#include <vector>

namespace starscope::viewer {

struct StackBand {
    Rgb colour;
    int pixels = 0;
    bool empty = false;   // time with no span: the background (or what lies below) shows

    bool operator==(const StackBand&) const = default;
};

class StateStack {
public:
    StateStack() = default;
    StateStack(const tracer::Trace& trace, const Palette& palette);

    // Bands from top to bottom whose heights sum to heightPx: the part of extentNs no span
    // covers first (empty), then executing, runtime overhead, main-thread states, not
    // profiled, sleeping at the bottom. perState has one entry per state of the trace. Heights
    // are rounded by largest remainder, so they add up exactly and a state keeps its share to
    // within one pixel; bands of zero pixels are left out.
    void stack(const tracer::TimeNs* perState, tracer::TimeNs extentNs, int heightPx, std::vector<StackBand>& out) const;

    // State ids in stacking order, top to bottom.
    const std::vector<std::uint32_t>& order() const { return m_order; }

private:
    std::vector<std::uint32_t> m_order;
    std::vector<Rgb> m_colours;   // per state id
    Rgb m_neutral;                // a mark of zero-length spans only
    mutable std::vector<double> m_remainders;   // scratch, one per band
};

} // namespace starscope::viewer
