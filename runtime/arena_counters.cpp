#include "runtime/arena_counters.hpp"

// sde_lib.hpp defines non-inline operators: it may be included by this one file only.
#include <sde_lib.h>
#include <sde_lib.hpp>

#include <atomic>
#include <map>
#include <mutex>

namespace starscope::runtime {

struct ArenaCounters::Slot {
    std::atomic<const Arena*> arena{nullptr};
    std::size_t field = 0;
};

namespace {

long long readCounter(ArenaCounters::Slot* slot) {
    const Arena* arena = slot->arena.load(std::memory_order_acquire);
    if (arena == nullptr) {
        return 0;
    }
    const ArenaStats s = arena->stats();
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

// Every counter ever registered in the process, by "<library>::<arena>::<counter>".
struct Registry {
    std::mutex mutex;
    std::map<std::string, std::unique_ptr<ArenaCounters::Slot>, std::less<>> slots;
};

Registry& registry() {
    static auto* instance = new Registry; // never destroyed: PAPI may read at exit
    return *instance;
}

} // namespace

ArenaCounters::ArenaCounters(std::string library)
    : m_library(std::move(library)), m_handle(new papi_sde::PapiSde(m_library.c_str())) {}

ArenaCounters::~ArenaCounters() {
    for (Slot* slot : m_slots) {
        slot->arena.store(nullptr, std::memory_order_release);
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
    auto& reg = registry();
    const std::lock_guard lock(reg.mutex);
    const std::string prefix = m_library + "::" + arena.name() + "::";
    for (const auto counter : kCounterNames) {
        const auto it = reg.slots.find(prefix + std::string(counter));
        if (it != reg.slots.end() && it->second->arena.load() != nullptr) {
            return runtimeFailure(RuntimeErrorCode::InvalidArgument,
                                  "PAPI counters: arena '" + arena.name()
                                      + "' is already exported by '" + m_library + "'");
        }
    }
    for (std::size_t field = 0; field < kCounterNames.size(); ++field) {
        auto& slot = reg.slots[prefix + std::string(kCounterNames[field])];
        if (!slot) {
            auto fresh = std::make_unique<Slot>();
            fresh->field = field;
            const std::string name = arena.name() + "::" + std::string(kCounterNames[field]);
            const int mode = PAPI_SDE_RO | (isCumulative(field) ? PAPI_SDE_DELTA : PAPI_SDE_INSTANT);
            const int status =
                sdeOf(m_handle).register_counter_cb(name.c_str(), mode, &readCounter, *fresh);
            if (status != SDE_OK) {
                reg.slots.erase(prefix + std::string(kCounterNames[field]));
                return runtimeFailure(RuntimeErrorCode::PapiFailed,
                                      "PAPI counters: registering '"
                                          + eventName(arena.name(), kCounterNames[field])
                                          + "' failed (papi_sde status " + std::to_string(status)
                                          + ")");
            }
            slot = std::move(fresh);
        }
        slot->arena.store(&arena, std::memory_order_release);
        m_slots.push_back(slot.get());
    }
    return Done{};
}

void ArenaCounters::remove(const Arena& arena) {
    const std::lock_guard lock(registry().mutex);
    for (auto it = m_slots.begin(); it != m_slots.end();) {
        if ((*it)->arena.load() == &arena) {
            (*it)->arena.store(nullptr, std::memory_order_release);
            it = m_slots.erase(it);
        } else {
            ++it;
        }
    }
}

} // namespace starscope::runtime
