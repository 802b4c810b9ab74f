/* A StarPU program in C whose per-batch data live in a ring of starscope arenas.
 *
 * Why it exists: it is the smallest training-shaped loop (epochs of batches; each batch loads its
 * input, then tasks work on it) that shows what the arenas measure. Each batch's chunks are
 * allocated in the batch's arena and registered through it; starting the next batch that reuses
 * the arena resets it, which waits until the tasks on those chunks finished. With one arena that
 * wait is a barrier at every batch transition; with two, batch k waits for batch k - 2 only.
 *
 *   c_arena [SLOTS [EPOCHS [BATCHES]]]      defaults: 1 arena, 2 epochs of 4 batches
 *
 * Record it with STARPU_FXT_TRACE=1 STARPU_FXT_PREFIX=<existing folder>, then read the folder
 * with `starscope barriers <folder>`. Exits 0 when every batch's checksum matched.
 */
#include <starpu.h>
#include <starscope/arena.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum {
    CHUNKS = 4,             /* vectors (handles) per batch */
    CHUNK_FLOATS = 1 << 18, /* 1 MiB each */
    PASSES = 8              /* doublings per task: values stay exact in float */
};

/* Batches whose checksum task found a wrong sum (written by workers). */
static atomic_int g_bad_batches;

/* Doubles its chunk PASSES times. */
static void scale_cpu(void* buffers[], void* cl_arg) {
    (void)cl_arg;
    float* x = (float*)STARPU_VECTOR_GET_PTR(buffers[0]);
    const unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
    for (int pass = 0; pass < PASSES; ++pass) {
        for (unsigned i = 0; i < n; ++i) {
            x[i] *= 2.0f;
        }
    }
}

/* Sums every chunk of the batch and compares with the sum expected (a task value). */
static void checksum_cpu(void* buffers[], void* cl_arg) {
    double expected = 0.0;
    starpu_codelet_unpack_args(cl_arg, &expected);
    double sum = 0.0;
    for (int c = 0; c < CHUNKS; ++c) {
        const float* x = (const float*)STARPU_VECTOR_GET_PTR(buffers[c]);
        const unsigned n = STARPU_VECTOR_GET_NX(buffers[c]);
        for (unsigned i = 0; i < n; ++i) {
            sum += x[i];
        }
    }
    if (sum != expected) {
        atomic_fetch_add(&g_bad_batches, 1);
    }
}

static struct starpu_codelet scale_cl = {
    .cpu_funcs = {scale_cpu},
    .nbuffers = 1,
    .modes = {STARPU_RW},
    .name = "c_arena_scale",
};

static struct starpu_codelet checksum_cl = {
    .cpu_funcs = {checksum_cpu},
    .nbuffers = CHUNKS,
    .modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_R},
    .name = "c_arena_checksum",
};

/* Reports a failed starscope call; nonzero when it failed. */
static int failed(starscope_status status, const char* what) {
    if (status == STARSCOPE_OK) {
        return 0;
    }
    fprintf(stderr, "c_arena: %s: %s\n", what, starscope_last_error());
    return 1;
}

/* The main thread "loads" the batch's input (as a naive image loader would), between load
 * markers; returns the sum the checksum task must find. */
static double load_batch(float* chunks[CHUNKS], int32_t epoch, int32_t batch, int32_t slot,
                         const char* arena) {
    starscope_mark_load(STARSCOPE_MARKER_LOAD_BEGIN, epoch, batch, slot, arena);
    double sum = 0.0;
    for (int c = 0; c < CHUNKS; ++c) {
        for (unsigned i = 0; i < CHUNK_FLOATS; ++i) {
            chunks[c][i] = (float)((i + (unsigned)batch + (unsigned)c) % 100u);
            sum += chunks[c][i];
        }
    }
    starscope_mark_load(STARSCOPE_MARKER_LOAD_END, epoch, batch, slot, arena);
    return sum * (double)(1u << PASSES);
}

/* One batch: its arena from the ring, chunks allocated and registered there, the input loaded,
 * the tasks submitted. The batch's memory is not waited for here but when its arena comes round
 * again. */
static int run_batch(starscope_ring* ring, int32_t epoch, int32_t batch) {
    starscope_arena* arena = NULL;
    if (failed(starscope_ring_begin_batch(ring, epoch, batch, &arena), "begin batch")) {
        return 1;
    }
    float* chunks[CHUNKS];
    starpu_data_handle_t handles[CHUNKS];
    for (int c = 0; c < CHUNKS; ++c) {
        void* data = NULL;
        if (failed(starscope_arena_alloc_vector(arena, CHUNK_FLOATS, sizeof(float), &data,
                                                &handles[c]),
                   "allocate a chunk")) {
            return 1;
        }
        chunks[c] = data;
    }
    const char* name = starscope_arena_name(arena);
    double expected = load_batch(chunks, epoch, batch, -1, name);
    for (int c = 0; c < CHUNKS; ++c) {
        if (starpu_task_insert(&scale_cl, STARPU_RW, handles[c], 0) != 0) {
            fprintf(stderr, "c_arena: starpu_task_insert failed\n");
            return 1;
        }
    }
    if (starpu_task_insert(&checksum_cl, STARPU_R, handles[0], STARPU_R, handles[1], STARPU_R,
                           handles[2], STARPU_R, handles[3], STARPU_VALUE, &expected,
                           sizeof(expected), 0)
        != 0) {
        fprintf(stderr, "c_arena: starpu_task_insert failed\n");
        return 1;
    }
    return failed(starscope_ring_end_batch(ring, epoch, batch), "end batch");
}

static void print_slot(starscope_ring* ring, size_t index) {
    starscope_arena* arena = NULL;
    starscope_arena_stats stats;
    if (starscope_ring_slot(ring, index, &arena) != STARSCOPE_OK
        || starscope_arena_get_stats(arena, &stats) != STARSCOPE_OK) {
        return;
    }
    printf("  %s: %llu resets waited %.3f ms in total (max %.3f ms), peak %llu bytes\n",
           starscope_arena_name(arena), (unsigned long long)stats.resets,
           (double)stats.total_wait_ns / 1e6, (double)stats.max_wait_ns / 1e6,
           (unsigned long long)stats.peak_bytes);
}

int main(int argc, char** argv) {
    const size_t slots = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 1;
    const int32_t epochs = argc > 2 ? (int32_t)atoi(argv[2]) : 2;
    const int32_t batches = argc > 3 ? (int32_t)atoi(argv[3]) : 4;

    if (starpu_init(NULL) != 0) {
        fprintf(stderr, "c_arena: starpu_init failed\n");
        return 1;
    }
    int status = 0;
    starscope_ring* ring = NULL;
    if (failed(starscope_ring_create(slots, "batch", NULL, &ring), "create the ring")) {
        status = 1;
    }
    for (int32_t epoch = 0; status == 0 && epoch < epochs; ++epoch) {
        for (int32_t batch = 0; status == 0 && batch < batches; ++batch) {
            status = run_batch(ring, epoch, batch);
        }
    }
    /* Waits for the last batches' tasks; then the arenas go before StarPU does. */
    if (ring != NULL && failed(starscope_ring_drain(ring), "drain the ring")) {
        status = 1;
    }
    if (status == 0) {
        printf("c_arena: epochs %d, batches per epoch %d, ring of %zu arena(s): %d bad "
               "checksum(s)\n",
               epochs, batches, slots, atomic_load(&g_bad_batches));
        for (size_t i = 0; i < starscope_ring_size(ring); ++i) {
            print_slot(ring, i);
        }
    }
    if (failed(starscope_ring_destroy(ring), "destroy the ring")) {
        status = 1;
    }
    starpu_shutdown();
    return status != 0 || atomic_load(&g_bad_batches) != 0 ? 1 : 0;
}
