#pragma once
// BatchArenaRing: N arenas for per-batch memory (activations, gradients, temporaries).
//
// Batch number k (counted over the whole run, across epochs) uses slot k % N. Before handing a
// slot out, beginBatch() resets it with the blocking Arena::reset(), so it waits for the tasks
// of batch k - N only:
//   N = 1 "single": every batch waits for the previous batch's tasks: a full barrier.
//   N = 2 "double": batch k waits for batch k - 2, normally long done.
//   N > 2: more memory, even less waiting.
// That reset is the barrier starscope measures: it shows in the slot arena's statistics
// (wait_ns) and between the reset_wait_begin/reset_wait_end markers. beginBatch/endBatch write
// batch_begin/batch_end markers with epoch, batch index and slot.
//
// Counting across epochs (rather than batch % N) keeps consecutive batches in different slots
// when the number of batches per epoch is not a multiple of N.
//
// Arenas are named "<prefix><slot>" ("batch0", "batch1", ...), the names the PAPI counters
// and markers use. Not thread-safe: call from the submitting thread.

#include "runtime/arena.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace starscope::runtime {

class BatchArenaRing {
public:
    // slots >= 1 (asserted).
    explicit BatchArenaRing(std::size_t slots, std::string namePrefix = "batch",
                            ArenaOptions options = {});
    // Destroys the arenas, which waits for their tasks; call before starpu_shutdown().
    ~BatchArenaRing();
    BatchArenaRing(const BatchArenaRing&) = delete;
    BatchArenaRing& operator=(const BatchArenaRing&) = delete;

    // Starts a batch: picks the next slot, resets it (blocking: waits for the tasks of the
    // batch that last used it), writes batch_begin and returns the slot's arena.
    Arena& beginBatch(std::int64_t epoch, std::int64_t batch);
    // Writes batch_end for the current batch. Memory stays valid until the slot is reused.
    void endBatch(std::int64_t epoch, std::int64_t batch);

    // Slot of the batch begun last (size() before the first beginBatch).
    std::size_t currentSlot() const { return m_currentSlot; }
    // Slot the next beginBatch() will use (and reset).
    std::size_t nextSlot() const { return static_cast<std::size_t>(m_sequence % m_arenas.size()); }
    // Batches begun so far.
    std::uint64_t batchesBegun() const { return m_sequence; }

    std::size_t size() const { return m_arenas.size(); }
    Arena& slot(std::size_t index) { return *m_arenas.at(index); }
    const Arena& slot(std::size_t index) const { return *m_arenas.at(index); }

    // Blocking reset of every slot: waits for all the ring's tasks (end of training).
    void drain();

private:
    std::vector<std::unique_ptr<Arena>> m_arenas;
    std::uint64_t m_sequence = 0;
    std::size_t m_currentSlot = 0;
};

} // namespace starscope::runtime
