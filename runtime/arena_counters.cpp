#include "runtime/arena_counters.hpp"

// sde_lib.hpp defines non-inline operators: it may be included by this one file only.
#include <sde_lib.h>
#include <sde_lib.hpp>

#include <algorithm>
#include <cstddef>

namespace starscope::runtime {

struct ArenaCounters::Slot {
    const Arena* arena = nullptr;
    std::size_t field = 0;
    std::string eventName; // "<arena>::<counter>"
};

namespace {

long long readCounter(ArenaCounters::Slot* slot) {
    const ArenaStats s = slot->arena->stats();
    std::uint64_t value = 0;
    switch (slot->field) {
    case 0: value = s.bytesInUse; break;
    case 1: value = s.peakBytes; break;
    case 2: value = s.bytesReserved; break;
    case 3: value = s.blocks; break;
    case 4: value = s.resets; break;
    case 5: value = s.handlesTracked; break;
    case 6: value = s.totalWaitNs; break;
    case 7: value = s.maxWaitNs; break;
    case 8: value = s.lastWaitNs; break;
    default: break;
    }
    return static_cast<long long>(value);
}

// Gauges are read as they are; cumulative counters let PAPI report the change since start.
bool isCumulative(std::size_t field) {
    return field == 4 || field == 6;
}

papi_sde::PapiSde& sdeOf(void* handle) {
    return *static_cast<papi_sde::PapiSde*>(handle);
}

} // namespace

ArenaCounters::ArenaCounters(std::string library)
    : m_library(std::move(library)), m_handle(new papi_sde::PapiSde(m_library.c_str())) {}

ArenaCounters::~ArenaCounters() {
    for (const auto& slot : m_slots) {
        sdeOf(m_handle).unregister_counter(slot->eventName.c_str());
    }
    delete static_cast<papi_sde::PapiSde*>(m_handle);
}

std::string ArenaCounters::eventName(std::string_view arena, std::string_view counter) const {
    std::string name = "sde:::";
    name += m_library;
    name += "::";
    name += arena;
    name += "::";
    name += counter;
    return name;
}

RuntimeResult<Done> ArenaCounters::add(const Arena& arena) {
    const bool known = std::any_of(m_slots.begin(), m_slots.end(), [&](const auto& slot) {
        return slot->arena == &arena || slot->eventName.starts_with(arena.name() + "::");
    });
    if (known) {
        return runtimeFailure(RuntimeErrorCode::InvalidArgument,
                              "PAPI counters: arena '" + arena.name() + "' is already exported by '"
                                  + m_library + "'");
    }
    for (std::size_t field = 0; field < kCounterNames.size(); ++field) {
        auto slot = std::make_unique<Slot>();
        slot->arena = &arena;
        slot->field = field;
        slot->eventName = arena.name() + "::" + std::string(kCounterNames[field]);
        const int mode = PAPI_SDE_RO | (isCumulative(field) ? PAPI_SDE_DELTA : PAPI_SDE_INSTANT);
        const int status = sdeOf(m_handle).register_counter_cb(slot->eventName.c_str(), mode,
                                                               &readCounter, *slot);
        if (status != SDE_OK) {
            remove(arena);
            return runtimeFailure(RuntimeErrorCode::PapiFailed,
                                  "PAPI counters: registering '" + eventName(arena.name(), kCounterNames[field])
                                      + "' failed (papi_sde status " + std::to_string(status) + ")");
        }
        m_slots.push_back(std::move(slot));
    }
    return Done{};
}

void ArenaCounters::remove(const Arena& arena) {
    for (auto it = m_slots.begin(); it != m_slots.end();) {
        if ((*it)->arena == &arena) {
            sdeOf(m_handle).unregister_counter((*it)->eventName.c_str());
            it = m_slots.erase(it);
        } else {
            ++it;
        }
    }
}

} // namespace starscope::runtime
