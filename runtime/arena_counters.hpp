#pragma once
// Exports arena statistics as PAPI software-defined events (PAPI's sde component), so any PAPI
// tool can read, e.g., the reset wait of arena "batch0" as the event
//   sde:::starscope::batch0::wait_ns
// Counters per arena (all long long):
//   bytes_in_use, peak_bytes, bytes_reserved, blocks, resets, handles_tracked, wait_ns (total),
//   max_wait_ns, last_wait_ns.
// Values are read from Arena::stats() when PAPI reads them (a callback), so they are exact at
// read time; read them from the thread that uses the arena, like stats().
//
// Reading back (what tests/runtime does): PAPI_library_init(PAPI_VER_CURRENT);
// PAPI_event_name_to_code("sde:::starscope::batch0::wait_ns", &code); PAPI_create_eventset;
// PAPI_add_event; PAPI_start; PAPI_read.

#include "runtime/arena.hpp"
#include "runtime/error.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::runtime {

class ArenaCounters {
public:
    static constexpr std::string_view kDefaultLibrary = "starscope";
    static constexpr std::array<std::string_view, 9> kCounterNames = {
        "bytes_in_use", "peak_bytes",   "bytes_reserved", "blocks",      "resets",
        "handles_tracked", "wait_ns",   "max_wait_ns",    "last_wait_ns",
    };

    explicit ArenaCounters(std::string library = std::string(kDefaultLibrary));
    // Detaches every counter (they read 0 until added again). Destroy before the arenas it
    // exports.
    ~ArenaCounters();
    ArenaCounters(const ArenaCounters&) = delete;
    ArenaCounters& operator=(const ArenaCounters&) = delete;

    // Registers "<arena name>::<counter>" for every counter. Fails if an arena of that name
    // is exported already (by any ArenaCounters of the library) or PAPI refuses a registration.
    RuntimeResult<Done> add(const Arena& arena);
    // Detaches the arena's counters (no-op for an arena that was not added).
    void remove(const Arena& arena);

    const std::string& library() const { return m_library; }
    // "sde:::<library>::<arena>::<counter>", the name PAPI_event_name_to_code takes.
    std::string eventName(std::string_view arena, std::string_view counter) const;

    // One registered counter: arena + field, the callback's parameter. Slots live as long as
    // the process: libsde (PAPI 7.0) crashes when a counter is registered again after
    // papi_sde_unregister_counter, so remove() detaches a slot (it then reads 0) and a later
    // add() of the same name re-attaches it.
    struct Slot;

private:
    std::string m_library;
    void* m_handle = nullptr; // papi_handle_t
    std::vector<Slot*> m_slots; // attached by this object
};

} // namespace starscope::runtime
