// The batch-arena ring functions of starscope/arena.h over runtime::BatchArenaRing.

#include "runtime/c_api/boundary.hpp"
#include "runtime/c_api/objects.hpp"

#include <string>

using namespace starscope::runtime;
using namespace starscope::runtime::c_api;

namespace {

std::string batchName(std::int32_t epoch, std::int32_t batch) {
    return "epoch " + std::to_string(epoch) + " batch " + std::to_string(batch);
}

// Refuses what would break the batch markers' pairs or free the batch's arena under its user:
// a drain, a destroy or a second begin inside a batch.
starscope_status requireNoOpenBatch(const char* function, const starscope_ring& ring) {
    if (!ring.batchOpen) {
        return STARSCOPE_OK;
    }
    return failure(function, STARSCOPE_ERROR_INVALID_STATE,
                   batchName(ring.epoch, ring.batch)
                       + " is begun and not ended (call starscope_ring_end_batch first)");
}

// Checks before a call that resets every slot (drain, destroy).
starscope_status requireAllMayWait(const char* function, const starscope_ring& ring) {
    if (const auto s = refuseInTask(function); s != STARSCOPE_OK) {
        return s;
    }
    for (const auto& view : ring.views) {
        if (const auto s = requireStarpuFor(function, view.arena); s != STARSCOPE_OK) {
            return s;
        }
    }
    return STARSCOPE_OK;
}

} // namespace

extern "C" {

starscope_status starscope_ring_create(size_t slots, const char* name_prefix,
                                       const starscope_arena_options* options,
                                       starscope_ring** ring) {
    return guarded(__func__, [&](const char* fn) {
        if (const auto s = requireNonNull(fn, ring, "ring"); s != STARSCOPE_OK) {
            return s;
        }
        if (slots == 0) {
            return failure(fn, STARSCOPE_ERROR_INVALID_ARGUMENT,
                           "slots is 0 (a ring needs at least one arena)");
        }
        const char* prefix = name_prefix == nullptr ? "batch" : name_prefix;
        if (const auto s = requireName(fn, prefix, "name_prefix"); s != STARSCOPE_OK) {
            return s;
        }
        ArenaOptions converted;
        if (const auto s = toArenaOptions(fn, options, converted); s != STARSCOPE_OK) {
            return s;
        }
        *ring = new starscope_ring(slots, prefix, converted);
        return STARSCOPE_OK;
    });
}

starscope_status starscope_ring_destroy(starscope_ring* ring) {
    if (ring == nullptr) {
        return STARSCOPE_OK;
    }
    return guarded(__func__, [&](const char* fn) {
        // The arena handed out by begin_batch is in use by the caller until end_batch.
        if (const auto s = requireNoOpenBatch(fn, *ring); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = requireAllMayWait(fn, *ring); s != STARSCOPE_OK) {
            return s;
        }
        delete ring;
        return STARSCOPE_OK;
    });
}

starscope_status starscope_ring_begin_batch(starscope_ring* ring, int32_t epoch, int32_t batch,
                                            starscope_arena** arena) {
    return guarded(__func__, [&](const char* fn) {
        if (const auto s = requireNonNull(fn, ring, "ring"); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = requireNonNull(fn, arena, "arena"); s != STARSCOPE_OK) {
            return s;
        }
        if (epoch < 0 || batch < 0) {
            return failure(fn, STARSCOPE_ERROR_INVALID_ARGUMENT,
                           batchName(epoch, batch) + ": epoch and batch must be >= 0");
        }
        if (const auto s = requireNoOpenBatch(fn, *ring); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = refuseInTask(fn); s != STARSCOPE_OK) {
            return s;
        }
        const Arena& next = ring->ring.slot(ring->ring.nextSlot());
        if (const auto s = requireStarpuFor(fn, next); s != STARSCOPE_OK) {
            return s;
        }
        ring->ring.beginBatch(epoch, batch);
        ring->batchOpen = true;
        ring->epoch = epoch;
        ring->batch = batch;
        *arena = &ring->views[ring->ring.currentSlot()];
        return STARSCOPE_OK;
    });
}

starscope_status starscope_ring_end_batch(starscope_ring* ring, int32_t epoch, int32_t batch) {
    return guarded(__func__, [&](const char* fn) {
        if (const auto s = requireNonNull(fn, ring, "ring"); s != STARSCOPE_OK) {
            return s;
        }
        if (!ring->batchOpen) {
            return failure(fn, STARSCOPE_ERROR_INVALID_STATE,
                           "no batch is begun (" + batchName(epoch, batch) + " was not begun)");
        }
        if (epoch != ring->epoch || batch != ring->batch) {
            return failure(fn, STARSCOPE_ERROR_INVALID_ARGUMENT,
                           "ends " + batchName(epoch, batch) + " but "
                               + batchName(ring->epoch, ring->batch) + " is the batch begun");
        }
        ring->ring.endBatch(epoch, batch);
        ring->batchOpen = false;
        return STARSCOPE_OK;
    });
}

starscope_status starscope_ring_drain(starscope_ring* ring) {
    return guarded(__func__, [&](const char* fn) {
        if (const auto s = requireNonNull(fn, ring, "ring"); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = requireNoOpenBatch(fn, *ring); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = requireAllMayWait(fn, *ring); s != STARSCOPE_OK) {
            return s;
        }
        ring->ring.drain();
        return STARSCOPE_OK;
    });
}

size_t starscope_ring_size(const starscope_ring* ring) {
    return ring == nullptr ? 0 : ring->ring.size();
}

starscope_status starscope_ring_slot(starscope_ring* ring, size_t index, starscope_arena** arena) {
    return guarded(__func__, [&](const char* fn) {
        if (const auto s = requireNonNull(fn, ring, "ring"); s != STARSCOPE_OK) {
            return s;
        }
        if (const auto s = requireNonNull(fn, arena, "arena"); s != STARSCOPE_OK) {
            return s;
        }
        if (index >= ring->views.size()) {
            return failure(fn, STARSCOPE_ERROR_INVALID_ARGUMENT,
                           "slot " + std::to_string(index) + " of a ring of "
                               + std::to_string(ring->views.size()));
        }
        *arena = &ring->views[index];
        return STARSCOPE_OK;
    });
}

} // extern "C"
