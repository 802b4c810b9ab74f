// The C API (starscope/arena.h) as a C program uses it, against real StarPU tasks: allocation,
// tracked handles, resets that wait, counters, the ring, and the errors it returns where the C++
// classes would assert or crash.

#include "starscope/arena.h"
#include "tests/runtime/gated_task.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <gtest/gtest.h>
#include <starpu.h>
#include <string>
#include <thread>

using starscope::runtime::testing::Gate;
using starscope::runtime::testing::gatedCodelet;

namespace {

// Gated tasks of two batches may run at once.
[[maybe_unused]] const int g_workers = ::setenv("STARPU_NCPU", "3", 1);

std::string lastError() {
    return starscope_last_error();
}

// Expects status to be `expected` with a message containing `part`.
void expectFailure(starscope_status status, starscope_status expected, const std::string& part) {
    EXPECT_EQ(status, expected) << starscope_status_name(status);
    EXPECT_EQ(starscope_last_error_status(), expected);
    EXPECT_NE(lastError().find(part), std::string::npos) << lastError();
}

starscope_arena* makeArena(const char* name, std::size_t firstBlock = 4096) {
    starscope_arena_options options;
    starscope_arena_options_init(&options);
    options.first_block_bytes = firstBlock;
    options.trace_markers = 0;
    starscope_arena* arena = nullptr;
    EXPECT_EQ(starscope_arena_create(name, &options, &arena), STARSCOPE_OK) << lastError();
    return arena;
}

// An arena holding one tracked vector of 4 ints; destroyed (waiting for its tasks) at scope end.
struct ArenaWithVector {
    explicit ArenaWithVector(const char* name) : arena(makeArena(name)) {
        EXPECT_EQ(starscope_arena_alloc_vector(arena, 4, sizeof(int), &data, &handle), STARSCOPE_OK)
            << lastError();
    }
    ~ArenaWithVector() { EXPECT_EQ(starscope_arena_destroy(arena), STARSCOPE_OK) << lastError(); }
    ArenaWithVector(const ArenaWithVector&) = delete;
    ArenaWithVector& operator=(const ArenaWithVector&) = delete;

    starscope_arena* arena;
    void* data = nullptr;
    starpu_data_handle_t handle = nullptr;
};

starscope_arena_stats statsOf(const starscope_arena* arena) {
    starscope_arena_stats stats{};
    EXPECT_EQ(starscope_arena_get_stats(arena, &stats), STARSCOPE_OK) << lastError();
    return stats;
}

// A task that sleeps, then says it finished.
struct Sleep {
    std::chrono::milliseconds duration{0};
    std::atomic<bool> finished{false};
};

void sleepTask(void* /*buffers*/[], void* arg) {
    auto* sleep = static_cast<Sleep*>(arg);
    std::this_thread::sleep_for(sleep->duration);
    sleep->finished.store(true, std::memory_order_release);
}

// A task that tries to reset an arena from inside StarPU.
struct ResetFromTask {
    starscope_arena* arena = nullptr;
    starscope_status status = STARSCOPE_OK;
    std::string message;
};

void resetTask(void* /*buffers*/[], void* arg) {
    auto* call = static_cast<ResetFromTask*>(arg);
    call->status = starscope_arena_reset(call->arena);
    call->message = starscope_last_error();
}

starpu_codelet codeletOf(starpu_cpu_func_t function, const char* name) {
    starpu_codelet c;
    starpu_codelet_init(&c);
    c.cpu_funcs[0] = function;
    c.nbuffers = 1;
    c.modes[0] = STARPU_RW;
    c.name = name;
    return c;
}

void submit(starpu_codelet& codelet, starpu_data_handle_t handle, void* arg) {
    starpu_task* task = starpu_task_create();
    task->cl = &codelet;
    task->handles[0] = handle;
    task->cl_arg = arg;
    ASSERT_EQ(starpu_task_submit(task), 0);
}

starpu_codelet g_sleep = codeletOf(sleepTask, "c_api_sleep");
starpu_codelet g_reset = codeletOf(resetTask, "c_api_reset");

} // namespace

TEST(CApi, AllocatesAlignedMemoryAndReusesItAfterAReset) {
    starscope_arena* arena = makeArena("c_align");
    ASSERT_NE(arena, nullptr);
    EXPECT_STREQ(starscope_arena_name(arena), "c_align");
    void* first = starscope_arena_alloc(arena, 100, 0);
    ASSERT_NE(first, nullptr) << lastError();
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(first) % 64, 0U);
    void* aligned = starscope_arena_alloc(arena, 8, 256);
    ASSERT_NE(aligned, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(aligned) % 256, 0U);
    auto stats = statsOf(arena);
    EXPECT_EQ(stats.blocks, 1U);
    EXPECT_EQ(stats.bytes_reserved, 4096U);
    // 100 bytes, the padding up to the 256-aligned address, 8 bytes.
    const auto used =
        reinterpret_cast<std::uintptr_t>(aligned) + 8 - reinterpret_cast<std::uintptr_t>(first);
    EXPECT_EQ(stats.bytes_in_use, used);
    EXPECT_EQ(starscope_arena_reset(arena), STARSCOPE_OK);
    EXPECT_EQ(starscope_arena_alloc(arena, 100, 0), first) << "the same memory again";
    stats = statsOf(arena);
    EXPECT_EQ(stats.resets, 1U);
    EXPECT_EQ(stats.peak_bytes, used);
    EXPECT_EQ(stats.bytes_in_use, 100U);
    EXPECT_EQ(starscope_arena_destroy(arena), STARSCOPE_OK);
}

TEST(CApi, RegisteredAndTrackedHandlesAreReleasedByTheReset) {
    starscope_arena* arena = makeArena("c_handles");
    void* data = nullptr;
    starpu_data_handle_t vector = nullptr;
    ASSERT_EQ(starscope_arena_alloc_vector(arena, 16, sizeof(float), &data, &vector), STARSCOPE_OK)
        << lastError();
    EXPECT_EQ(starpu_vector_get_nx(vector), 16U);
    EXPECT_EQ(starpu_data_handle_to_pointer(vector, STARPU_MAIN_RAM), data);

    auto* m = starscope_arena_alloc(arena, 6 * sizeof(double), 0);
    starpu_data_handle_t matrix = nullptr;
    ASSERT_EQ(starscope_arena_register_matrix(arena, m, 3, 3, 2, sizeof(double), &matrix),
              STARSCOPE_OK);
    EXPECT_EQ(starpu_matrix_get_ny(matrix), 2U);
    auto* b = starscope_arena_alloc(arena, 8 * sizeof(int), 0);
    starpu_data_handle_t block = nullptr;
    ASSERT_EQ(starscope_arena_register_block(arena, b, 2, 4, 2, 2, 2, sizeof(int), &block),
              STARSCOPE_OK);
    auto* v = starscope_arena_alloc(arena, sizeof(int), 0);
    starpu_data_handle_t variable = nullptr;
    ASSERT_EQ(starscope_arena_register_variable(arena, v, sizeof(int), &variable), STARSCOPE_OK);

    // A handle the program registered itself on arena memory.
    auto* own = static_cast<float*>(starscope_arena_alloc(arena, 8 * sizeof(float), 0));
    starpu_data_handle_t tracked = nullptr;
    starpu_vector_data_register(&tracked, STARPU_MAIN_RAM, reinterpret_cast<std::uintptr_t>(own), 8,
                                sizeof(float));
    ASSERT_EQ(starscope_arena_track(arena, tracked), STARSCOPE_OK) << lastError();

    // A planned partition of a tracked vector.
    void* parentData = nullptr;
    starpu_data_handle_t parent = nullptr;
    ASSERT_EQ(starscope_arena_alloc_vector(arena, 64, sizeof(float), &parentData, &parent),
              STARSCOPE_OK);
    starpu_data_filter filter{};
    filter.filter_func = starpu_vector_filter_block;
    filter.nchildren = 4;
    std::array<starpu_data_handle_t, 4> children{};
    starpu_data_partition_plan(parent, &filter, children.data());
    ASSERT_EQ(starscope_arena_track_partition_plan(arena, parent, 4, children.data()),
              STARSCOPE_OK);

    EXPECT_EQ(statsOf(arena).handles_tracked, 7U);
    ASSERT_EQ(starscope_arena_reset(arena), STARSCOPE_OK);
    const auto stats = statsOf(arena);
    EXPECT_EQ(stats.handles_tracked, 0U);
    EXPECT_EQ(stats.handles_released, 7U);
    EXPECT_EQ(starscope_arena_destroy(arena), STARSCOPE_OK);
}

// Each of these returned OK, and the next reset then unregistered or unpartitioned a handle
// twice and aborted inside StarPU; refused, they leave the arena as it was and the reset works.
TEST(CApi, TrackingAHandleTwiceOrAPartitionThatIsNotThereIsRefused) {
    constexpr auto state = STARSCOPE_ERROR_INVALID_STATE;
    starscope_arena* arena = makeArena("c_twice");
    void* data = nullptr;
    starpu_data_handle_t vector = nullptr;
    ASSERT_EQ(starscope_arena_alloc_vector(arena, 16, sizeof(float), &data, &vector), STARSCOPE_OK)
        << lastError();
    expectFailure(starscope_arena_track(arena, vector), state,
                  "starscope_arena_track: the handle is already tracked by arena 'c_twice'");
    expectFailure(starscope_arena_track_partition(arena, vector), state,
                  "starscope_arena_track_partition: parent has no partition made with "
                  "starpu_data_partition");

    // A parent on arena memory that the arena does not track: it would not be unregistered.
    auto* own = static_cast<float*>(starscope_arena_alloc(arena, 8 * sizeof(float), 0));
    starpu_data_handle_t untracked = nullptr;
    starpu_vector_data_register(&untracked, STARPU_MAIN_RAM, reinterpret_cast<std::uintptr_t>(own),
                                8, sizeof(float));
    expectFailure(starscope_arena_track_partition(arena, untracked), state,
                  "parent is not tracked by arena 'c_twice'");
    ASSERT_EQ(starscope_arena_track(arena, untracked), STARSCOPE_OK) << lastError();
    expectFailure(starscope_arena_track(arena, untracked), state, "already tracked");

    starpu_data_filter filter{};
    filter.filter_func = starpu_vector_filter_block;
    filter.nchildren = 2;
    starpu_data_partition(vector, &filter);
    ASSERT_EQ(starscope_arena_track_partition(arena, vector), STARSCOPE_OK) << lastError();
    expectFailure(starscope_arena_track_partition(arena, vector), state,
                  "the partition of parent is already tracked by arena 'c_twice'");

    // The children of a tracked plan are cleaned by the reset, so they are tracked already.
    void* planned = nullptr;
    starpu_data_handle_t plannedParent = nullptr;
    ASSERT_EQ(starscope_arena_alloc_vector(arena, 16, sizeof(float), &planned, &plannedParent),
              STARSCOPE_OK);
    std::array<starpu_data_handle_t, 2> children{};
    starpu_data_partition_plan(plannedParent, &filter, children.data());
    ASSERT_EQ(starscope_arena_track_partition_plan(arena, plannedParent, 2, children.data()),
              STARSCOPE_OK)
        << lastError();
    expectFailure(starscope_arena_track(arena, children[1]), state, "already tracked");

    // A plan of a parent the arena does not track would be cleaned but its parent kept.
    auto* loose = static_cast<float*>(starscope_arena_alloc(arena, 8 * sizeof(float), 0));
    starpu_data_handle_t looseParent = nullptr;
    starpu_vector_data_register(&looseParent, STARPU_MAIN_RAM,
                                reinterpret_cast<std::uintptr_t>(loose), 8, sizeof(float));
    std::array<starpu_data_handle_t, 2> looseChildren{};
    starpu_data_partition_plan(looseParent, &filter, looseChildren.data());
    expectFailure(starscope_arena_track_partition_plan(arena, looseParent, 2, looseChildren.data()),
                  state, "starscope_arena_track_partition_plan: parent is not tracked");
    starpu_data_partition_clean(looseParent, 2, looseChildren.data());
    starpu_data_unregister(looseParent);

    EXPECT_EQ(statsOf(arena).handles_tracked, 5U) << "nothing refused was tracked";
    ASSERT_EQ(starscope_arena_reset(arena), STARSCOPE_OK) << lastError();
    EXPECT_EQ(statsOf(arena).handles_released, 5U);
    EXPECT_EQ(starscope_arena_destroy(arena), STARSCOPE_OK) << lastError();
}

TEST(CApi, ResetWaitsForTheTaskStillUsingAHandleAndCountsTheWait) {
    ArenaWithVector v("c_wait");
    starscope_arena* arena = v.arena;
    Sleep sleep;
    sleep.duration = std::chrono::milliseconds(50);
    submit(g_sleep, v.handle, &sleep);
    ASSERT_EQ(starscope_arena_reset(arena), STARSCOPE_OK);
    EXPECT_TRUE(sleep.finished.load(std::memory_order_acquire))
        << "reset returned while the task still ran";
    const auto stats = statsOf(arena);
    EXPECT_GT(stats.last_wait_ns, 0U);
    EXPECT_EQ(stats.total_wait_ns, stats.last_wait_ns);
    EXPECT_EQ(stats.max_wait_ns, stats.last_wait_ns);
    EXPECT_EQ(stats.handles_released, 1U);
}

TEST(CApi, DeferredResetReturnsWhileTheTaskRunsAndCompletesAfterIt) {
    ArenaWithVector v("c_deferred");
    starscope_arena* arena = v.arena;
    Gate gate;
    submit(*gatedCodelet(), v.handle, &gate);
    // The gate is shut: a reset that waited would never return.
    ASSERT_EQ(starscope_arena_reset_deferred(arena), STARSCOPE_OK);
    EXPECT_FALSE(gate.finished.load());
    auto stats = statsOf(arena);
    EXPECT_EQ(stats.deferred_resets, 1U);
    EXPECT_EQ(stats.pending_deferred, 1U);
    EXPECT_NE(starscope_arena_alloc(arena, 64, 0), v.data) << "memory of a running task reused";
    gate.release();
    ASSERT_EQ(starscope_arena_wait_deferred(arena), STARSCOPE_OK);
    EXPECT_TRUE(gate.finished.load());
    stats = statsOf(arena);
    EXPECT_EQ(stats.pending_deferred, 0U);
    EXPECT_EQ(stats.last_wait_ns, 0U);
}

TEST(CApi, AResetInsideATaskIsRefusedInsteadOfBlockingItsWorker) {
    ArenaWithVector v("c_in_task");
    starscope_arena* arena = v.arena;
    ResetFromTask call;
    call.arena = arena;
    // The task's own handle is another one: the arena's reset would wait for a task of its own.
    starpu_data_handle_t other = nullptr;
    int value = 0;
    starpu_variable_data_register(&other, STARPU_MAIN_RAM, reinterpret_cast<std::uintptr_t>(&value),
                                  sizeof(value));
    submit(g_reset, other, &call);
    starpu_task_wait_for_all();
    starpu_data_unregister(other);
    EXPECT_EQ(call.status, STARSCOPE_ERROR_INVALID_STATE);
    EXPECT_NE(call.message.find("starscope_arena_reset: called from a StarPU task"),
              std::string::npos)
        << call.message;
    EXPECT_EQ(statsOf(arena).handles_tracked, 1U) << "the refused reset changed nothing";
}

TEST(CApi, BadArgumentsAreRefusedWithAMessage) {
    constexpr auto invalid = STARSCOPE_ERROR_INVALID_ARGUMENT;
    starscope_arena* arena = nullptr;
    expectFailure(starscope_arena_create(nullptr, nullptr, &arena), invalid,
                  "starscope_arena_create: name is NULL");
    expectFailure(starscope_arena_create("", nullptr, &arena), invalid, "name is empty");
    expectFailure(starscope_arena_create("two words", nullptr, &arena), invalid,
                  "name 'two words' contains whitespace");
    expectFailure(starscope_arena_create("a", nullptr, nullptr), invalid, "arena is NULL");
    starscope_arena_options options;
    starscope_arena_options_init(&options);
    options.growth_factor = 0;
    expectFailure(starscope_arena_create("a", &options, &arena), invalid, "growth_factor is 0");
    starscope_arena_options_init(&options);
    options.default_alignment = 48;
    expectFailure(starscope_arena_create("a", &options, &arena), invalid,
                  "default_alignment 48 is not a power of two");
    EXPECT_EQ(arena, nullptr) << "out parameters are written only on success";

    // A NULL arena, for every function that takes one.
    starpu_data_handle_t handle = nullptr;
    void* data = nullptr;
    starscope_arena_stats stats{};
    EXPECT_EQ(starscope_arena_alloc(nullptr, 8, 0), nullptr);
    expectFailure(starscope_last_error_status(), invalid, "starscope_arena_alloc: arena is NULL");
    expectFailure(starscope_arena_alloc_vector(nullptr, 4, 4, &data, &handle), invalid,
                  "arena is NULL");
    expectFailure(starscope_arena_register_vector(nullptr, &data, 1, 4, &handle), invalid,
                  "arena is NULL");
    expectFailure(starscope_arena_track(nullptr, handle), invalid, "arena is NULL");
    expectFailure(starscope_arena_reset(nullptr), invalid, "starscope_arena_reset: arena is NULL");
    expectFailure(starscope_arena_reset_deferred(nullptr), invalid, "arena is NULL");
    expectFailure(starscope_arena_wait_deferred(nullptr), invalid, "arena is NULL");
    expectFailure(starscope_arena_get_stats(nullptr, &stats), invalid, "arena is NULL");
    EXPECT_EQ(starscope_arena_destroy(nullptr), STARSCOPE_OK) << "like free(NULL)";
    EXPECT_EQ(starscope_arena_name(nullptr), nullptr);

    starscope_arena* a = makeArena("c_bad");
    EXPECT_EQ(starscope_arena_alloc(a, 8, 3), nullptr);
    expectFailure(starscope_last_error_status(), invalid, "alignment 3 is not a power of two");
    EXPECT_EQ(starscope_arena_alloc(a, SIZE_MAX - 8, 0), nullptr);
    expectFailure(starscope_last_error_status(), STARSCOPE_ERROR_OUT_OF_MEMORY,
                  "could not provide a block");
    expectFailure(starscope_arena_alloc_vector(a, SIZE_MAX / 2, 4, &data, &handle), invalid,
                  "overflow size_t");
    expectFailure(starscope_arena_alloc_vector(a, 4, 4, nullptr, &handle), invalid, "data is NULL");
    expectFailure(starscope_arena_alloc_vector(a, 4, 4, &data, nullptr), invalid, "handle is NULL");
    expectFailure(starscope_arena_alloc_vector(a, 0, 4, &data, &handle), invalid,
                  "cannot register an empty vector");
    expectFailure(starscope_arena_get_stats(a, nullptr), invalid, "stats is NULL");

    // Memory, or a handle's memory, that is not the arena's.
    std::array<float, 16> outside{};
    expectFailure(starscope_arena_register_vector(a, outside.data(), 16, sizeof(float), &handle),
                  invalid, "its memory does not lie in the arena");
    void* inside = starscope_arena_alloc(a, 64, 0);
    expectFailure(starscope_arena_register_vector(a, inside, 2000, sizeof(float), &handle), invalid,
                  "does not lie in the arena");
    expectFailure(starscope_arena_register_matrix(a, inside, 1, 2, 2, sizeof(float), &handle),
                  invalid, "ld=1");
    starpu_data_handle_t foreign = nullptr;
    starpu_vector_data_register(&foreign, STARPU_MAIN_RAM,
                                reinterpret_cast<std::uintptr_t>(outside.data()), 16,
                                sizeof(float));
    expectFailure(starscope_arena_track(a, foreign), invalid,
                  "handle's memory on STARPU_MAIN_RAM does not lie in arena 'c_bad'");
    expectFailure(starscope_arena_track_partition(a, foreign), invalid, "parent's memory");
    starpu_data_unregister(foreign);
    expectFailure(starscope_arena_track(a, nullptr), invalid, "handle is NULL");
    EXPECT_EQ(statsOf(a).handles_tracked, 0U) << "nothing refused was tracked";
    EXPECT_EQ(starscope_arena_destroy(a), STARSCOPE_OK);

    // Markers.
    expectFailure(starscope_mark_batch(STARSCOPE_MARKER_LOAD_BEGIN, 0, 0, 0), invalid,
                  "is not a BATCH_* marker");
    expectFailure(starscope_mark_load(STARSCOPE_MARKER_BATCH_END, 0, 0, 0, nullptr), invalid,
                  "is not a LOAD_* or PREFETCH_* marker");
    expectFailure(starscope_mark_batch(STARSCOPE_MARKER_BATCH_BEGIN, 0, -2, 0), invalid,
                  "a field is -2");
    expectFailure(starscope_mark_load(STARSCOPE_MARKER_LOAD_BEGIN, 0, 0, -1, "my arena"), invalid,
                  "arena 'my arena' contains whitespace");
    EXPECT_EQ(starscope_mark_load(STARSCOPE_MARKER_PREFETCH_END, 0, 1, -1, nullptr), STARSCOPE_OK);
}

TEST(CApi, TheRingRefusesCallsOutOfOrder) {
    constexpr auto invalid = STARSCOPE_ERROR_INVALID_ARGUMENT;
    starscope_ring* ring = nullptr;
    expectFailure(starscope_ring_create(0, nullptr, nullptr, &ring), invalid,
                  "starscope_ring_create: slots is 0");
    expectFailure(starscope_ring_create(2, "a b", nullptr, &ring), invalid,
                  "name_prefix 'a b' contains whitespace");
    expectFailure(starscope_ring_create(2, nullptr, nullptr, nullptr), invalid, "ring is NULL");
    ASSERT_EQ(starscope_ring_create(2, nullptr, nullptr, &ring), STARSCOPE_OK);
    EXPECT_EQ(starscope_ring_size(ring), 2U);
    EXPECT_EQ(starscope_ring_size(nullptr), 0U);

    starscope_arena* arena = nullptr;
    expectFailure(starscope_ring_end_batch(ring, 0, 0), STARSCOPE_ERROR_INVALID_STATE,
                  "no batch is begun");
    expectFailure(starscope_ring_begin_batch(ring, -1, 0, &arena), invalid,
                  "epoch -1 batch 0: epoch and batch must be >= 0");
    expectFailure(starscope_ring_begin_batch(ring, 0, 0, nullptr), invalid, "arena is NULL");
    expectFailure(starscope_ring_begin_batch(nullptr, 0, 0, &arena), invalid, "ring is NULL");
    ASSERT_EQ(starscope_ring_begin_batch(ring, 0, 0, &arena), STARSCOPE_OK);
    EXPECT_STREQ(starscope_arena_name(arena), "batch0");
    starscope_arena* again = nullptr;
    expectFailure(starscope_ring_begin_batch(ring, 0, 1, &again), STARSCOPE_ERROR_INVALID_STATE,
                  "epoch 0 batch 0 is begun and not ended");
    expectFailure(starscope_ring_drain(ring), STARSCOPE_ERROR_INVALID_STATE,
                  "starscope_ring_drain: epoch 0 batch 0 is begun");
    expectFailure(starscope_ring_end_batch(ring, 0, 1), invalid,
                  "ends epoch 0 batch 1 but epoch 0 batch 0 is the batch begun");
    expectFailure(starscope_arena_destroy(arena), invalid,
                  "arena 'batch0' belongs to a ring: destroy the ring instead");
    expectFailure(starscope_ring_destroy(ring), STARSCOPE_ERROR_INVALID_STATE,
                  "starscope_ring_destroy: epoch 0 batch 0 is begun and not ended");
    EXPECT_NE(starscope_arena_alloc(arena, 8, 0), nullptr)
        << "the batch's arena outlives the refused destroy: " << lastError();
    ASSERT_EQ(starscope_ring_end_batch(ring, 0, 0), STARSCOPE_OK);

    starscope_arena* slot = nullptr;
    ASSERT_EQ(starscope_ring_slot(ring, 1, &slot), STARSCOPE_OK);
    EXPECT_STREQ(starscope_arena_name(slot), "batch1");
    expectFailure(starscope_ring_slot(ring, 2, &slot), invalid, "slot 2 of a ring of 2");
    EXPECT_EQ(starscope_ring_drain(ring), STARSCOPE_OK);
    EXPECT_EQ(starscope_ring_destroy(ring), STARSCOPE_OK);
    EXPECT_EQ(starscope_ring_destroy(nullptr), STARSCOPE_OK);
}

TEST(CApi, TheRingsBeginBatchWaitsForTheBatchThatUsedTheSlotOnly) {
    starscope_ring* ring = nullptr;
    ASSERT_EQ(starscope_ring_create(2, "c_ring", nullptr, &ring), STARSCOPE_OK);
    std::array<Gate, 2> gates;
    for (int k = 0; k < 2; ++k) {
        starscope_arena* arena = nullptr;
        ASSERT_EQ(starscope_ring_begin_batch(ring, 0, k, &arena), STARSCOPE_OK);
        EXPECT_EQ(std::string(starscope_arena_name(arena)), "c_ring" + std::to_string(k));
        void* data = nullptr;
        starpu_data_handle_t handle = nullptr;
        ASSERT_EQ(starscope_arena_alloc_vector(arena, 1, sizeof(int), &data, &handle),
                  STARSCOPE_OK);
        submit(*gatedCodelet(), handle, &gates[static_cast<std::size_t>(k)]);
        ASSERT_EQ(starscope_ring_end_batch(ring, 0, k), STARSCOPE_OK);
    }
    // Batch 2 reuses slot 0: it must wait for gate 0, and for gate 0 only.
    std::atomic<bool> returned{false};
    bool firstFinished = false;
    bool secondFinished = true;
    starscope_arena* arena = nullptr;
    std::thread begin([&] {
        EXPECT_EQ(starscope_ring_begin_batch(ring, 1, 0, &arena), STARSCOPE_OK);
        firstFinished = gates[0].finished.load();
        secondFinished = gates[1].finished.load();
        returned.store(true);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_FALSE(returned.load()) << "batch 2 did not wait for batch 0's task";
    gates[0].release();
    begin.join();
    EXPECT_TRUE(firstFinished);
    EXPECT_FALSE(secondFinished) << "batch 2 waited for batch 1's task";
    EXPECT_STREQ(starscope_arena_name(arena), "c_ring0");
    const auto stats = statsOf(arena);
    EXPECT_EQ(stats.resets, 1U);
    EXPECT_GT(stats.last_wait_ns, 0U);
    ASSERT_EQ(starscope_ring_end_batch(ring, 1, 0), STARSCOPE_OK);
    gates[1].release();
    EXPECT_EQ(starscope_ring_destroy(ring), STARSCOPE_OK);
}

TEST(CApi, TheLastErrorBelongsToItsThreadAndSurvivesSuccessfulCalls) {
    expectFailure(starscope_arena_reset(nullptr), STARSCOPE_ERROR_INVALID_ARGUMENT,
                  "starscope_arena_reset: arena is NULL");
    std::string other;
    std::thread thread([&] {
        EXPECT_EQ(starscope_last_error_status(), STARSCOPE_OK);
        EXPECT_STREQ(starscope_last_error(), "");
        starscope_ring* ring = nullptr;
        EXPECT_NE(starscope_ring_create(0, nullptr, nullptr, &ring), STARSCOPE_OK);
        other = starscope_last_error();
    });
    thread.join();
    EXPECT_NE(other.find("slots is 0"), std::string::npos) << other;
    starscope_arena* arena = makeArena("c_thread");
    EXPECT_EQ(starscope_arena_destroy(arena), STARSCOPE_OK);
    EXPECT_EQ(starscope_last_error_status(), STARSCOPE_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(lastError(), "starscope_arena_reset: arena is NULL");
}

TEST(CApi, StatusNames) {
    EXPECT_STREQ(starscope_status_name(STARSCOPE_OK), "STARSCOPE_OK");
    EXPECT_STREQ(starscope_status_name(STARSCOPE_ERROR_STARPU_NOT_INITIALIZED),
                 "STARSCOPE_ERROR_STARPU_NOT_INITIALIZED");
    EXPECT_STREQ(starscope_status_name(static_cast<starscope_status>(6)), "unknown status");
}
