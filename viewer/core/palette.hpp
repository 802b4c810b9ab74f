#pragma once
// Colours of the Gantt chart: executing in greens (one shade per codelet of the program, and
// one pale mint for all of StarPU's own tasks, so the two never share a colour or a key entry),
// sleeping in red, waiting for data in amber, the rest of the runtime's overhead in neutral
// greys, the main thread's states in distinct hues. Plain RGB so the core stays free of Qt.

#include "tracer/model/trace.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::viewer {

struct Rgb {
    std::uint8_t r = 0;
    std::uint8_t g = 0;
    std::uint8_t b = 0;

    bool operator==(const Rgb&) const = default;
};

inline constexpr Rgb kExecutingGreen{46, 160, 67};
inline constexpr Rgb kSleepingRed{214, 39, 40};
// FxT profiling stopped: pale blue-grey, far from the greens, reds and runtime greys.
inline constexpr Rgb kNotProfiledGrey{188, 198, 222};
// FxT writing its full buffer (the tracing's own cost): near black, apart from work, waiting,
// the runtime's greys and the main thread's hues.
inline constexpr Rgb kTraceFlushInk{45, 45, 60};
inline constexpr Rgb kBackground{255, 255, 255};
// A worker in FetchingInput, its task's data not on its memory node yet (on a machine with GPUs
// the cost a user can act on: prefetching, placement): amber, apart from sleeping red, the
// runtime's greys, the codelets' greens and the main thread's orange and olive.
inline constexpr Rgb kWaitingForDataAmber{240, 190, 0};
inline constexpr std::string_view kWaitingForDataLabel = "Waiting for data";
// StarPU's own tasks (tracer::isStarpuInternalCodelet: _starpu_data_acquire_post, ...): one
// pale mint, still an executing green, never one of the program's shades, one key entry.
inline constexpr Rgb kStarpuTaskMint{170, 210, 185};
inline constexpr std::string_view kStarpuTasksLabel = "StarPU's own tasks (_starpu*)";

struct LegendEntry {
    std::string label;
    Rgb colour;

    bool operator==(const LegendEntry&) const = default;
};

class Palette {
public:
    Palette() = default;
    explicit Palette(const tracer::Trace& trace);

    Rgb stateColour(std::uint32_t state) const;
    // The codelet's shade for a span of that lane running a task, otherwise its state's colour.
    Rgb spanColour(const tracer::Trace& trace, const tracer::Lane& lane, const tracer::Span& span) const;
    // The time-weighted mix of state colours; perState has one entry per state.
    Rgb blend(const tracer::TimeNs* perState) const;
    // A colour key of what the trace uses, one entry per colour: the executing state is
    // replaced by its codelets' shades, each naming its codelets; states of one colour share
    // an entry ("Sleeping / Idle").
    const std::vector<LegendEntry>& legend() const { return m_legend; }
    std::size_t stateCount() const { return m_states.size(); }

private:
    std::vector<Rgb> m_states;
    std::vector<bool> m_executing;    // per state
    std::vector<Rgb> m_taskColours;   // per task: the shade of its codelet
    std::vector<LegendEntry> m_legend;
};

// The shade of green of the program's i-th codelet (cycling through a fixed set).
Rgb codeletShade(std::size_t index);
// Whether a colour reads as a given hue family; used by render tests and kept here so that
// the definition of "green" follows the palette.
bool isGreenish(Rgb colour);
bool isReddish(Rgb colour);

} // namespace starscope::viewer
