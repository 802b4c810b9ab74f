#pragma once
// Arena: memory of one lifetime (a batch, a prefetched set of images, the weights) carved from
// a chain of blocks with a bump pointer, plus the StarPU data handles registered on that memory.
//
// Why the handles live here: a task submitted on a handle may still read or write the arena's
// memory long after the main thread moved on. reset() therefore first waits until no task uses
// any tracked handle (that wait is the barrier starscope measures), unregisters them, and only
// then hands the same addresses out again. resetDeferred() is the non-blocking alternative: it
// asks StarPU to report when the tasks on the handles are done and moves the blocks aside;
// they are reused (and the handles unregistered) only after that, and allocations meanwhile
// come from other blocks.
//
// Threading: an Arena is used by one thread at a time (normally the main, submitting thread);
// allocate(), the register helpers, reset() and stats() are not synchronised. Only the
// completion of a deferred reset runs on a StarPU worker, and that path is synchronised.
//
// Memory comes from starpu_malloc (pinned when StarPU has CUDA workers, so future GPU tasks can
// use it without staging). starpu_malloc works before starpu_init, but registering handles
// needs an initialised StarPU. Blocks start 64-byte aligned: the arena raises starpu_malloc's
// alignment to 64 with starpu_malloc_set_align (which never lowers it).

#include "runtime/error.hpp"

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <starpu.h>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::runtime {

struct ArenaOptions {
    // Size of the first block, allocated on the first allocation (not at construction).
    std::size_t firstBlockBytes = std::size_t{1} << 20;
    // Each new block is growthFactor times the previous block (2: doubling), and always at
    // least as large as the request that needed it. 1 keeps every block the same size.
    std::size_t growthFactor = 2;
    // Alignment of allocate() calls that pass alignment 0. Must be a power of two.
    std::size_t defaultAlignment = 64;
    // Write reset_wait_begin / reset_wait_end trace markers around each reset.
    bool traceMarkers = true;
};

// A snapshot. Byte counts cover the current chain; bytesReserved also counts blocks waiting
// for a deferred reset to complete.
struct ArenaStats {
    std::uint64_t bytesInUse = 0;      // bytes handed out since the last reset (with padding)
    std::uint64_t peakBytes = 0;       // highest bytesInUse ever seen
    std::uint64_t bytesReserved = 0;   // bytes of every block owned, in use or not
    std::uint64_t blocks = 0;          // blocks owned
    std::uint64_t resets = 0;          // reset() + resetDeferred() calls
    std::uint64_t deferredResets = 0;  // of which resetDeferred()
    std::uint64_t pendingDeferred = 0; // deferred resets whose tasks are not all done yet
    std::uint64_t handlesTracked = 0;  // handles (and partitions) attached right now
    std::uint64_t handlesReleased = 0; // handles unregistered by resets so far
    std::uint64_t totalWaitNs = 0;     // time reset() spent waiting for tasks, summed
    std::uint64_t maxWaitNs = 0;       // longest single reset() wait
    std::uint64_t lastWaitNs = 0;      // wait of the most recent reset() (0 for deferred)

    bool operator==(const ArenaStats&) const = default;
};

// A vector registered with StarPU on arena memory and tracked by that arena.
template <typename T> struct ArenaVector {
    T* data = nullptr;
    std::size_t count = 0;
    starpu_data_handle_t handle = nullptr;
};

namespace detail {
struct DeferredGeneration;
enum class TrackedKind : std::uint8_t { Handle, LegacyPartition, PartitionPlan };
struct TrackedEntry {
    TrackedKind kind = TrackedKind::Handle;
    starpu_data_handle_t handle = nullptr;      // the handle, or the partitioned parent
    std::vector<starpu_data_handle_t> children; // PartitionPlan only
};
struct Block {
    std::byte* base = nullptr;
    std::size_t capacity = 0;
    std::size_t used = 0; // bytes used when the bump pointer left this block
};
} // namespace detail

class Arena {
public:
    explicit Arena(std::string name, ArenaOptions options = {});
    // Blocks until every task on the tracked handles and every deferred reset finished, then
    // unregisters the handles and frees the blocks. Call before starpu_shutdown().
    ~Arena();
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;
    Arena(Arena&&) = delete;
    Arena& operator=(Arena&&) = delete;

    const std::string& name() const { return m_name; }
    const ArenaOptions& options() const { return m_options; }

    // Returns `bytes` bytes aligned to `alignment` (0: options().defaultAlignment; otherwise a
    // power of two), or nullptr when starpu_malloc cannot provide a new block. The fast path is
    // a pointer bump inlined here; a new block is chained only when the request does not fit.
    void* allocate(std::size_t bytes, std::size_t alignment = 0) {
        const std::size_t align = alignment == 0 ? m_options.defaultAlignment : alignment;
        assert((align & (align - 1)) == 0 && "alignment must be a power of two");
        const std::uintptr_t start = (m_cursor + (align - 1)) & ~(std::uintptr_t{align} - 1);
        if (start <= m_limit && bytes <= m_limit - start) [[likely]] {
            m_cursor = start + bytes;
            return reinterpret_cast<void*>(start);
        }
        return allocateSlow(bytes, align);
    }

    // allocate() with the reason of a failure.
    RuntimeResult<void*> tryAllocate(std::size_t bytes, std::size_t alignment = 0);

    template <typename T> T* allocateArray(std::size_t count, std::size_t alignment = 0) {
        const std::size_t align = alignment == 0 ? m_options.defaultAlignment : alignment;
        return static_cast<T*>(
            allocate(count * sizeof(T), align < alignof(T) ? alignof(T) : align));
    }

    // ---- StarPU handles on arena memory. Each helper registers on STARPU_MAIN_RAM and tracks
    // the handle; the arena unregisters it at the next reset. Fails when StarPU is not
    // initialised, when the memory does not lie in this arena's current blocks (a handle on
    // memory the arena does not own would outlive it, or be waited for by the wrong arena) or a
    // size overflows the 32-bit counts of StarPU's interfaces.
    RuntimeResult<starpu_data_handle_t> registerVector(void* ptr, std::size_t count,
                                                       std::size_t elemSize);
    // Column-major as StarPU's matrix interface: nx elements per row run contiguously, ld >= nx.
    RuntimeResult<starpu_data_handle_t> registerMatrix(void* ptr, std::size_t ld, std::size_t nx,
                                                       std::size_t ny, std::size_t elemSize);
    RuntimeResult<starpu_data_handle_t> registerBlock(void* ptr, std::size_t ldy, std::size_t ldz,
                                                      std::size_t nx, std::size_t ny,
                                                      std::size_t nz, std::size_t elemSize);
    RuntimeResult<starpu_data_handle_t> registerVariable(void* ptr, std::size_t elemSize);

    // allocate + registerVector in one call.
    template <typename T> RuntimeResult<ArenaVector<T>> allocateVector(std::size_t count) {
        auto memory = tryAllocate(count * sizeof(T), alignof(T) > m_options.defaultAlignment
                                                         ? alignof(T)
                                                         : m_options.defaultAlignment);
        if (!memory) {
            return fail(memory.error());
        }
        auto handle = registerVector(*memory, count, sizeof(T));
        if (!handle) {
            return fail(handle.error());
        }
        return ArenaVector<T>{static_cast<T*>(*memory), count, *handle};
    }

    // Attaches a handle the caller registered on this arena's memory (any interface).
    void track(starpu_data_handle_t handle);
    // Attaches a partition made with the legacy API (starpu_data_partition on a tracked
    // parent): reset calls starpu_data_unpartition(parent, STARPU_MAIN_RAM) first. Track the
    // partition after its parent; nested partitions after their own parent.
    void trackPartition(starpu_data_handle_t parent);
    // Attaches children made with starpu_data_partition_plan on a tracked parent: reset calls
    // starpu_data_partition_clean(parent, children) before unregistering the parent. Do not
    // track() the children themselves.
    void trackPartitionPlan(starpu_data_handle_t parent,
                            std::span<const starpu_data_handle_t> children);

    // Blocking reset: waits for every task on the tracked handles (measured: lastWaitNs,
    // totalWaitNs, maxWaitNs; reset_wait_* markers), unregisters them in reverse tracking order
    // (so partitions are cleaned before their parents), then rewinds every block: the next
    // allocations return the same addresses as after the previous reset.
    void reset();

    // Non-blocking reset: submits an asynchronous RW acquisition (starpu_data_acquire_cb) of
    // every tracked handle and retires the current blocks; the main thread does not wait (a
    // legacy-API partition is the exception: starpu_data_unpartition blocks; planned
    // partitions are cleaned asynchronously). Once every acquisition was granted (all tasks on
    // the handles finished), the blocks return to the free pool and the handles are
    // unregistered, without waiting, at the arena's next block request, reset,
    // resetDeferred(), waitDeferred() or destruction. Until then new allocations come from free
    // or new blocks, so memory grows instead of time being lost.
    void resetDeferred();

    // Blocks until every deferred reset completed (their blocks become reusable).
    void waitDeferred();

    ArenaStats stats() const;
    std::size_t trackedHandles() const { return m_tracked.size(); }
    // Whether reset would unregister handle: tracked with track() (or registered here), or a
    // child of a tracked partition plan. Tracking it again would unregister it twice.
    bool tracks(starpu_data_handle_t handle) const;
    // Whether a legacy-API partition of parent is tracked: reset would unpartition it twice.
    bool tracksLegacyPartitionOf(starpu_data_handle_t parent) const;
    // Whether reset(), waitDeferred() or the destructor would call StarPU: handles are tracked,
    // or deferred resets still hold theirs. Such calls need an initialised StarPU.
    bool needsStarpu() const { return !m_tracked.empty() || !m_deferred.empty(); }
    // Whether [ptr, ptr + bytes) lies in a block of the current chain.
    bool contains(const void* ptr, std::size_t bytes = 1) const;

private:
    void* allocateSlow(std::size_t bytes, std::size_t alignment);
    void enterBlock(std::size_t index);
    void rewind();
    std::size_t newBlockSize(std::size_t atLeast) const;
    void closeCurrentBlock();
    void harvestDeferred();
    std::vector<starpu_data_handle_t> undoPartitions();
    std::uint64_t currentBytesInUse() const;
    RuntimeResult<Done> checkRegistration(const void* ptr, std::size_t bytes,
                                          std::string_view what) const;

    std::string m_name;
    ArenaOptions m_options;
    // Bump state of the current block: [m_cursor, m_limit). Without a block, cursor 1 > limit 0
    // sends every request, even of zero bytes, to the slow path.
    std::uintptr_t m_cursor = 1;
    std::uintptr_t m_limit = 0;
    std::size_t m_current = 0; // index in m_blocks; m_blocks.size() when there is no block yet
    std::vector<detail::Block> m_blocks;
    std::vector<detail::Block> m_free; // blocks returned by completed deferred resets
    std::vector<std::unique_ptr<detail::DeferredGeneration>> m_deferred;
    std::vector<detail::TrackedEntry> m_tracked;
    std::size_t m_lastBlockSize = 0;
    std::uint64_t m_closedBytes = 0; // bytes used in the blocks left since the last reset
    mutable std::uint64_t m_peakBytes = 0;
    std::uint64_t m_resets = 0;
    std::uint64_t m_deferredResets = 0;
    std::uint64_t m_handlesReleased = 0;
    std::uint64_t m_totalWaitNs = 0;
    std::uint64_t m_maxWaitNs = 0;
    std::uint64_t m_lastWaitNs = 0;
};

} // namespace starscope::runtime
