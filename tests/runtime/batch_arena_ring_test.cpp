// BatchArenaRing: which slot a batch uses and which earlier batch its beginBatch() waits for,
// for N = 1, 2, 3. Tasks are held by gates the test opens, so "waits for batch j" is shown by
// order (the reset returns only after gate j opened, while later batches' gates stay shut).

#include "runtime/batch_arena_ring.hpp"
#include "tests/runtime/gated_task.hpp"

#include <gtest/gtest.h>
#include <starpu.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <thread>
#include <vector>

using starscope::runtime::ArenaOptions;
using starscope::runtime::BatchArenaRing;

namespace {

// Gated tasks of up to 3 batches run at once: give StarPU enough workers (they sleep in the
// gate, not on the CPU). Set before the environment's starpu_init.
[[maybe_unused]] const int g_workers = ::setenv("STARPU_NCPU", "4", 1);

using starscope::runtime::testing::Gate;
using starscope::runtime::testing::gatedCodelet;

ArenaOptions quiet() {
    ArenaOptions options;
    options.firstBlockBytes = 4096;
    return options;
}

class RingBlocking : public ::testing::TestWithParam<std::size_t> {};

} // namespace

TEST(BatchArenaRing, SlotsCycleOverTheWholeRunAcrossEpochs) {
    BatchArenaRing ring(3, "cycle", quiet());
    EXPECT_EQ(ring.size(), 3U);
    EXPECT_EQ(ring.slot(0).name(), "cycle0");
    EXPECT_EQ(ring.slot(2).name(), "cycle2");
    std::vector<std::size_t> slots;
    for (int epoch = 0; epoch < 2; ++epoch) {
        for (int batch = 0; batch < 4; ++batch) {
            EXPECT_EQ(ring.nextSlot(), slots.size() % 3);
            auto& arena = ring.beginBatch(epoch, batch);
            EXPECT_EQ(&arena, &ring.slot(ring.currentSlot()));
            slots.push_back(ring.currentSlot());
            ring.endBatch(epoch, batch);
        }
    }
    EXPECT_EQ(slots, (std::vector<std::size_t>{0, 1, 2, 0, 1, 2, 0, 1}));
    EXPECT_EQ(ring.batchesBegun(), 8U);
    // The first use of a slot resets nothing; every reuse resets it.
    EXPECT_EQ(ring.slot(0).stats().resets, 2U);
    EXPECT_EQ(ring.slot(1).stats().resets, 2U);
    EXPECT_EQ(ring.slot(2).stats().resets, 1U);
}

TEST_P(RingBlocking, ReusingASlotWaitsForTheBatchThatUsedItOnly) {
    const std::size_t n = GetParam();
    BatchArenaRing ring(n, "ring", quiet());
    std::deque<Gate> gates(n);
    for (std::size_t k = 0; k < n; ++k) {
        auto& arena = ring.beginBatch(0, static_cast<std::int64_t>(k));
        ASSERT_EQ(ring.currentSlot(), k);
        auto vector = arena.allocateVector<int>(1);
        ASSERT_TRUE(vector) << vector.error().message;
        starpu_task* task = starpu_task_create();
        task->cl = gatedCodelet();
        task->handles[0] = vector->handle;
        task->cl_arg = &gates[k];
        ASSERT_EQ(starpu_task_submit(task), 0);
        ring.endBatch(0, static_cast<std::int64_t>(k));
    }
    for (std::size_t j = 0; j < n; ++j) {
        std::atomic<bool> returned{false};
        std::vector<bool> finishedAtReturn(n, false);
        std::thread begin([&] {
            ring.beginBatch(0, static_cast<std::int64_t>(n + j));
            for (std::size_t i = 0; i < n; ++i) {
                finishedAtReturn[i] = gates[i].finished.load(std::memory_order_acquire);
            }
            returned.store(true, std::memory_order_release);
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        EXPECT_FALSE(returned.load()) << "N=" << n << ": batch " << n + j
                                      << " did not wait for batch " << j;
        gates[j].release();
        begin.join();
        EXPECT_EQ(ring.currentSlot(), j);
        EXPECT_TRUE(finishedAtReturn[j]) << "N=" << n << ": slot " << j << " reused too early";
        for (std::size_t i = j + 1; i < n; ++i) {
            EXPECT_FALSE(finishedAtReturn[i])
                << "N=" << n << ": batch " << n + j << " needed batch " << i << " to finish";
        }
        const auto stats = ring.slot(j).stats();
        EXPECT_EQ(stats.resets, 1U);
        EXPECT_EQ(stats.handlesReleased, 1U);
        EXPECT_GT(stats.lastWaitNs, 0U);
    }
    ring.drain();
}

INSTANTIATE_TEST_SUITE_P(Slots, RingBlocking, ::testing::Values(1U, 2U, 3U));
