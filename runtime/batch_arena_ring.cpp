#include "runtime/batch_arena_ring.hpp"

#include "runtime/trace_markers.hpp"

#include <cassert>

namespace starscope::runtime {

BatchArenaRing::BatchArenaRing(std::size_t slots, std::string namePrefix, ArenaOptions options) {
    assert(slots >= 1 && "a ring needs at least one arena");
    m_arenas.reserve(slots);
    for (std::size_t i = 0; i < slots; ++i) {
        m_arenas.push_back(std::make_unique<Arena>(namePrefix + std::to_string(i), options));
    }
    m_currentSlot = slots;
}

BatchArenaRing::~BatchArenaRing() = default;

Arena& BatchArenaRing::beginBatch(std::int64_t epoch, std::int64_t batch) {
    const std::size_t slot = nextSlot();
    ++m_sequence;
    m_currentSlot = slot;
    Arena& arena = *m_arenas[slot];
    // The barrier: returns once the tasks of the batch that last used this slot finished.
    // A slot's first use has nothing to wait for.
    if (m_sequence > m_arenas.size()) {
        arena.reset();
    }
    markBatch(markers::Kind::BatchBegin, epoch, batch, static_cast<std::int64_t>(slot));
    return arena;
}

void BatchArenaRing::endBatch(std::int64_t epoch, std::int64_t batch) {
    markBatch(markers::Kind::BatchEnd, epoch, batch, static_cast<std::int64_t>(m_currentSlot));
}

void BatchArenaRing::drain() {
    for (auto& arena : m_arenas) {
        arena->reset();
    }
}

} // namespace starscope::runtime
