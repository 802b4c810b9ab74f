#include "tracer/readers/fxt/fxt_direct.hpp"

#include <array>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace starscope::tracer::detail {

bool isDirectFxtLayout(const std::filesystem::path& file) {
    using namespace fxt_direct;
    files::MappedFile map(file);
    if (map.data() == nullptr || map.size() < 8) {
        return false;
    }
    const auto headerSize = load32(map.data() + 4);
    return load32(map.data()) == kMagic && std::uint64_t{headerSize} + 8 <= map.size();
}

namespace fxt_direct {

TraceResult<const files::MappedFile*> open(const files::MappedFile& map, const std::filesystem::path& file) {
    if (!map.error().empty()) {
        return fail(TraceError{ErrorCode::Io, "cannot read: " + map.error(), file.string(), {}});
    }
    const unsigned char* d = map.data();
    const std::uint64_t size = map.size();
    if (d == nullptr || size < 8 || load32(d) != kMagic) {
        return fail(TraceError{ErrorCode::Format, "not an FxT trace (bad magic)", file.string(), 0});
    }
    const std::uint64_t headerSize = load32(d + 4);
    if (headerSize + 8 > size) {
        return fail(TraceError{ErrorCode::Corrupt, "truncated FxT header (" + std::to_string(headerSize)
                                                       + " bytes announced)",
                               file.string(), 4});
    }
    return &map;
}

std::string impossibleBlock(std::uint64_t blockSize) {
    return "FxT block with an impossible size " + std::to_string(blockSize);
}

std::string truncatedBlock(std::uint64_t blockSize, std::uint64_t left) {
    return "truncated FxT block: " + std::to_string(blockSize) + " bytes announced, " + std::to_string(left)
           + " in the file";
}

std::string damagedEvent(std::uint64_t words) {
    return "damaged FxT event (size field " + std::to_string(words) + ")";
}

TraceError cancelled(const std::filesystem::path& file, std::uint64_t offset) {
    return TraceError{ErrorCode::Cancelled, "reading cancelled", file.string(), offset};
}

// A ring of batches between the walking thread and the consumer; every hand-over goes
// through the mutex, a few hundred times for a 360 MB trace.
struct Pipeline::Impl {
    // 16,384 events a batch (about 800 KB of a StarPU trace): with four of them the walk is at
    // most a few MB ahead, well within the cache the two cores share.
    static constexpr std::size_t kBatchEvents = std::size_t{1} << 14;
    static constexpr std::size_t kSlots = 4;
    struct Slot {
        std::vector<std::uint64_t> offsets;
        std::size_t used = 0;
        std::uint64_t origin = 0;
    };
    std::array<Slot, kSlots> slots;
    std::mutex mutex;
    std::condition_variable changed;
    std::size_t filled = 0;     // slots handed over, not yet released (under mutex)
    std::size_t produced = 0;   // slots ever handed over (under mutex)
    bool done = false;          // the walk has ended (under mutex)
    bool holding = false;       // the consumer holds the slot of `consumed` (its thread only)
    std::size_t consumed = 0;   // the consumer's next slot, counted like produced
    std::atomic<bool> stop{false};
    std::thread walker;
};

Pipeline::Pipeline(const unsigned char* data, std::uint64_t size, std::uint64_t firstCode, std::uint64_t lastCode)
    : m_data(data), m_size(size), m_firstCode(firstCode), m_lastCode(lastCode), m_impl(std::make_unique<Impl>()) {
    for (auto& slot : m_impl->slots) {
        slot.offsets.resize(Impl::kBatchEvents);
    }
    m_impl->walker = std::thread([this] { produce(); });
}

Pipeline::~Pipeline() {
    m_impl->stop.store(true, std::memory_order_relaxed);
    {
        // Under the mutex, so that the walker cannot miss the wake-up between its check of
        // stop and its wait.
        const std::lock_guard lock(m_impl->mutex);
        m_impl->changed.notify_all();
    }
    m_impl->walker.join();
}

void Pipeline::produce() {
    auto& q = *m_impl;
    std::size_t index = 0;   // slots filled by this thread
    Impl::Slot* slot = nullptr;
    // Waits for a free slot; null when the consumer has stopped.
    const auto acquire = [&]() -> Impl::Slot* {
        std::unique_lock lock(q.mutex);
        q.changed.wait(lock, [&] { return q.filled < Impl::kSlots || q.stop.load(std::memory_order_relaxed); });
        if (q.stop.load(std::memory_order_relaxed)) {
            return nullptr;
        }
        auto& s = q.slots[index % Impl::kSlots];
        s.used = 0;
        return &s;
    };
    const auto publish = [&](bool last) {
        const std::lock_guard lock(q.mutex);
        if (slot != nullptr && slot->used > 0) {
            ++q.filled;
            ++q.produced;
            ++index;
        }
        q.done = last;
        q.changed.notify_all();
    };
    slot = acquire();
    if (slot == nullptr) {
        return;
    }
    (void)walk(
        m_data, m_size, m_firstCode, m_lastCode, m_summary,
        [&](std::uint64_t, std::uint64_t, std::uint32_t, const unsigned char*, std::uint64_t offset) {
            if (slot->used == Impl::kBatchEvents) {
                publish(false);
                slot = acquire();
                if (slot == nullptr) {
                    return false;
                }
            }
            if (slot->used == 0) {
                slot->origin = m_summary.stream.firstTime;
            }
            slot->offsets[slot->used++] = offset;
            return true;
        },
        [&](std::uint64_t) { return !q.stop.load(std::memory_order_relaxed); });
    publish(true);
}

Pipeline::Batch Pipeline::next() {
    auto& q = *m_impl;
    std::unique_lock lock(q.mutex);
    if (q.holding) {
        q.holding = false;
        ++q.consumed;
        --q.filled;
        q.changed.notify_all();
    }
    q.changed.wait(lock, [&] { return q.produced > q.consumed || q.done; });
    if (q.produced == q.consumed) {
        return {};   // done, and every batch consumed
    }
    q.holding = true;
    const auto& slot = q.slots[q.consumed % Impl::kSlots];
    return Batch{slot.offsets.data(), slot.used, slot.origin};
}

} // namespace fxt_direct

} // namespace starscope::tracer::detail
