// Arena: alignment, growth, address reuse, statistics, handle tracking and the blocking /
// deferred resets against real StarPU tasks.

#include "runtime/arena.hpp"

#include <gtest/gtest.h>
#include <starpu.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

using starscope::runtime::Arena;
using starscope::runtime::ArenaOptions;

namespace {

std::uintptr_t address(const void* p) {
    return reinterpret_cast<std::uintptr_t>(p);
}

ArenaOptions smallBlocks(std::size_t first = 1024) {
    ArenaOptions options;
    options.firstBlockBytes = first;
    options.traceMarkers = false;
    return options;
}

// A task that sleeps on its handle, then records when it ended.
struct SleepArgs {
    std::chrono::milliseconds duration{0};
    std::atomic<bool> finished{false};
    std::chrono::steady_clock::time_point end;
};

void sleepTask(void* /*buffers*/[], void* arg) {
    auto* args = static_cast<SleepArgs*>(arg);
    std::this_thread::sleep_for(args->duration);
    args->end = std::chrono::steady_clock::now();
    args->finished.store(true, std::memory_order_release);
}

starpu_codelet* sleepCodelet() {
    static starpu_codelet codelet = [] {
        starpu_codelet c;
        starpu_codelet_init(&c);
        c.cpu_funcs[0] = sleepTask;
        c.nbuffers = 1;
        c.modes[0] = STARPU_RW;
        c.name = "test_sleep";
        return c;
    }();
    return &codelet;
}

void submitSleep(starpu_data_handle_t handle, SleepArgs& args) {
    starpu_task* task = starpu_task_create();
    task->cl = sleepCodelet();
    task->handles[0] = handle;
    task->cl_arg = &args;
    ASSERT_EQ(starpu_task_submit(task), 0);
}

} // namespace

TEST(Arena, DefaultAlignmentIs64AndPerAllocationAlignmentIsHonoured) {
    Arena arena("align", smallBlocks());
    for (std::size_t bytes : {1U, 3U, 17U, 64U, 100U}) {
        EXPECT_EQ(address(arena.allocate(bytes)) % 64, 0U) << bytes;
    }
    for (std::size_t alignment : {1U, 2U, 8U, 16U, 128U, 256U, 4096U}) {
        void* p = arena.allocate(5, alignment);
        ASSERT_NE(p, nullptr);
        EXPECT_EQ(address(p) % alignment, 0U) << alignment;
    }
    // alignment 1: consecutive bytes.
    auto* a = static_cast<char*>(arena.allocate(1, 1));
    auto* b = static_cast<char*>(arena.allocate(1, 1));
    EXPECT_EQ(b, a + 1);
}

TEST(Arena, AllocationsDoNotOverlapAndAreWritable) {
    Arena arena("overlap", smallBlocks(256));
    std::vector<std::pair<std::uintptr_t, std::size_t>> spans;
    for (std::size_t i = 1; i <= 200; ++i) {
        const std::size_t bytes = (i * 37) % 300 + 1;
        auto* p = static_cast<std::uint8_t*>(arena.allocate(bytes));
        ASSERT_NE(p, nullptr);
        std::memset(p, static_cast<int>(i), bytes);
        spans.emplace_back(address(p), bytes);
    }
    std::sort(spans.begin(), spans.end());
    for (std::size_t i = 1; i < spans.size(); ++i) {
        EXPECT_LE(spans[i - 1].first + spans[i - 1].second, spans[i].first);
    }
}

TEST(Arena, GrowsByDoublingAndFitsLargeRequests) {
    Arena arena("growth", smallBlocks(1024));
    EXPECT_EQ(arena.stats().blocks, 0U) << "no memory before the first allocation";
    arena.allocate(1000);
    EXPECT_EQ(arena.stats().blocks, 1U);
    EXPECT_EQ(arena.stats().bytesReserved, 1024U);
    arena.allocate(1000); // does not fit the rest of block 0: block 1, twice as large
    EXPECT_EQ(arena.stats().blocks, 2U);
    EXPECT_EQ(arena.stats().bytesReserved, 1024U + 2048U);
    void* big = arena.allocate(100000); // larger than the doubling: a block at least that large
    ASSERT_NE(big, nullptr);
    EXPECT_TRUE(arena.contains(big, 100000));
    EXPECT_EQ(arena.stats().blocks, 3U);
    EXPECT_GE(arena.stats().bytesReserved, 1024U + 2048U + 100000U);
    // The next block doubles the last one.
    const auto reserved = arena.stats().bytesReserved;
    arena.allocate(200000);
    EXPECT_GE(arena.stats().bytesReserved - reserved, 2 * 100000U);
}

TEST(Arena, ResetReusesTheSameAddresses) {
    Arena arena("reuse", smallBlocks(512));
    std::vector<void*> first;
    for (std::size_t i = 0; i < 50; ++i) {
        first.push_back(arena.allocate(40 + i));
    }
    const auto blocks = arena.stats().blocks;
    arena.reset();
    for (std::size_t i = 0; i < 50; ++i) {
        EXPECT_EQ(arena.allocate(40 + i), first[i]) << i;
    }
    EXPECT_EQ(arena.stats().blocks, blocks) << "no new block after a reset";
}

TEST(Arena, StatisticsFollowAllocationsAndResets) {
    Arena arena("stats", smallBlocks(4096));
    arena.allocate(100);
    arena.allocate(28, 4); // 100 -> 128 is already 4-aligned
    auto s = arena.stats();
    EXPECT_EQ(s.bytesInUse, 128U);
    EXPECT_EQ(s.peakBytes, 128U);
    EXPECT_EQ(s.resets, 0U);
    arena.reset();
    arena.allocate(64);
    s = arena.stats();
    EXPECT_EQ(s.bytesInUse, 64U);
    EXPECT_EQ(s.peakBytes, 128U);
    EXPECT_EQ(s.resets, 1U);
    EXPECT_EQ(s.handlesTracked, 0U);
    EXPECT_EQ(s.blocks, 1U);
}

TEST(Arena, TracksRegisteredHandlesAndReleasesThemAtReset) {
    Arena arena("handles", smallBlocks());
    auto vector = arena.allocateVector<float>(16);
    ASSERT_TRUE(vector) << vector.error().message;
    auto* m = arena.allocateArray<double>(6);
    auto matrix = arena.registerMatrix(m, 3, 3, 2, sizeof(double));
    ASSERT_TRUE(matrix) << matrix.error().message;
    auto* v = arena.allocateArray<int>(1);
    ASSERT_TRUE(arena.registerVariable(v, sizeof(int)));
    EXPECT_EQ(arena.stats().handlesTracked, 3U);
    EXPECT_EQ(starpu_vector_get_nx(vector->handle), 16U);
    EXPECT_EQ(starpu_matrix_get_ny(*matrix), 2U);
    arena.reset();
    EXPECT_EQ(arena.stats().handlesTracked, 0U);
    EXPECT_EQ(arena.stats().handlesReleased, 3U);
}

TEST(Arena, RejectsImpossibleRegistrations) {
    Arena arena("bad", smallBlocks());
    auto* p = arena.allocateArray<float>(4);
    auto empty = arena.registerVector(p, 0, sizeof(float));
    ASSERT_FALSE(empty);
    EXPECT_NE(empty.error().message.find("arena 'bad'"), std::string::npos);
    std::array<float, 4> outside{};
    auto foreign = arena.registerVector(outside.data(), 4, sizeof(float));
    ASSERT_FALSE(foreign);
    EXPECT_EQ(foreign.error().code, starscope::runtime::RuntimeErrorCode::InvalidArgument);
    EXPECT_EQ(foreign.error().message, "arena 'bad': cannot register a vector of 16 bytes: its "
                                       "memory does not lie in the arena");
    EXPECT_FALSE(arena.registerVariable(p + 4, 1024)) << "runs past the arena's block";
    EXPECT_EQ(arena.stats().handlesTracked, 0U);
    auto badLd = arena.registerMatrix(p, 1, 2, 2, sizeof(float));
    ASSERT_FALSE(badLd);
    EXPECT_NE(badLd.error().message.find("ld=1"), std::string::npos);
    auto huge = arena.tryAllocate(std::numeric_limits<std::size_t>::max() - 8);
    ASSERT_FALSE(huge);
    EXPECT_EQ(huge.error().code, starscope::runtime::RuntimeErrorCode::AllocationFailed);
    EXPECT_NE(huge.error().message.find("could not provide a block"), std::string::npos);
    EXPECT_EQ(arena.allocateArray<float>(4), p + 16) << "a failed request leaves the arena as it was";
    auto badAlign = arena.tryAllocate(8, 3);
    ASSERT_FALSE(badAlign);
    EXPECT_NE(badAlign.error().message.find("power of two"), std::string::npos);
}

TEST(Arena, ResetWaitsForTheTaskStillUsingAHandle) {
    Arena arena("wait", smallBlocks());
    auto vector = arena.allocateVector<int>(4);
    ASSERT_TRUE(vector);
    SleepArgs args;
    args.duration = std::chrono::milliseconds(50);
    submitSleep(vector->handle, args);
    arena.reset();
    const auto returned = std::chrono::steady_clock::now();
    ASSERT_TRUE(args.finished.load(std::memory_order_acquire))
        << "reset returned while the task still ran";
    EXPECT_LE(args.end, returned);
    const auto s = arena.stats();
    EXPECT_GT(s.lastWaitNs, 0U);
    EXPECT_EQ(s.totalWaitNs, s.lastWaitNs);
    EXPECT_EQ(s.maxWaitNs, s.lastWaitNs);
}

TEST(Arena, LegacyAndPlannedPartitionsAreCleanedBeforeTheirParents) {
    Arena arena("partitions", smallBlocks());
    auto legacy = arena.allocateVector<float>(64);
    ASSERT_TRUE(legacy);
    starpu_data_filter filter{};
    filter.filter_func = starpu_vector_filter_block;
    filter.nchildren = 4;
    starpu_data_partition(legacy->handle, &filter);
    arena.trackPartition(legacy->handle);
    std::array<SleepArgs, 4> legacyArgs;
    for (unsigned i = 0; i < 4; ++i) {
        legacyArgs[i].duration = std::chrono::milliseconds(5);
        submitSleep(starpu_data_get_sub_data(legacy->handle, 1, i), legacyArgs[i]);
    }

    auto planned = arena.allocateVector<float>(64);
    ASSERT_TRUE(planned);
    std::array<starpu_data_handle_t, 4> children{};
    starpu_data_partition_plan(planned->handle, &filter, children.data());
    arena.trackPartitionPlan(planned->handle, children);
    starpu_data_partition_submit(planned->handle, 4, children.data());
    std::array<SleepArgs, 4> planArgs;
    for (unsigned i = 0; i < 4; ++i) {
        planArgs[i].duration = std::chrono::milliseconds(5);
        submitSleep(children[i], planArgs[i]);
    }
    EXPECT_EQ(arena.stats().handlesTracked, 4U);
    arena.reset();
    for (unsigned i = 0; i < 4; ++i) {
        EXPECT_TRUE(legacyArgs[i].finished.load());
        EXPECT_TRUE(planArgs[i].finished.load());
    }
    EXPECT_EQ(arena.stats().handlesTracked, 0U);
}

TEST(Arena, DeferredResetDoesNotWaitAndReusesMemoryOnlyAfterTheTasks) {
    Arena arena("deferred", smallBlocks(4096));
    auto vector = arena.allocateVector<int>(16);
    ASSERT_TRUE(vector);
    const auto* oldData = vector->data;
    SleepArgs args;
    args.duration = std::chrono::milliseconds(50);
    submitSleep(vector->handle, args);
    arena.resetDeferred();
    // The task still runs: the retired block must not be handed out again.
    const bool stillRunning = !args.finished.load(std::memory_order_acquire);
    auto* next = arena.allocate(64);
    if (stillRunning) {
        EXPECT_FALSE(address(next) >= address(oldData) && address(next) < address(oldData) + 4096)
            << "memory of a running task handed out again";
    }
    auto s = arena.stats();
    EXPECT_EQ(s.deferredResets, 1U);
    EXPECT_EQ(s.lastWaitNs, 0U);
    EXPECT_EQ(s.blocks, 2U);
    arena.waitDeferred();
    EXPECT_TRUE(args.finished.load());
    EXPECT_EQ(arena.stats().pendingDeferred, 0U);
    // Once the tasks are done the retired block is free again: with nothing tracked, the next
    // deferred reset completes at once and allocation starts over in the oldest free block.
    arena.resetDeferred();
    EXPECT_EQ(arena.allocate(64), static_cast<const void*>(oldData));
    EXPECT_EQ(arena.stats().blocks, 2U);
}

TEST(Arena, DestructorWaitsForTasksOnTrackedHandles) {
    SleepArgs args;
    args.duration = std::chrono::milliseconds(20);
    {
        Arena arena("scoped", smallBlocks());
        auto vector = arena.allocateVector<int>(1);
        ASSERT_TRUE(vector);
        submitSleep(vector->handle, args);
    }
    EXPECT_TRUE(args.finished.load());
}
