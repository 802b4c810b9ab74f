#include "common/pending_temporaries.hpp"

#include <atomic>
#include <csignal>
#include <cstring>
#include <unistd.h>

namespace starscope::files {

namespace {

// What a signal handler may read: lock-free flags and fixed buffers, no allocation.
struct Slot {
    std::atomic<bool> taken{false};
    std::atomic<bool> named{false};
    char path[4096] = {};
};
static_assert(std::atomic<bool>::is_always_lock_free);

Slot g_slots[PendingTemporary::kSlots];

constexpr std::size_t kNone = PendingTemporary::kSlots;

extern "C" void removeThenDie(int signal) {
    for (auto& slot : g_slots) {
        if (slot.named.load(std::memory_order_acquire)) {
            ::unlink(slot.path);   // async-signal-safe
        }
    }
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

} // namespace

PendingTemporary::PendingTemporary(const std::filesystem::path& temporary) : m_slot(kNone) {
    const std::string& name = temporary.native();
    if (name.size() >= sizeof(Slot::path)) {
        return;
    }
    for (std::size_t s = 0; s < kSlots; ++s) {
        bool free = false;
        if (g_slots[s].taken.compare_exchange_strong(free, true)) {
            std::memcpy(g_slots[s].path, name.c_str(), name.size() + 1);
            g_slots[s].named.store(true, std::memory_order_release);
            m_slot = s;
            return;
        }
    }
}

PendingTemporary::~PendingTemporary() {
    if (m_slot != kNone) {
        g_slots[m_slot].named.store(false, std::memory_order_release);
        g_slots[m_slot].taken.store(false, std::memory_order_release);
    }
}

void removeTemporariesOnStop() {
    for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction current {};
        if (::sigaction(signal, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) {
            continue;
        }
        struct sigaction action {};
        action.sa_handler = removeThenDie;
        sigemptyset(&action.sa_mask);
        ::sigaction(signal, &action, nullptr);
    }
}

} // namespace starscope::files
