// Random stress: 10,000 rounds of random allocations (sizes, alignments), handles with tasks of
// random delays that check their memory was not handed out again under them, and random
// blocking and deferred resets. Meant to run clean under the asan preset too.

#include "runtime/arena.hpp"

#include <gtest/gtest.h>
#include <starpu.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <vector>
#include <random>
#include <thread>

using starscope::runtime::Arena;
using starscope::runtime::ArenaOptions;

namespace {

constexpr int kRounds = 10000;

std::atomic<long> g_completed{0};
std::atomic<long> g_corrupted{0};

// Lives in the arena next to the buffer it describes.
struct CheckArgs {
    std::uint8_t tag;
    std::uint32_t delayUs;
    std::atomic<bool>* done; // owned by the test: read after the arena memory is reused
};

bool intact(const std::uint8_t* data, std::size_t bytes, std::uint8_t tag) {
    for (std::size_t i = 0; i < bytes; ++i) {
        if (data[i] != tag) {
            return false;
        }
    }
    return true;
}

void checkTask(void* buffers[], void* arg) {
    const auto* args = static_cast<const CheckArgs*>(arg);
    auto* data = reinterpret_cast<std::uint8_t*>(STARPU_VECTOR_GET_PTR(buffers[0]));
    const std::size_t bytes = STARPU_VECTOR_GET_NX(buffers[0]);
    bool ok = intact(data, bytes, args->tag);
    if (args->delayUs > 0) {
        std::this_thread::sleep_for(std::chrono::microseconds(args->delayUs));
    }
    // The main thread overwrites reused memory with another tag: a premature reuse shows here.
    ok = ok && intact(data, bytes, args->tag);
    if (!ok) {
        g_corrupted.fetch_add(1, std::memory_order_relaxed);
    }
    args->done->store(true, std::memory_order_release);
    g_completed.fetch_add(1, std::memory_order_release);
}

starpu_codelet* checkCodelet() {
    static starpu_codelet codelet = [] {
        starpu_codelet c;
        starpu_codelet_init(&c);
        c.cpu_funcs[0] = checkTask;
        c.nbuffers = 1;
        c.modes[0] = STARPU_R;
        c.name = "stress_check";
        return c;
    }();
    return &codelet;
}

} // namespace

TEST(ArenaStress, RandomAllocationsTasksAndResetsNeverReuseMemoryInUse) {
    ArenaOptions options;
    options.firstBlockBytes = 16 * 1024;
    options.traceMarkers = false;
    Arena arena("stress", options);
    const unsigned seed = 20240611U;
    std::mt19937 rng(seed);
    constexpr std::array<std::size_t, 6> kAlignments = {0, 1, 8, 64, 256, 4096};
    long submitted = 0;
    long blockingResets = 0;
    long deferredResets = 0;
    std::deque<std::atomic<bool>> doneFlags;
    std::vector<std::atomic<bool>*> sinceReset; // tasks on the handles tracked right now
    for (int round = 0; round < kRounds; ++round) {
        const auto tag = static_cast<std::uint8_t>(round % 255 + 1);
        const auto allocations = 1 + rng() % 3;
        for (std::size_t a = 0; a < allocations; ++a) {
            std::size_t bytes = 1 + rng() % 4096;
            if (rng() % 100 == 0) {
                bytes = 64 * 1024 + rng() % (256 * 1024); // now and then a new, larger block
            }
            const std::size_t alignment = kAlignments[rng() % kAlignments.size()];
            auto* data = static_cast<std::uint8_t*>(arena.allocate(bytes, alignment));
            ASSERT_NE(data, nullptr) << "round " << round;
            if (alignment != 0) {
                ASSERT_EQ(reinterpret_cast<std::uintptr_t>(data) % alignment, 0U);
            }
            std::memset(data, tag, bytes);
            if (rng() % 10 < 7) {
                auto handle = arena.registerVector(data, bytes, 1);
                ASSERT_TRUE(handle) << handle.error().message;
                auto* args = arena.allocateArray<CheckArgs>(1);
                ASSERT_NE(args, nullptr);
                auto& done = doneFlags.emplace_back(false);
                sinceReset.push_back(&done);
                *args = CheckArgs{tag, rng() % 4 == 0 ? static_cast<std::uint32_t>(rng() % 200) : 0U,
                                  &done};
                starpu_task* task = starpu_task_create();
                task->cl = checkCodelet();
                task->handles[0] = *handle;
                task->cl_arg = args;
                ASSERT_EQ(starpu_task_submit(task), 0);
                ++submitted;
            }
        }
        const auto dice = rng() % 100;
        if (dice < 8) {
            arena.reset();
            ++blockingResets;
            // Every task on the handles it released must have finished.
            for (const auto* done : sinceReset) {
                ASSERT_TRUE(done->load(std::memory_order_acquire)) << "round " << round;
            }
            sinceReset.clear();
            ASSERT_EQ(arena.stats().bytesInUse, 0U);
        } else if (dice < 12) {
            arena.resetDeferred();
            ++deferredResets;
            sinceReset.clear();
        }
    }
    arena.waitDeferred();
    arena.reset();
    starpu_task_wait_for_all();
    EXPECT_EQ(g_completed.load(), submitted);
    EXPECT_EQ(g_corrupted.load(), 0) << "tasks saw their memory overwritten (seed " << seed << ")";
    const auto s = arena.stats();
    EXPECT_EQ(s.resets, static_cast<std::uint64_t>(blockingResets + deferredResets + 1));
    EXPECT_EQ(s.deferredResets, static_cast<std::uint64_t>(deferredResets));
    EXPECT_EQ(s.handlesTracked, 0U);
    EXPECT_EQ(s.pendingDeferred, 0U);
    EXPECT_GT(s.peakBytes, 0U);
    EXPECT_GT(blockingResets, 100);
    EXPECT_GT(deferredResets, 100);
}
