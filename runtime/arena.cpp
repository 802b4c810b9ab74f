#include "runtime/arena.hpp"

#include "runtime/trace_markers.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <utility>

namespace starscope::runtime {

namespace detail {

// Blocks retired by one resetDeferred(), returned to the free pool once StarPU granted (and so
// finished every earlier task on) each of the generation's handles.
struct DeferredGeneration {
    struct Wait {
        starpu_data_handle_t handle = nullptr;
        DeferredGeneration* generation = nullptr;
    };

    std::vector<Block> blocks;
    std::vector<Wait> waits;
    std::mutex mutex;
    std::condition_variable done;
    std::size_t pending = 0;

    bool finished() {
        const std::lock_guard lock(mutex);
        return pending == 0;
    }
    void wait() {
        std::unique_lock lock(mutex);
        done.wait(lock, [this] { return pending == 0; });
    }
};

} // namespace detail

namespace {

constexpr int kMallocFlags = STARPU_MALLOC_PINNED;
constexpr std::size_t kBlockAlignment = 64;

std::uint64_t nanosSince(std::chrono::steady_clock::time_point start) {
    const auto elapsed = std::chrono::steady_clock::now() - start;
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count());
}

// Runs on a StarPU worker (or the submitting thread when the data is already free) once every
// earlier task on the handle finished. Nothing here may throw.
void onDeferredAcquired(void* arg) noexcept {
    auto* wait = static_cast<detail::DeferredGeneration::Wait*>(arg);
    starpu_data_release(wait->handle);
    detail::DeferredGeneration& generation = *wait->generation;
    const std::lock_guard lock(generation.mutex);
    if (--generation.pending == 0) {
        generation.done.notify_all();
    }
}

// Submits an RW acquisition of every handle, counted in generation.pending. Acquiring in RW
// mode waits for every earlier reader and writer and brings the only valid copy home (so a
// GPU copy is written back before the memory is reused); the callback releases at once.
void acquireAll(detail::DeferredGeneration& generation,
                const std::vector<starpu_data_handle_t>& handles) {
    generation.waits.resize(handles.size());
    {
        const std::lock_guard lock(generation.mutex);
        generation.pending = handles.size();
    }
    for (std::size_t i = 0; i < handles.size(); ++i) {
        generation.waits[i] = {handles[i], &generation};
        const int status = starpu_data_acquire_cb(handles[i], STARPU_RW, &onDeferredAcquired,
                                                  &generation.waits[i]);
        assert(status == 0);
        (void)status;
    }
}

// Unregisters a handle whose every access was granted and released, with nothing else to
// come: no dependency is left to wait for, so StarPU's synchronisation task is skipped.
// (starpu_data_unregister_submit would do it from a worker, but StarPU 1.3.10 leaks a
// 48-byte request per handle on that path.)
void unregisterIdle(starpu_data_handle_t handle) {
    starpu_data_set_sequential_consistency_flag(handle, 0);
    starpu_data_unregister(handle);
}

bool fitsIn(const detail::Block& block, std::size_t bytes, std::size_t alignment) {
    const auto base = reinterpret_cast<std::uintptr_t>(block.base);
    const std::uintptr_t start = (base + (alignment - 1)) & ~(std::uintptr_t{alignment} - 1);
    const std::uintptr_t limit = base + block.capacity;
    return start <= limit && bytes <= limit - start;
}

} // namespace

Arena::Arena(std::string name, ArenaOptions options) : m_name(std::move(name)), m_options(options) {
    assert(m_options.defaultAlignment != 0
           && (m_options.defaultAlignment & (m_options.defaultAlignment - 1)) == 0);
    assert(m_options.growthFactor >= 1);
    if (m_options.firstBlockBytes == 0) {
        m_options.firstBlockBytes = m_options.defaultAlignment;
    }
}

Arena::~Arena() {
    waitDeferred();
    if (!m_tracked.empty()) {
        reset();
    }
    harvestDeferred();
    for (auto* pool : {&m_blocks, &m_free}) {
        for (const auto& block : *pool) {
            starpu_free_flags(block.base, block.capacity, kMallocFlags);
        }
    }
}

std::size_t Arena::newBlockSize(std::size_t atLeast) const {
    std::size_t size = m_options.firstBlockBytes;
    if (m_lastBlockSize != 0) {
        size = m_lastBlockSize > std::numeric_limits<std::size_t>::max() / m_options.growthFactor
                   ? m_lastBlockSize
                   : m_lastBlockSize * m_options.growthFactor;
    }
    return std::max(size, atLeast);
}

void Arena::closeCurrentBlock() {
    if (m_current < m_blocks.size()) {
        auto& block = m_blocks[m_current];
        block.used =
            static_cast<std::size_t>(m_cursor - reinterpret_cast<std::uintptr_t>(block.base));
        m_closedBytes += block.used;
    }
}

void Arena::enterBlock(std::size_t index) {
    m_current = index;
    if (index >= m_blocks.size()) {
        m_cursor = 1;
        m_limit = 0;
        return;
    }
    const auto& block = m_blocks[index];
    m_cursor = reinterpret_cast<std::uintptr_t>(block.base);
    m_limit = m_cursor + block.capacity;
}

void* Arena::allocateSlow(std::size_t bytes, std::size_t alignment) {
    assert(alignment != 0 && (alignment & (alignment - 1)) == 0);
    // The arena only moves to another block once that block is known: a failed request leaves
    // the current block (and the bytes counted in it) untouched.
    const bool hadBlock = m_current < m_blocks.size();
    std::size_t target = m_blocks.size();
    // Blocks further down the chain, kept from before the last reset.
    for (std::size_t i = m_current < m_blocks.size() ? m_current + 1 : 0; i < m_blocks.size();
         ++i) {
        if (fitsIn(m_blocks[i], bytes, alignment)) {
            target = i;
            break;
        }
    }
    if (target == m_blocks.size()) {
        // Blocks freed by completed deferred resets, then a new one.
        harvestDeferred();
        const auto reusable =
            std::find_if(m_free.begin(), m_free.end(),
                         [&](const detail::Block& b) { return fitsIn(b, bytes, alignment); });
        if (reusable != m_free.end()) {
            m_blocks.push_back(*reusable);
            m_free.erase(reusable);
        } else {
            if (bytes > std::numeric_limits<std::size_t>::max() - alignment) {
                return nullptr;
            }
            // Blocks start 64-aligned, so only a larger alignment needs room to pad.
            starpu_malloc_set_align(kBlockAlignment);
            const std::size_t padding =
                alignment > kBlockAlignment ? alignment - kBlockAlignment : 0;
            const std::size_t size = newBlockSize(bytes + padding);
            void* memory = nullptr;
            if (starpu_malloc_flags(&memory, size, kMallocFlags) != 0 || memory == nullptr) {
                return nullptr;
            }
            m_blocks.push_back(detail::Block{static_cast<std::byte*>(memory), size, 0});
            m_lastBlockSize = size;
        }
        target = m_blocks.size() - 1;
    }
    if (hadBlock) {
        closeCurrentBlock();
    }
    enterBlock(target);
    return allocate(bytes, alignment);
}

RuntimeResult<void*> Arena::tryAllocate(std::size_t bytes, std::size_t alignment) {
    const std::size_t align = alignment == 0 ? m_options.defaultAlignment : alignment;
    if ((align & (align - 1)) != 0) {
        return runtimeFailure(RuntimeErrorCode::InvalidArgument,
                              "arena '" + m_name + "': alignment " + std::to_string(align)
                                  + " is not a power of two");
    }
    void* memory = allocate(bytes, align);
    if (memory == nullptr) {
        return runtimeFailure(RuntimeErrorCode::AllocationFailed,
                              "arena '" + m_name + "': starpu_malloc could not provide a block for "
                                  + std::to_string(bytes) + " bytes (alignment "
                                  + std::to_string(align) + ")");
    }
    return memory;
}

RuntimeResult<Done> Arena::checkRegistration(const void* ptr, std::size_t bytes,
                                             std::string_view what) const {
    if (starpu_is_initialized() == 0) {
        return runtimeFailure(RuntimeErrorCode::StarpuNotInitialized,
                              "arena '" + m_name + "': cannot register a " + std::string(what)
                                  + ": StarPU is not initialised (call starpu_init first)");
    }
    if (bytes == 0) {
        return runtimeFailure(RuntimeErrorCode::InvalidArgument,
                              "arena '" + m_name + "': cannot register an empty "
                                  + std::string(what));
    }
    if (!contains(ptr, bytes)) {
        return runtimeFailure(RuntimeErrorCode::InvalidArgument,
                              "arena '" + m_name + "': cannot register a " + std::string(what)
                                  + " of " + std::to_string(bytes)
                                  + " bytes: its memory does not lie in the arena");
    }
    return Done{};
}

namespace {
bool fitsU32(std::initializer_list<std::size_t> values) {
    return std::all_of(values.begin(), values.end(), [](std::size_t v) {
        return v <= std::numeric_limits<std::uint32_t>::max();
    });
}
} // namespace

RuntimeResult<starpu_data_handle_t> Arena::registerVector(void* ptr, std::size_t count,
                                                          std::size_t elemSize) {
    if (auto ok = checkRegistration(ptr, count * elemSize, "vector"); !ok) {
        return fail(ok.error());
    }
    if (!fitsU32({count})) {
        return runtimeFailure(RuntimeErrorCode::InvalidArgument,
                              "arena '" + m_name + "': vector of " + std::to_string(count)
                                  + " elements exceeds StarPU's 32-bit count");
    }
    starpu_data_handle_t handle = nullptr;
    starpu_vector_data_register(&handle, STARPU_MAIN_RAM, reinterpret_cast<std::uintptr_t>(ptr),
                                static_cast<std::uint32_t>(count), elemSize);
    track(handle);
    return handle;
}

RuntimeResult<starpu_data_handle_t> Arena::registerMatrix(void* ptr, std::size_t ld, std::size_t nx,
                                                          std::size_t ny, std::size_t elemSize) {
    const std::size_t bytes = ny == 0 ? 0 : ((ny - 1) * ld + nx) * elemSize;
    if (auto ok = checkRegistration(ptr, bytes, "matrix"); !ok) {
        return fail(ok.error());
    }
    if (!fitsU32({ld, nx, ny}) || ld < nx) {
        return runtimeFailure(RuntimeErrorCode::InvalidArgument,
                              "arena '" + m_name + "': matrix ld=" + std::to_string(ld)
                                  + " nx=" + std::to_string(nx) + " ny=" + std::to_string(ny)
                                  + " is invalid (ld >= nx, 32-bit sizes)");
    }
    starpu_data_handle_t handle = nullptr;
    starpu_matrix_data_register(&handle, STARPU_MAIN_RAM, reinterpret_cast<std::uintptr_t>(ptr),
                                static_cast<std::uint32_t>(ld), static_cast<std::uint32_t>(nx),
                                static_cast<std::uint32_t>(ny), elemSize);
    track(handle);
    return handle;
}

RuntimeResult<starpu_data_handle_t> Arena::registerBlock(void* ptr, std::size_t ldy,
                                                         std::size_t ldz, std::size_t nx,
                                                         std::size_t ny, std::size_t nz,
                                                         std::size_t elemSize) {
    const std::size_t bytes =
        (ny == 0 || nz == 0) ? 0 : ((nz - 1) * ldz + (ny - 1) * ldy + nx) * elemSize;
    if (auto ok = checkRegistration(ptr, bytes, "block"); !ok) {
        return fail(ok.error());
    }
    if (!fitsU32({ldy, ldz, nx, ny, nz}) || ldy < nx || ldz < ldy * ny) {
        return runtimeFailure(RuntimeErrorCode::InvalidArgument,
                              "arena '" + m_name + "': block ldy=" + std::to_string(ldy)
                                  + " ldz=" + std::to_string(ldz) + " nx=" + std::to_string(nx)
                                  + " ny=" + std::to_string(ny) + " nz=" + std::to_string(nz)
                                  + " is invalid (ldy >= nx, ldz >= ldy*ny, 32-bit sizes)");
    }
    starpu_data_handle_t handle = nullptr;
    starpu_block_data_register(&handle, STARPU_MAIN_RAM, reinterpret_cast<std::uintptr_t>(ptr),
                               static_cast<std::uint32_t>(ldy), static_cast<std::uint32_t>(ldz),
                               static_cast<std::uint32_t>(nx), static_cast<std::uint32_t>(ny),
                               static_cast<std::uint32_t>(nz), elemSize);
    track(handle);
    return handle;
}

RuntimeResult<starpu_data_handle_t> Arena::registerVariable(void* ptr, std::size_t elemSize) {
    if (auto ok = checkRegistration(ptr, elemSize, "variable"); !ok) {
        return fail(ok.error());
    }
    starpu_data_handle_t handle = nullptr;
    starpu_variable_data_register(&handle, STARPU_MAIN_RAM, reinterpret_cast<std::uintptr_t>(ptr),
                                  elemSize);
    track(handle);
    return handle;
}

void Arena::track(starpu_data_handle_t handle) {
    assert(handle != nullptr);
    m_tracked.push_back(detail::TrackedEntry{detail::TrackedKind::Handle, handle, {}});
}

void Arena::trackPartition(starpu_data_handle_t parent) {
    assert(parent != nullptr);
    m_tracked.push_back(detail::TrackedEntry{detail::TrackedKind::LegacyPartition, parent, {}});
}

void Arena::trackPartitionPlan(starpu_data_handle_t parent,
                               std::span<const starpu_data_handle_t> children) {
    assert(parent != nullptr && !children.empty());
    m_tracked.push_back(detail::TrackedEntry{
        detail::TrackedKind::PartitionPlan, parent, {children.begin(), children.end()}});
}

bool Arena::tracks(starpu_data_handle_t handle) const {
    return std::any_of(m_tracked.begin(), m_tracked.end(), [handle](const auto& entry) {
        switch (entry.kind) {
        case detail::TrackedKind::Handle:
            return entry.handle == handle;
        case detail::TrackedKind::LegacyPartition:
            return false;
        case detail::TrackedKind::PartitionPlan:
            return std::find(entry.children.begin(), entry.children.end(), handle)
                   != entry.children.end();
        }
        return false;
    });
}

bool Arena::tracksLegacyPartitionOf(starpu_data_handle_t parent) const {
    return std::any_of(m_tracked.begin(), m_tracked.end(), [parent](const auto& entry) {
        return entry.kind == detail::TrackedKind::LegacyPartition && entry.handle == parent;
    });
}

std::uint64_t Arena::currentBytesInUse() const {
    std::uint64_t bytes = m_closedBytes;
    if (m_current < m_blocks.size()) {
        bytes += m_cursor - reinterpret_cast<std::uintptr_t>(m_blocks[m_current].base);
    }
    return bytes;
}

void Arena::rewind() {
    m_peakBytes = std::max(m_peakBytes, currentBytesInUse());
    m_closedBytes = 0;
    for (auto& block : m_blocks) {
        block.used = 0;
    }
    enterBlock(0);
}

std::vector<starpu_data_handle_t> Arena::undoPartitions() {
    // Reverse order: partitions (tracked after their parents) are undone before the parents
    // are acquired; what remains are the handles to unregister.
    std::vector<starpu_data_handle_t> roots;
    roots.reserve(m_tracked.size());
    for (auto it = m_tracked.rbegin(); it != m_tracked.rend(); ++it) {
        switch (it->kind) {
        case detail::TrackedKind::Handle:
            roots.push_back(it->handle);
            break;
        case detail::TrackedKind::LegacyPartition:
            // The legacy API has no asynchronous unpartition: this one blocks.
            starpu_data_unpartition(it->handle, STARPU_MAIN_RAM);
            break;
        case detail::TrackedKind::PartitionPlan:
            starpu_data_partition_clean(it->handle, static_cast<unsigned>(it->children.size()),
                                        it->children.data());
            break;
        }
    }
    m_handlesReleased += m_tracked.size();
    m_tracked.clear();
    return roots;
}

void Arena::reset() {
    harvestDeferred();
    const auto handles = static_cast<std::int64_t>(m_tracked.size());
    if (m_options.traceMarkers) {
        markResetWait(markers::Kind::ResetWaitBegin, m_name, handles);
    }
    const auto start = std::chrono::steady_clock::now();
    // Each unregister returns once no task uses the handle any more. (Submitting an
    // asynchronous acquisition of every handle first and waiting once measured slower: 4.1 us
    // of CPU per handle against 2.9 us.)
    for (const auto handle : undoPartitions()) {
        starpu_data_unregister(handle);
    }
    const std::uint64_t waited = nanosSince(start);
    if (m_options.traceMarkers) {
        markResetWait(markers::Kind::ResetWaitEnd, m_name, handles);
    }
    m_lastWaitNs = waited;
    m_totalWaitNs += waited;
    m_maxWaitNs = std::max(m_maxWaitNs, waited);
    ++m_resets;
    rewind();
}

void Arena::resetDeferred() {
    harvestDeferred();
    auto generation = std::make_unique<detail::DeferredGeneration>();
    closeCurrentBlock();
    m_peakBytes = std::max(m_peakBytes, m_closedBytes);
    m_closedBytes = 0;
    generation->blocks = std::move(m_blocks);
    m_blocks.clear();
    for (auto& block : generation->blocks) {
        block.used = 0;
    }
    enterBlock(0);
    const auto roots = undoPartitions();
    ++m_resets;
    ++m_deferredResets;
    m_lastWaitNs = 0;
    if (roots.empty()) {
        for (const auto& block : generation->blocks) {
            m_free.push_back(block);
        }
        return;
    }
    // The blocks are reusable, and the handles unregistered by harvestDeferred(), once every
    // acquisition was granted.
    acquireAll(*generation, roots);
    m_deferred.push_back(std::move(generation));
}

void Arena::harvestDeferred() {
    for (auto it = m_deferred.begin(); it != m_deferred.end();) {
        if ((*it)->finished()) {
            for (const auto& wait : (*it)->waits) {
                unregisterIdle(wait.handle);
            }
            for (const auto& block : (*it)->blocks) {
                m_free.push_back(block);
            }
            it = m_deferred.erase(it);
        } else {
            ++it;
        }
    }
}

void Arena::waitDeferred() {
    for (auto& generation : m_deferred) {
        generation->wait();
    }
    harvestDeferred();
}

bool Arena::contains(const void* ptr, std::size_t bytes) const {
    const auto p = reinterpret_cast<std::uintptr_t>(ptr);
    return std::any_of(m_blocks.begin(), m_blocks.end(), [&](const detail::Block& block) {
        const auto base = reinterpret_cast<std::uintptr_t>(block.base);
        return p >= base && p - base <= block.capacity && bytes <= block.capacity - (p - base);
    });
}

ArenaStats Arena::stats() const {
    ArenaStats s;
    s.bytesInUse = currentBytesInUse();
    m_peakBytes = std::max(m_peakBytes, s.bytesInUse);
    s.peakBytes = m_peakBytes;
    std::uint64_t reserved = 0;
    std::uint64_t blocks = 0;
    const auto add = [&](const std::vector<detail::Block>& pool) {
        for (const auto& block : pool) {
            reserved += block.capacity;
            ++blocks;
        }
    };
    add(m_blocks);
    add(m_free);
    std::uint64_t pending = 0;
    for (const auto& generation : m_deferred) {
        add(generation->blocks);
        pending += generation->finished() ? 0U : 1U;
    }
    s.bytesReserved = reserved;
    s.blocks = blocks;
    s.resets = m_resets;
    s.deferredResets = m_deferredResets;
    s.pendingDeferred = pending;
    s.handlesTracked = m_tracked.size();
    s.handlesReleased = m_handlesReleased;
    s.totalWaitNs = m_totalWaitNs;
    s.maxWaitNs = m_maxWaitNs;
    s.lastWaitNs = m_lastWaitNs;
    return s;
}

} // namespace starscope::runtime
