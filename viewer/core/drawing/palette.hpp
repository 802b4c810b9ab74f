#pragma once
// Colours of the Gantt chart: executing in greens (one shade per codelet of the program, chosen
// by its name so that it is the same in every trace and every panel of a comparison, and one
// pale mint for all of StarPU's own tasks, so the two never share a colour or a key entry),
// sleeping in red, waiting for data in amber, the rest of the runtime's overhead in neutral
// greys, the main thread's states in distinct hues. Plain RGB so the core stays free of Qt.

#include "tracer/model/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
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

// Which shade of green each of the program's codelets is drawn in. A codelet's shade comes from
// a hash of its name, not from where it first appears, so one codelet has one colour in two
// traces whose tasks come in another order and, given the codelets of all the panels at once, in
// every panel of a comparison. Codelets whose hash falls on a shade taken by one before them in
// name order move to the next free shade: the codelets given are told apart while there are
// shades, and then share them.
class CodeletShades {
public:
    CodeletShades() = default;
    // names: the program's codelets (programCodelets), in any order, repeats allowed.
    explicit CodeletShades(std::vector<std::string> names);

    // The codelet's shade index (codeletShade); its hash's when it was not given.
    std::size_t shadeIndexOf(std::string_view codelet) const;
    Rgb shadeOf(std::string_view codelet) const;

    bool operator==(const CodeletShades&) const = default;

private:
    std::map<std::string, std::size_t, std::less<>> m_shadeOf;
};

// Whether the trace's tasks run each name (indexed by NameId) as their codelet, StarPU's own
// included. The tasks are read only until every codelet key has been seen (in the first batch,
// as a rule), not all of them (47 M tasks of 32 bytes on a 100 M-span job).
std::vector<bool> codeletsRun(const tracer::Trace& trace);
// The names of the program's codelets the trace's tasks run (StarPU's own left out), in order of
// interning.
std::vector<std::string> programCodelets(const tracer::Trace& trace);
// Per state of the trace: whether a span of any lane and level is in it.
std::vector<bool> usedStates(const tracer::Trace& trace);

class Palette {
public:
    Palette() = default;
    // Codelet shades from the trace's own codelets.
    explicit Palette(const tracer::Trace& trace);
    // Codelet shades given: shared by the panels of a comparison.
    Palette(const tracer::Trace& trace, const CodeletShades& shades);
    // The states the trace's spans use given too (usedStates, or what the lanes' indexes
    // found): a trace's spans are not read again for it.
    Palette(const tracer::Trace& trace, const CodeletShades& shades, const std::vector<bool>& used);

    Rgb stateColour(std::uint32_t state) const;
    // The colour of a codelet's tasks by name: its shade, or StarPU's mint for StarPU's own.
    Rgb codeletColour(std::string_view codelet) const;
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
    std::vector<Rgb> m_keyColours;    // per codelet key: the shade of its codelet
    std::vector<LegendEntry> m_legend;
    CodeletShades m_shades;
};

// The i-th shade of green for codelets (cycling through a fixed set), and how many there are.
Rgb codeletShade(std::size_t index);
std::size_t codeletShadeCount();
// Whether a colour reads as a given hue family; used by render tests and kept here so that
// the definition of "green" follows the palette.
bool isGreenish(Rgb colour);
bool isReddish(Rgb colour);

} // namespace starscope::viewer
