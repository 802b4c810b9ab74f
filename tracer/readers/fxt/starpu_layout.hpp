#pragma once
// The StarPU versions whose FxT traces starscope decodes, what differs between their layouts
// for the events it reads, and how a trace tells which version wrote it. StarPU writes no
// version into its traces, so the layout is recognised from the events themselves.

#include "tracer/model/starpu_states.hpp"
#include "tracer/model/trace.hpp"
#include "tracer/readers/fxt/fxt_source.hpp"
#include "tracer/readers/fxt/starpu_records.hpp"   // WorkerKind

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace starscope::tracer::detail {

// FxT's own events (fut.h of libfxt): the key mask at setup and at every change.
inline constexpr std::uint64_t kFutSetupCode = 0xffff;
inline constexpr std::uint64_t kFutKeychangeCode = 0xfffe;
// ... and around each write of its full buffer to the trace file (when StarPU lets it flush).
inline constexpr std::uint64_t kFutStartFlushCode = 0xfff5;
inline constexpr std::uint64_t kFutStopFlushCode = 0xfff4;

// Both versions' starpu_fxt_stop_profiling() write this event first. 1.3 then switches every
// key off, and libfxt records no key change to an empty mask: this event is the only mark.
inline constexpr std::string_view kStopProfilingEvent = "stop_profiling";

// Codes the FxT reader asks the event sources for: StarPU's and FxT's own.
inline constexpr std::uint64_t kFirstDecodedCode = 0x5100;
inline constexpr std::uint64_t kLastDecodedCode = 0xffff;

// What differs between releases in the events the reader decodes, as data taken from each
// release's codes header (starpu_1_3_10_codes.hpp, starpu_1_4_12_codes.hpp), where they are
// checked against that release's source. decodeStarpuEvent reads events through it.
struct StarpuFxtLayout {
    std::string_view version;                 // the release the codes were checked against
    std::span<const StarpuState> states;      // the release's state table
    std::optional<WorkerKind> (*workerKind)(std::uint64_t key);   // nullopt: unknown key
    std::uint32_t codeletBodyParams = 4;      // StartCodeletBody's parameters
    std::optional<std::uint32_t> codeletNameFlagAt;   // 1.3: has_name there, the name after it
    std::uint32_t taskNameAt = 1;             // first parameter of TaskName's string
    std::optional<TransferKind> (*transferKind)(std::uint64_t prefetch) = nullptr;   // of a driver copy
    // The key mask's bits are StarPU 1.4's event categories (tracer/model/fxt_event_set.hpp), so
    // the mask tells what the trace left out; 1.3 records every event.
    bool maskSelectsCategories = false;
    // Profiling is stopped while the key mask has no bit but FUT_KEYMASK0 (1.4 keeps its
    // "meta" events there; 1.3 switches every bit off).
    static bool profilingStopped(std::uint64_t keymask) { return (keymask & ~std::uint64_t{1}) == 0; }
};

const StarpuFxtLayout& starpu13Layout();
const StarpuFxtLayout& starpu14Layout();

// Watches a trace's events in file order until one of them can only come from one layout.
class LayoutSniffer {
public:
    // The layout, once an event (this one or an earlier one) decided it.
    const StarpuFxtLayout* feed(const RawEvent& ev);
    const StarpuFxtLayout* decided() const { return m_decided; }
    // What decided it, for the trace's metadata ("StartCodeletBody with 4 parameters").
    std::string_view reason() const { return m_reason; }

private:
    const StarpuFxtLayout* decide(const StarpuFxtLayout& layout, std::string_view reason);

    const StarpuFxtLayout* m_decided = nullptr;
    std::string_view m_reason;
};

} // namespace starscope::tracer::detail
