#pragma once
// The objects behind the C API's opaque handles. A starscope_arena is either an arena of its own
// or a view of one slot of a ring (the ring owns that arena, so destroying it alone is refused).
// A starscope_ring adds to BatchArenaRing the batch it has begun, so that the C API can refuse
// calls out of order (an end_batch of another batch, a drain inside a batch) that the C++ ring
// leaves to its caller.

#include "runtime/arena.hpp"
#include "runtime/batch_arena_ring.hpp"
#include "starscope/arena.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct starscope_arena {
    explicit starscope_arena(std::unique_ptr<starscope::runtime::Arena> own)
        : owned(std::move(own)), arena(*owned) {}
    explicit starscope_arena(starscope::runtime::Arena& slot) : arena(slot) {}

    std::unique_ptr<starscope::runtime::Arena> owned; // null for a ring's slot
    starscope::runtime::Arena& arena;
};

struct starscope_ring {
    starscope_ring(std::size_t slots, std::string namePrefix,
                   const starscope::runtime::ArenaOptions& options)
        : ring(slots, std::move(namePrefix), options) {
        views.reserve(slots);
        for (std::size_t i = 0; i < slots; ++i) {
            views.emplace_back(ring.slot(i));
        }
    }

    starscope::runtime::BatchArenaRing ring;
    std::vector<starscope_arena> views; // one per slot; never resized, so pointers stay valid
    bool batchOpen = false;             // between begin_batch and end_batch
    std::int32_t epoch = -1;            // of the batch begun last
    std::int32_t batch = -1;
};

namespace starscope::runtime::c_api {

// Checks C options (NULL: the defaults) and converts them; STARSCOPE_OK or the failure recorded.
starscope_status toArenaOptions(const char* function, const starscope_arena_options* options,
                                ArenaOptions& out);

} // namespace starscope::runtime::c_api
