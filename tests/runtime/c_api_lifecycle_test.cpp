// The C API around StarPU's lifetime, in a binary of its own (it initialises and shuts StarPU down
// itself): arenas allocate before starpu_init but cannot register, and after starpu_shutdown an
// arena that still holds handles refuses to reset or be destroyed instead of calling into a
// StarPU that is gone.

#include "starscope/arena.h"

#include <gtest/gtest.h>
#include <starpu.h>

#include <cstdlib>
#include <string>

namespace {

// Kept reachable on purpose: its handle outlived StarPU, so it can never be destroyed.
starscope_arena* g_stranded = nullptr;

} // namespace

TEST(CApiLifecycle, RegistersOnlyWhileStarpuRunsAndRefusesToResetAfterShutdown) {
    starscope_arena* arena = nullptr;
    ASSERT_EQ(starscope_arena_create("early", nullptr, &arena), STARSCOPE_OK);
    void* data = starscope_arena_alloc(arena, 64, 0);
    ASSERT_NE(data, nullptr) << "allocation needs no StarPU";
    starpu_data_handle_t handle = nullptr;
    EXPECT_EQ(starscope_arena_register_vector(arena, data, 16, sizeof(float), &handle),
              STARSCOPE_ERROR_STARPU_NOT_INITIALIZED);
    EXPECT_EQ(std::string(starscope_last_error()),
              "starscope_arena_register_vector: arena 'early': cannot register a vector: StarPU "
              "is not initialised (call starpu_init first)");
    EXPECT_EQ(starscope_markers_enabled(), 0);
    EXPECT_EQ(starscope_arena_reset(arena), STARSCOPE_OK) << "nothing to wait for";

    ::setenv("STARPU_NCPU", "1", 1);
    ::setenv("STARPU_FXT_TRACE", "0", 1);
    ::setenv("STARPU_WORKERS_NOBIND", "1", 1);
    ASSERT_EQ(starpu_init(nullptr), 0);
    EXPECT_EQ(starscope_markers_enabled(), 0) << "FxT tracing is off";
    data = starscope_arena_alloc(arena, 64, 0);
    ASSERT_EQ(starscope_arena_register_vector(arena, data, 16, sizeof(float), &handle),
              STARSCOPE_OK)
        << starscope_last_error();
    starpu_shutdown();

    EXPECT_EQ(starscope_arena_reset(arena), STARSCOPE_ERROR_STARPU_NOT_INITIALIZED);
    EXPECT_EQ(std::string(starscope_last_error()),
              "starscope_arena_reset: arena 'early' still holds 1 StarPU handle(s) (or deferred "
              "resets) but StarPU is not initialised: reset or destroy arenas before "
              "starpu_shutdown");
    EXPECT_EQ(starscope_arena_destroy(arena), STARSCOPE_ERROR_STARPU_NOT_INITIALIZED);
    starscope_arena_stats stats{};
    ASSERT_EQ(starscope_arena_get_stats(arena, &stats), STARSCOPE_OK);
    EXPECT_EQ(stats.handles_tracked, 1U);
    g_stranded = arena;
}
