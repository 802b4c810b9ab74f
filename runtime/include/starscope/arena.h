/* starscope's arenas for StarPU programs written in C (C11 or C++).
 *
 * Why: a task-based training loop loses time where the main thread waits for tasks before it
 * reuses memory. The arenas make that wait explicit and measured: memory of one lifetime (a
 * batch) lives in one arena, the arena tracks every StarPU data handle registered on it, and a
 * reset first waits until no task uses them. That wait is the barrier starscope shows; the arena
 * counts it and writes trace markers around it, and the ring of batch arenas writes the batch
 * markers that let `starscope barriers` attribute each barrier to a batch transition. The same
 * code serves starscope's own C++ CNN (runtime/arena.hpp, runtime/batch_arena_ring.hpp).
 *
 * Errors. Every function that can fail returns a starscope_status, STARSCOPE_OK (0) on success;
 * starscope_arena_alloc returns NULL instead, as malloc does. After a failure,
 * starscope_last_error() gives a message naming the function, what failed and why, and
 * starscope_last_error_status() its status; both are per thread and kept until the next failure
 * on that thread (a successful call leaves them alone). Out parameters are written only on
 * success. No C++ exception leaves this library.
 *
 * Threads and lifetime. An arena or a ring is used by one thread at a time, normally the thread
 * that submits the tasks. The calls that may wait for tasks (resets, begin_batch, drain,
 * destroy) refuse to run in a StarPU task or callback, where waiting would block the worker the
 * tasks need. Arenas may be created and allocated from before starpu_init; registering handles
 * needs an initialised StarPU; destroy every arena and ring before starpu_shutdown (a destroy
 * after it is refused while the arena still holds handles: they cannot be unregistered any more).
 *
 * Handles registered through an arena, or given to it with starscope_arena_track, are
 * unregistered by the arena at its next reset: never unregister them yourself.
 *
 * Link: the CMake target starscope::arena (library libstarscope_arena), plus StarPU itself.
 */
#pragma once

#include <starpu.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define STARSCOPE_API __attribute__((visibility("default")))
#else
#define STARSCOPE_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Errors ---------------------------------------------------------------------------- */

typedef enum starscope_status {
    STARSCOPE_OK = 0,
    /* A NULL or out-of-range argument, memory or a handle outside the arena, an alignment that
     * is not a power of two, a name with spaces. */
    STARSCOPE_ERROR_INVALID_ARGUMENT = 1,
    /* A call out of order: end_batch of a batch that was not begun, a wait inside a task, ... */
    STARSCOPE_ERROR_INVALID_STATE = 2,
    /* starpu_malloc could not provide a block, or the library ran out of memory. */
    STARSCOPE_ERROR_OUT_OF_MEMORY = 3,
    /* StarPU is not initialised (starpu_init not called yet, or starpu_shutdown already). */
    STARSCOPE_ERROR_STARPU_NOT_INITIALIZED = 4,
    /* A failure the library did not expect; the message says what. */
    STARSCOPE_ERROR_INTERNAL = 5
} starscope_status;

/* The message of this thread's last failure ("" if none). Valid until the next failure on the
 * thread. */
STARSCOPE_API const char* starscope_last_error(void);
/* The status of this thread's last failure (STARSCOPE_OK if none). */
STARSCOPE_API starscope_status starscope_last_error_status(void);
/* "STARSCOPE_OK", "STARSCOPE_ERROR_INVALID_ARGUMENT", ...; "unknown status" otherwise. */
STARSCOPE_API const char* starscope_status_name(starscope_status status);

/* ---- Arenas ---------------------------------------------------------------------------- */

typedef struct starscope_arena starscope_arena;

typedef struct starscope_arena_options {
    /* Size of the first block, allocated by the first allocation. Default 1 MiB. */
    size_t first_block_bytes;
    /* Each new block is this many times the previous one (at least 1; 1 keeps every block the
     * same size), and always large enough for the request that needed it. Default 2. */
    size_t growth_factor;
    /* Alignment of allocations that pass alignment 0; a power of two. Default 64. */
    size_t default_alignment;
    /* Nonzero: write reset_wait_begin / reset_wait_end markers around each reset. Default 1. */
    int trace_markers;
} starscope_arena_options;

/* Fills options with the defaults. */
STARSCOPE_API void starscope_arena_options_init(starscope_arena_options* options);

/* Creates an arena named `name` (non-empty, no spaces: it appears in markers and counters).
 * options may be NULL for the defaults. No memory is taken before the first allocation. */
STARSCOPE_API starscope_status starscope_arena_create(const char* name,
                                                      const starscope_arena_options* options,
                                                      starscope_arena** arena);

/* Waits for every task on the tracked handles, unregisters them and frees the memory. NULL is
 * accepted and does nothing. Refused for an arena of a ring (destroy the ring). */
STARSCOPE_API starscope_status starscope_arena_destroy(starscope_arena* arena);

/* The arena's name; NULL for a NULL arena. Valid as long as the arena. */
STARSCOPE_API const char* starscope_arena_name(const starscope_arena* arena);

/* `bytes` bytes aligned to `alignment` (0: the arena's default; otherwise a power of two), valid
 * until the next reset. NULL on failure (see starscope_last_error). */
STARSCOPE_API void* starscope_arena_alloc(starscope_arena* arena, size_t bytes, size_t alignment);

/* Allocates count elements of elem_size bytes and registers them as a StarPU vector on
 * STARPU_MAIN_RAM, tracked by the arena. */
STARSCOPE_API starscope_status starscope_arena_alloc_vector(starscope_arena* arena, size_t count,
                                                            size_t elem_size, void** data,
                                                            starpu_data_handle_t* handle);

/* Register memory of this arena (from starscope_arena_alloc) on STARPU_MAIN_RAM with StarPU's
 * vector, matrix (column-major, ld >= nx), block and variable interfaces; the arena tracks the
 * handle. The memory must lie in the arena; sizes must fit StarPU's 32-bit counts. */
STARSCOPE_API starscope_status starscope_arena_register_vector(starscope_arena* arena, void* ptr,
                                                               size_t count, size_t elem_size,
                                                               starpu_data_handle_t* handle);
STARSCOPE_API starscope_status starscope_arena_register_matrix(starscope_arena* arena, void* ptr,
                                                               size_t ld, size_t nx, size_t ny,
                                                               size_t elem_size,
                                                               starpu_data_handle_t* handle);
STARSCOPE_API starscope_status starscope_arena_register_block(starscope_arena* arena, void* ptr,
                                                              size_t ldy, size_t ldz, size_t nx,
                                                              size_t ny, size_t nz,
                                                              size_t elem_size,
                                                              starpu_data_handle_t* handle);
STARSCOPE_API starscope_status starscope_arena_register_variable(starscope_arena* arena, void* ptr,
                                                                 size_t elem_size,
                                                                 starpu_data_handle_t* handle);

/* Tracks a handle the program registered itself (any interface) on STARPU_MAIN_RAM memory of
 * this arena. A handle already tracked (or a child of a tracked plan) is refused. */
STARSCOPE_API starscope_status starscope_arena_track(starscope_arena* arena,
                                                     starpu_data_handle_t handle);
/* Tracks a partition made with starpu_data_partition on a tracked parent: the reset undoes it
 * (starpu_data_unpartition) before unregistering the parent. Track it after its parent; a parent
 * that is not tracked, not partitioned, or whose partition is tracked already is refused. */
STARSCOPE_API starscope_status starscope_arena_track_partition(starscope_arena* arena,
                                                               starpu_data_handle_t parent);
/* Tracks children made with starpu_data_partition_plan on a tracked parent: the reset cleans
 * them (starpu_data_partition_clean). Do not track the children themselves. */
STARSCOPE_API starscope_status
starscope_arena_track_partition_plan(starscope_arena* arena, starpu_data_handle_t parent,
                                     unsigned nchildren, const starpu_data_handle_t* children);

/* Blocking reset: waits until no task uses the tracked handles (the measured barrier, between
 * reset_wait_begin and reset_wait_end markers), unregisters them, and rewinds the memory: the
 * next allocations return the same addresses again. */
STARSCOPE_API starscope_status starscope_arena_reset(starscope_arena* arena);
/* Non-blocking reset: the memory and handles are retired until their tasks finished; new
 * allocations meanwhile come from other blocks (memory grows instead of time being lost). */
STARSCOPE_API starscope_status starscope_arena_reset_deferred(starscope_arena* arena);
/* Waits until every deferred reset of the arena completed. */
STARSCOPE_API starscope_status starscope_arena_wait_deferred(starscope_arena* arena);

/* The arena's counters. Byte counts cover the current chain of blocks; bytes_reserved also the
 * blocks waiting for a deferred reset. */
typedef struct starscope_arena_stats {
    uint64_t bytes_in_use;     /* handed out since the last reset, with padding */
    uint64_t peak_bytes;       /* highest bytes_in_use seen */
    uint64_t bytes_reserved;   /* every block owned */
    uint64_t blocks;           /* blocks owned */
    uint64_t resets;           /* blocking and deferred resets */
    uint64_t deferred_resets;  /* of which deferred */
    uint64_t pending_deferred; /* deferred resets whose tasks are not all done */
    uint64_t handles_tracked;  /* handles and partitions tracked now */
    uint64_t handles_released; /* unregistered by resets so far */
    uint64_t total_wait_ns;    /* time blocking resets waited for tasks, summed */
    uint64_t max_wait_ns;      /* longest single wait */
    uint64_t last_wait_ns;     /* wait of the last reset (0 for a deferred one) */
} starscope_arena_stats;

STARSCOPE_API starscope_status starscope_arena_get_stats(const starscope_arena* arena,
                                                         starscope_arena_stats* stats);

/* ---- The batch-arena ring -------------------------------------------------------------- */

/* N arenas named "<prefix>0" .. "<prefix>N-1". Batch k of the run (counted across epochs) uses
 * slot k % N, and begin_batch first resets that slot, waiting for the tasks of batch k - N:
 * N = 1 waits for the previous batch (a full barrier at every batch transition), N = 2 for the
 * one before it, normally long done. */
typedef struct starscope_ring starscope_ring;

/* slots >= 1; name_prefix NULL for "batch"; options NULL for the defaults. */
STARSCOPE_API starscope_status starscope_ring_create(size_t slots, const char* name_prefix,
                                                     const starscope_arena_options* options,
                                                     starscope_ring** ring);
/* Destroys the ring's arenas (waiting for their tasks). NULL does nothing. Refused between
 * begin_batch and end_batch. */
STARSCOPE_API starscope_status starscope_ring_destroy(starscope_ring* ring);

/* Starts batch `batch` of epoch `epoch` (both >= 0): resets the next slot (may wait: the
 * barrier), writes a batch_begin marker and gives the slot's arena, owned by the ring. Refused
 * while a batch is begun and not ended. */
STARSCOPE_API starscope_status starscope_ring_begin_batch(starscope_ring* ring, int32_t epoch,
                                                          int32_t batch, starscope_arena** arena);
/* Ends the batch begun last (same epoch and batch): writes batch_end. Its memory stays valid
 * until its slot is reused. */
STARSCOPE_API starscope_status starscope_ring_end_batch(starscope_ring* ring, int32_t epoch,
                                                        int32_t batch);
/* Blocking reset of every slot: waits for all the ring's tasks. Refused inside a batch. */
STARSCOPE_API starscope_status starscope_ring_drain(starscope_ring* ring);
/* Number of slots; 0 for a NULL ring. */
STARSCOPE_API size_t starscope_ring_size(const starscope_ring* ring);
/* The arena of slot `index` (< size), e.g. to read its counters. */
STARSCOPE_API starscope_status starscope_ring_slot(starscope_ring* ring, size_t index,
                                                   starscope_arena** arena);

/* ---- Trace markers --------------------------------------------------------------------- */

/* Markers a program writes itself into the FxT trace (read back by starscope's tracer). The
 * ring writes the batch markers, and arenas their reset_wait markers, on their own. */
typedef enum starscope_marker {
    STARSCOPE_MARKER_BATCH_BEGIN = 0,
    STARSCOPE_MARKER_BATCH_END = 1,
    STARSCOPE_MARKER_LOAD_BEGIN = 2, /* loading a batch's input, on the thread that waits for it */
    STARSCOPE_MARKER_LOAD_END = 3,
    STARSCOPE_MARKER_PREFETCH_BEGIN = 4, /* loading ahead of time */
    STARSCOPE_MARKER_PREFETCH_END = 5
} starscope_marker;

/* Nonzero when markers reach a trace: StarPU is initialised with FxT tracing on
 * (STARPU_FXT_TRACE=1). Markers cost nothing else when it is off. */
STARSCOPE_API int starscope_markers_enabled(void);
/* A batch marker (BATCH_BEGIN or BATCH_END). A field of -1 is left out. Any thread. */
STARSCOPE_API starscope_status starscope_mark_batch(starscope_marker kind, int32_t epoch,
                                                    int32_t batch, int32_t slot);
/* A loader marker (LOAD_* or PREFETCH_*), naming the arena the input goes to (NULL: none). A
 * field of -1 is left out. Any thread. */
STARSCOPE_API starscope_status starscope_mark_load(starscope_marker kind, int32_t epoch,
                                                   int32_t batch, int32_t slot, const char* arena);

#ifdef __cplusplus
} /* extern "C" */
#endif
