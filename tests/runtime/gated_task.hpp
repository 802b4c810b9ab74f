#pragma once
// A StarPU task held until the test opens its gate: tests show what a reset waits for by order
// (it returns only after the gate opened), not by timing.

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <starpu.h>

namespace starscope::runtime::testing {

struct Gate {
    std::mutex mutex;
    std::condition_variable opened;
    bool open = false;
    std::atomic<bool> finished{false};

    void release() {
        const std::lock_guard lock(mutex);
        open = true;
        opened.notify_all();
    }
};

// A codelet "test_gated" of one RW buffer; its cl_arg is the Gate. Its workers sleep in the
// gate, not on the CPU.
inline starpu_codelet* gatedCodelet() {
    static starpu_codelet codelet = [] {
        starpu_codelet c;
        starpu_codelet_init(&c);
        c.cpu_funcs[0] = [](void* /*buffers*/[], void* arg) {
            auto* gate = static_cast<Gate*>(arg);
            std::unique_lock lock(gate->mutex);
            gate->opened.wait(lock, [gate] { return gate->open; });
            gate->finished.store(true, std::memory_order_release);
        };
        c.nbuffers = 1;
        c.modes[0] = STARPU_RW;
        c.name = "test_gated";
        return c;
    }();
    return &codelet;
}

} // namespace starscope::runtime::testing
