#pragma once
// StarPU's worker and user-thread states: the short alias its FxT decoder records ("Sl") and
// the name its Paje output shows ("Sleeping"), as starpu_fxt_tool defines them in the Paje
// header (src/debug/traces/starpu_paje.c). They are StarPU's vocabulary, not one reader's: the
// FxT reader names the states of a trace by the table of its StarPU release, the Paje reader
// tells StarPU's runtime states from codelets by it, and the Paje exporter declares StarPU's
// values from it. A release that changes the table gets its own table, never an edit of one.

#include <array>
#include <cstddef>
#include <string_view>

namespace starscope::tracer {

// The user event StarPU records (src/common/fxt.c, 1.3 and 1.4) once FxT's full buffer was
// written to the trace file, from the thread that wrote it: the FxT reader finds that thread by
// it, and the analysis takes it as a barrier's cause in traces that keep no flush otherwise.
inline constexpr std::string_view kFxtFlushEvent = "fxt flush";

struct StarpuState {
    std::string_view alias;   // as StarPU's FxT decoder names it ("Sl")
    std::string_view name;    // as its Paje output shows it ("Sleeping")
};

// StarPU 1.3.10.
inline constexpr StarpuState kStarpu13States[] = {
    {"I", "Idle"},
    {"In", "Initializing"},
    {"D", "Deinitializing"},
    {"Fi", "FetchingInput"},
    {"Po", "PushingOutput"},
    {"C", "Callback"},
    {"B", "Overhead"},
    {"E", "Executing"},
    {"Sc", "Scheduling"},
    {"Sl", "Sleeping"},
    {"P", "Progressing"},
    {"U", "Unpartitioning"},
    {"H", "Hypervisor"},
    {"Bu", "Building task"},
    {"Su", "Submitting task"},
    {"Th", "Throttling task submission"},
    {"MD", "Decoding task for MPI"},
    {"MPr", "Preparing task for MPI"},
    {"MPo", "Post-processing task for MPI"},
    {"W", "Waiting task"},
    {"WA", "Waiting all tasks"},
};

namespace detail {

// table with state inserted after the entry named after (releases add states in place).
template <std::size_t N>
constexpr std::array<StarpuState, N + 1> withStateAfter(const StarpuState (&table)[N], std::string_view after,
                                                        StarpuState state) {
    std::array<StarpuState, N + 1> out{};
    std::size_t o = 0;
    for (const auto& entry : table) {
        out[o++] = entry;
        if (entry.alias == after) {
            out[o++] = state;
        }
    }
    return out;
}

} // namespace detail

// StarPU 1.4.12: 1.3.10's, plus "Ps" for parallel tasks' synchronisation, after "B" as its
// starpu_paje.c declares them.
inline constexpr auto kStarpu14States = detail::withStateAfter(kStarpu13States, "B", {"Ps", "Parallel sync"});
static_assert(kStarpu14States.back().alias == "WA", "\"Ps\" is inserted after \"B\", not appended");

// What a memory node's manager does (starpu_fxt_tool's "MS" states of its "Mm" container), the
// same in 1.3.10 and 1.4.12. StarPU pushes them over each other while several happen at once.
inline constexpr StarpuState kStarpuMemoryNodeStates[] = {
    {"A", "Allocating"},   {"Ar", "AllocatingReuse"},   {"F", "Freeing"},
    {"W", "WritingBack"},  {"Wa", "WritingBackAsync"},  {"R", "Reclaiming"},
    {"Co", "DriverCopy"},  {"CoA", "DriverCopyAsync"},  {"No", "Nothing"},
};

} // namespace starscope::tracer
