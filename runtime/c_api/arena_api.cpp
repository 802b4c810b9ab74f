// The arena functions of starscope/arena.h over runtime::Arena.

#include "runtime/c_api/boundary.hpp"
#include "runtime/c_api/objects.hpp"

#include <limits>
#include <starpu.h>
#include <string>

namespace starscope::runtime::c_api {

starscope_status toArenaOptions(const char* function, const starscope_arena_options* options,
                                ArenaOptions& out) {
    out = ArenaOptions{};
    if (options == nullptr) {
        return STARSCOPE_OK;
    }
    if (options->growth_factor == 0) {
        return failure(function, STARSCOPE_ERROR_INVALID_ARGUMENT,
                       "options->growth_factor is 0 (1 keeps every block the same size)");
    }
    const std::size_t align = options->default_alignment;
    if (align == 0 || (align & (align - 1)) != 0) {
        return failure(function, STARSCOPE_ERROR_INVALID_ARGUMENT,
                       "options->default_alignment " + std::to_string(align)
                           + " is not a power of two");
    }
    out.firstBlockBytes = options->first_block_bytes;
    out.growthFactor = options->growth_factor;
    out.defaultAlignment = align;
    out.traceMarkers = options->trace_markers != 0;
    return STARSCOPE_OK;
}

namespace {

// The common shape of the register calls: checks, the C++ registration, the handle out.
template <typename Register>
starscope_status registerWith(const char* function, starscope_arena* arena,
                              starpu_data_handle_t* handle, Register&& registration) {
    return guarded(function, [&](const char* /*function*/) {
        if (const auto s = requireNonNull(function, arena, "arena"); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = requireNonNull(function, handle, "handle"); s != STARSCOPE_OK) {
            return s;
        }
        auto registered = registration(arena->arena);
        if (!registered) {
            return failure(function, registered.error());
        }
        *handle = *registered;
        return STARSCOPE_OK;
    });
}

// A handle given to track() must have its home memory in the arena: otherwise the arena would
// wait for (and unregister) data whose memory it does not reuse.
starscope_status requireHandleIn(const char* function, const starscope_arena* arena,
                                 starpu_data_handle_t handle, const char* name) {
    if (const auto s = requireNonNull(function, arena, "arena"); s != STARSCOPE_OK) {
        return s;
    }
    if (const auto s = requireNonNull(function, handle, name); s != STARSCOPE_OK) {
        return s;
    }
    if (starpu_is_initialized() == 0) {
        return failure(function, STARSCOPE_ERROR_STARPU_NOT_INITIALIZED,
                       "StarPU is not initialised (call starpu_init first)");
    }
    const void* home = starpu_data_handle_to_pointer(handle, STARPU_MAIN_RAM);
    if (!arena->arena.contains(home)) {
        return failure(function, STARSCOPE_ERROR_INVALID_ARGUMENT,
                       std::string(name) + "'s memory on STARPU_MAIN_RAM does not lie in arena '"
                           + arena->arena.name() + "'");
    }
    return STARSCOPE_OK;
}

// Tracking twice would unregister the handle twice at the next reset: StarPU aborts there, far
// from the call that caused it.
starscope_status requireUntracked(const char* function, const starscope_arena* arena,
                                  starpu_data_handle_t handle) {
    if (!arena->arena.tracks(handle)) {
        return STARSCOPE_OK;
    }
    return failure(function, STARSCOPE_ERROR_INVALID_STATE,
                   "the handle is already tracked by arena '" + arena->arena.name()
                       + "' (registered through it, tracked, or a child of a tracked partition "
                         "plan): track each handle once");
}

// A parent the arena will unregister, which the reset can unpartition first.
starscope_status requireTrackedParent(const char* function, const starscope_arena* arena,
                                      starpu_data_handle_t parent) {
    if (arena->arena.tracks(parent)) {
        return STARSCOPE_OK;
    }
    return failure(function, STARSCOPE_ERROR_INVALID_STATE,
                   "parent is not tracked by arena '" + arena->arena.name()
                       + "': track the parent first, then its partition");
}

// The legacy partition's reset calls starpu_data_unpartition, which aborts inside StarPU on a
// parent that has no partition (never partitioned, or its partition tracked already and so
// undone twice).
starscope_status requireLegacyPartition(const char* function, const starscope_arena* arena,
                                        starpu_data_handle_t parent) {
    if (starpu_data_get_nb_children(parent) <= 0) {
        return failure(function, STARSCOPE_ERROR_INVALID_STATE,
                       "parent has no partition made with starpu_data_partition (call it "
                       "before tracking the partition)");
    }
    if (arena->arena.tracksLegacyPartitionOf(parent)) {
        return failure(function, STARSCOPE_ERROR_INVALID_STATE,
                       "the partition of parent is already tracked by arena '" + arena->arena.name()
                           + "'");
    }
    return STARSCOPE_OK;
}

// The common shape of the calls that may wait for the arena's tasks; action returns a status.
template <typename Action>
starscope_status waitingCall(const char* function, starscope_arena* arena, Action&& action) {
    return guarded(function, [&](const char* /*function*/) {
        if (const auto s = requireNonNull(function, arena, "arena"); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = refuseInTask(function); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = requireStarpuFor(function, arena->arena); s != STARSCOPE_OK) {
            return s;
        }
        return action(arena->arena);
    });
}

} // namespace

} // namespace starscope::runtime::c_api

using namespace starscope::runtime;
using namespace starscope::runtime::c_api;

extern "C" {

void starscope_arena_options_init(starscope_arena_options* options) {
    if (options == nullptr) {
        return;
    }
    const ArenaOptions defaults;
    options->first_block_bytes = defaults.firstBlockBytes;
    options->growth_factor = defaults.growthFactor;
    options->default_alignment = defaults.defaultAlignment;
    options->trace_markers = defaults.traceMarkers ? 1 : 0;
}

starscope_status starscope_arena_create(const char* name, const starscope_arena_options* options,
                                        starscope_arena** arena) {
    return guarded(__func__, [&](const char* fn) {
        if (const auto s = requireNonNull(fn, arena, "arena"); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = requireName(fn, name, "name"); s != STARSCOPE_OK) {
            return s;
        }
        ArenaOptions converted;
        if (const auto s = toArenaOptions(fn, options, converted); s != STARSCOPE_OK) {
            return s;
        }
        *arena = new starscope_arena(std::make_unique<Arena>(name, converted));
        return STARSCOPE_OK;
    });
}

starscope_status starscope_arena_destroy(starscope_arena* arena) {
    if (arena == nullptr) {
        return STARSCOPE_OK;
    }
    return waitingCall(__func__, arena, [arena, fn = __func__](Arena& a) {
        if (!arena->owned) {
            return failure(fn, STARSCOPE_ERROR_INVALID_ARGUMENT,
                           "arena '" + a.name() + "' belongs to a ring: destroy the ring instead");
        }
        delete arena;
        return STARSCOPE_OK;
    });
}

const char* starscope_arena_name(const starscope_arena* arena) {
    return arena == nullptr ? nullptr : arena->arena.name().c_str();
}

void* starscope_arena_alloc(starscope_arena* arena, size_t bytes, size_t alignment) {
    void* memory = nullptr;
    guarded(__func__, [&](const char* fn) {
        if (const auto s = requireNonNull(fn, arena, "arena"); s != STARSCOPE_OK) {
            return s;
        }
        auto allocated = arena->arena.tryAllocate(bytes, alignment);
        if (!allocated) {
            return failure(fn, allocated.error());
        }
        memory = *allocated;
        return STARSCOPE_OK;
    });
    return memory;
}

starscope_status starscope_arena_alloc_vector(starscope_arena* arena, size_t count,
                                              size_t elem_size, void** data,
                                              starpu_data_handle_t* handle) {
    void* memory = nullptr;
    const auto status = registerWith(__func__, arena, handle, [&](Arena& a) {
        if (data == nullptr) {
            return RuntimeResult<starpu_data_handle_t>(
                runtimeFailure(RuntimeErrorCode::InvalidArgument, "data is NULL"));
        }
        if (elem_size != 0 && count > std::numeric_limits<std::size_t>::max() / elem_size) {
            return RuntimeResult<starpu_data_handle_t>(runtimeFailure(
                RuntimeErrorCode::InvalidArgument,
                "arena '" + a.name() + "': " + std::to_string(count) + " elements of "
                    + std::to_string(elem_size) + " bytes overflow size_t"));
        }
        auto allocated = a.tryAllocate(count * elem_size);
        if (!allocated) {
            return RuntimeResult<starpu_data_handle_t>(fail(allocated.error()));
        }
        memory = *allocated;
        return a.registerVector(memory, count, elem_size);
    });
    if (status == STARSCOPE_OK) {
        *data = memory;
    }
    return status;
}

starscope_status starscope_arena_register_vector(starscope_arena* arena, void* ptr, size_t count,
                                                 size_t elem_size, starpu_data_handle_t* handle) {
    return registerWith(__func__, arena, handle,
                        [&](Arena& a) { return a.registerVector(ptr, count, elem_size); });
}

starscope_status starscope_arena_register_matrix(starscope_arena* arena, void* ptr, size_t ld,
                                                 size_t nx, size_t ny, size_t elem_size,
                                                 starpu_data_handle_t* handle) {
    return registerWith(__func__, arena, handle,
                        [&](Arena& a) { return a.registerMatrix(ptr, ld, nx, ny, elem_size); });
}

starscope_status starscope_arena_register_block(starscope_arena* arena, void* ptr, size_t ldy,
                                                size_t ldz, size_t nx, size_t ny, size_t nz,
                                                size_t elem_size, starpu_data_handle_t* handle) {
    return registerWith(__func__, arena, handle, [&](Arena& a) {
        return a.registerBlock(ptr, ldy, ldz, nx, ny, nz, elem_size);
    });
}

starscope_status starscope_arena_register_variable(starscope_arena* arena, void* ptr,
                                                   size_t elem_size, starpu_data_handle_t* handle) {
    return registerWith(__func__, arena, handle,
                        [&](Arena& a) { return a.registerVariable(ptr, elem_size); });
}

starscope_status starscope_arena_track(starscope_arena* arena, starpu_data_handle_t handle) {
    return guarded(__func__, [&](const char* fn) {
        if (const auto s = requireHandleIn(fn, arena, handle, "handle"); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = requireUntracked(fn, arena, handle); s != STARSCOPE_OK) {
            return s;
        }
        arena->arena.track(handle);
        return STARSCOPE_OK;
    });
}

starscope_status starscope_arena_track_partition(starscope_arena* arena,
                                                 starpu_data_handle_t parent) {
    return guarded(__func__, [&](const char* fn) {
        if (const auto s = requireHandleIn(fn, arena, parent, "parent"); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = requireTrackedParent(fn, arena, parent); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = requireLegacyPartition(fn, arena, parent); s != STARSCOPE_OK) {
            return s;
        }
        arena->arena.trackPartition(parent);
        return STARSCOPE_OK;
    });
}

starscope_status starscope_arena_track_partition_plan(starscope_arena* arena,
                                                      starpu_data_handle_t parent,
                                                      unsigned nchildren,
                                                      const starpu_data_handle_t* children) {
    return guarded(__func__, [&](const char* fn) {
        if (const auto s = requireHandleIn(fn, arena, parent, "parent"); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = requireNonNull(fn, children, "children"); s != STARSCOPE_OK) {
            return s;
        }
        if (nchildren == 0) {
            return failure(fn, STARSCOPE_ERROR_INVALID_ARGUMENT, "nchildren is 0");
        }
        if (const auto s = requireTrackedParent(fn, arena, parent); s != STARSCOPE_OK) {
            return s;
        }
        arena->arena.trackPartitionPlan(parent, {children, nchildren});
        return STARSCOPE_OK;
    });
}

starscope_status starscope_arena_reset(starscope_arena* arena) {
    return waitingCall(__func__, arena, [](Arena& a) {
        a.reset();
        return STARSCOPE_OK;
    });
}

starscope_status starscope_arena_reset_deferred(starscope_arena* arena) {
    return waitingCall(__func__, arena, [](Arena& a) {
        a.resetDeferred();
        return STARSCOPE_OK;
    });
}

starscope_status starscope_arena_wait_deferred(starscope_arena* arena) {
    return waitingCall(__func__, arena, [](Arena& a) {
        a.waitDeferred();
        return STARSCOPE_OK;
    });
}

starscope_status starscope_arena_get_stats(const starscope_arena* arena,
                                           starscope_arena_stats* stats) {
    return guarded(__func__, [&](const char* fn) {
        if (const auto s = requireNonNull(fn, arena, "arena"); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = requireNonNull(fn, stats, "stats"); s != STARSCOPE_OK) {
            return s;
        }
        const ArenaStats in = arena->arena.stats();
        *stats = starscope_arena_stats{in.bytesInUse,      in.peakBytes,      in.bytesReserved,
                                       in.blocks,          in.resets,         in.deferredResets,
                                       in.pendingDeferred, in.handlesTracked, in.handlesReleased,
                                       in.totalWaitNs,     in.maxWaitNs,      in.lastWaitNs};
        return STARSCOPE_OK;
    });
}

} // extern "C"
