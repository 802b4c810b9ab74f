// ArenaCounters: arena statistics read back through PAPI's own API as software-defined events
// (component sde), the way any PAPI tool would read them.

#include "runtime/arena_counters.hpp"
#include "runtime/batch_arena_ring.hpp"

#include <gtest/gtest.h>
#include <papi.h>
#include <starpu.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

using starscope::runtime::Arena;
using starscope::runtime::ArenaCounters;
using starscope::runtime::BatchArenaRing;

namespace {

void sleepTask(void* /*buffers*/[], void* /*arg*/) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

starpu_codelet* sleepCodelet() {
    static starpu_codelet codelet = [] {
        starpu_codelet c;
        starpu_codelet_init(&c);
        c.cpu_funcs[0] = sleepTask;
        c.nbuffers = 1;
        c.modes[0] = STARPU_RW;
        c.name = "test_counters_sleep";
        return c;
    }();
    return &codelet;
}

void initPapi() {
    if (PAPI_is_initialized() == PAPI_NOT_INITED) {
        ASSERT_EQ(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    }
}

// An event set of the named events, started.
int startEvents(const std::vector<std::string>& names) {
    int set = PAPI_NULL;
    EXPECT_EQ(PAPI_create_eventset(&set), PAPI_OK);
    for (const auto& name : names) {
        int code = 0;
        const int status = PAPI_event_name_to_code(name.c_str(), &code);
        EXPECT_EQ(status, PAPI_OK) << name << ": " << PAPI_strerror(status);
        EXPECT_EQ(PAPI_add_event(set, code), PAPI_OK) << name;
    }
    EXPECT_EQ(PAPI_start(set), PAPI_OK);
    return set;
}

void stopEvents(int set) {
    std::vector<long long> values(16);
    EXPECT_EQ(PAPI_stop(set, values.data()), PAPI_OK);
    EXPECT_EQ(PAPI_cleanup_eventset(set), PAPI_OK);
    EXPECT_EQ(PAPI_destroy_eventset(&set), PAPI_OK);
}

} // namespace

TEST(ArenaCounters, PapiReadsTheWaitTimeAndBytesOfABatchArena) {
    BatchArenaRing ring(1, "batch");
    ArenaCounters counters;
    ASSERT_TRUE(counters.add(ring.slot(0)));
    EXPECT_EQ(counters.eventName("batch0", "wait_ns"), "sde:::starscope::batch0::wait_ns");
    initPapi();

    const int set = startEvents({counters.eventName("batch0", "wait_ns"),
                                 counters.eventName("batch0", "bytes_in_use"),
                                 counters.eventName("batch0", "resets"),
                                 counters.eventName("batch0", "handles_tracked"),
                                 counters.eventName("batch0", "max_wait_ns")});
    // Batch 0 leaves a 20 ms task behind; batch 1 reuses the slot and waits for it.
    Arena& first = ring.beginBatch(0, 0);
    auto vector = first.allocateVector<float>(1000);
    ASSERT_TRUE(vector);
    starpu_task* task = starpu_task_create();
    task->cl = sleepCodelet();
    task->handles[0] = vector->handle;
    ASSERT_EQ(starpu_task_submit(task), 0);
    ring.endBatch(0, 0);

    std::vector<long long> values(5);
    ASSERT_EQ(PAPI_read(set, values.data()), PAPI_OK);
    auto stats = ring.slot(0).stats();
    EXPECT_EQ(values[0], 0);
    EXPECT_EQ(values[1], static_cast<long long>(stats.bytesInUse));
    EXPECT_GE(values[1], 4000);
    EXPECT_EQ(values[2], 0);
    EXPECT_EQ(values[3], 1);

    ring.beginBatch(0, 1);
    ASSERT_EQ(PAPI_read(set, values.data()), PAPI_OK);
    stats = ring.slot(0).stats();
    EXPECT_GT(stats.totalWaitNs, 0U);
    EXPECT_EQ(values[0], static_cast<long long>(stats.totalWaitNs)) << "wait_ns";
    EXPECT_EQ(values[1], 0) << "bytes_in_use after the reset";
    EXPECT_EQ(values[2], 1) << "resets";
    EXPECT_EQ(values[3], 0) << "handles_tracked";
    EXPECT_EQ(values[4], static_cast<long long>(stats.maxWaitNs));
    stopEvents(set);
}

TEST(ArenaCounters, AnArenaIsExportedOnceAndCanBeRemoved) {
    Arena arena("twice");
    ArenaCounters counters("starscope_test");
    ASSERT_TRUE(counters.add(arena));
    auto again = counters.add(arena);
    ASSERT_FALSE(again);
    EXPECT_NE(again.error().message.find("'twice' is already exported"), std::string::npos);
    counters.remove(arena);
    EXPECT_TRUE(counters.add(arena));
    arena.allocate(100);
    initPapi();
    const int set = startEvents({counters.eventName("twice", "peak_bytes"),
                                 counters.eventName("twice", "blocks")});
    std::vector<long long> values(2);
    ASSERT_EQ(PAPI_read(set, values.data()), PAPI_OK);
    EXPECT_EQ(values[0], static_cast<long long>(arena.stats().peakBytes));
    EXPECT_EQ(values[1], 1);
    stopEvents(set);
}
