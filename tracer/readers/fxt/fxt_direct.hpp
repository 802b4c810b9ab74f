#pragma once
// A bounds-checked reader of the FxT file layout libfxt 0.3 writes for 64-bit traces, used
// instead of libfxt when the file has that layout: it is several times faster than libfxt's
// fxt_next_ev (which copies a 2 KB event per call) and cannot crash or loop on damaged input.
//
// Layout, as libfxt 0.3.13 writes and reads it (checked event for event against fxt_next_ev
// on StarPU 1.3.10 traces, tests/tracer/fxt_reader_test.cpp):
//   u32 magic (0x02000000)  u32 headerSize  headerSize bytes (machine, threads)
//   blocks: u64 blockSize (from the block start)  u64 blockKind  events...
//   event:  u64 time (ns)  u64 thread  u64 (code << 8 | paramCount + 1)  paramCount * u64

#include "common/file_window.hpp"
#include "tracer/readers/fxt/fxt_source.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace starscope::tracer::detail {

// True when the file starts like a libfxt 0.3 64-bit trace this reader knows.
bool isDirectFxtLayout(const std::filesystem::path& file);

struct DirectFxtProblem {
    std::uint64_t offset = 0;
    std::string what;
};

struct DirectFxtSummary {
    FxtStreamSummary stream;
    std::vector<DirectFxtProblem> problems;   // damage found; the events before it were read
};

namespace fxt_direct {

constexpr std::uint32_t kMagic = 0x02000000;
constexpr std::uint64_t kBlockHeader = 16;
constexpr std::uint64_t kEventHeader = 24;
constexpr std::uint32_t kMaxParams = 254;   // FXT_MAX_PARAMS of libfxt 0.3
constexpr std::uint64_t kLargestEvent = kEventHeader + std::uint64_t{kMaxParams} * 8;
// A block header and the largest event, and the 8 bytes FileWindow::slide keeps to align them.
constexpr std::size_t kSmallestWindow = kBlockHeader + kLargestEvent + 8;

inline std::uint64_t load64(const unsigned char* p) {
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline std::uint32_t load32(const unsigned char* p) {
    std::uint32_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// The checks of the file's start, read into the window: the size of libfxt's header when it is
// a libfxt 0.3 trace.
TraceResult<std::uint64_t> open(files::FileWindow& in, const std::filesystem::path& file);
std::string impossibleBlock(std::uint64_t blockSize);
std::string truncatedBlock(std::uint64_t blockSize, std::uint64_t left);
std::string damagedEvent(std::uint64_t words);
std::string unreadable(const files::FileWindow& in);
TraceError cancelled(const std::filesystem::path& file, std::uint64_t offset);

// An event's parameters as u64: in place when they are aligned (the window aligns every event
// it slides to, and events are multiples of 8 bytes, so all of a block's are), else copied into
// `copy`. Not memcpy: with its length unknown it became a `rep movsq`, whose start-up cost was
// nearly half of the walk for events of 2-6 parameters.
inline const std::uint64_t* loadParams(const unsigned char* raw, std::uint32_t count, std::uint64_t* copy) {
    if (reinterpret_cast<std::uintptr_t>(raw) % alignof(std::uint64_t) == 0) {
        return reinterpret_cast<const std::uint64_t*>(raw);
    }
    for (std::uint32_t i = 0; i < count; ++i) {
        copy[i] = load64(raw + std::size_t{i} * 8);
    }
    return copy;
}

// Where readFxtDirect puts the parameters it realigns, valid while the event is handled.
class Params {
public:
    const std::uint64_t* load(const unsigned char* raw, std::uint32_t count) {
        return loadParams(raw, count, m_buffer.data());
    }

private:
    std::array<std::uint64_t, kMaxParams> m_buffer;
};

// One pass over the blocks and events of a libfxt 0.3 trace read through `in` (opened by open()),
// filling `out` (counts, times, damage). onEvent(time, code, count, params, offset) sees every
// event whose code is in [firstCode, lastCode]; tick(offset) is asked now and then (every 1/64
// of the file). Either returning false stops the walk: the offset it stopped at is returned,
// nullopt otherwise. `params` points into the window, valid until the next event (loadParams
// reads them as u64: the window puts each event it slides to on 8 bytes, so they are in place).
template <typename OnEvent, typename Tick>
std::optional<std::uint64_t> walk(files::FileWindow& in, std::uint64_t headerSize, std::uint64_t firstCode,
                                  std::uint64_t lastCode, DirectFxtSummary& out, OnEvent&& onEvent, Tick&& tick) {
    auto& s = out.stream;
    bool first = true;
    std::uint64_t block = 4 + headerSize;
    std::uint64_t nextTick = 0;
    const std::uint64_t tickStep = in.size() >> 6;
    // A read that failed ends the walk like damage: the events before it were read.
    const auto readFailed = [&](std::uint64_t at) { out.problems.push_back({at, unreadable(in)}); };
    for (;;) {
        // Slid to each block's start unless the window holds it aligned: its events then are too.
        const bool aligned = in.holds(block, block + kBlockHeader)
                             && reinterpret_cast<std::uintptr_t>(in.data() + (block - in.base())) % 8 == 0;
        if (!aligned && !in.slide(block, block + kBlockHeader + kLargestEvent, block) && !in.error().empty()) {
            readFailed(block);
            break;
        }
        const std::uint64_t size = in.size();
        if (block + kBlockHeader > size) {
            break;
        }
        const std::uint64_t blockSize = load64(in.data() + (block - in.base()));
        if (blockSize < kBlockHeader) {
            out.problems.push_back({block, impossibleBlock(blockSize)});
            break;
        }
        std::uint64_t end = block + blockSize;
        if (blockSize > size - block) {
            out.problems.push_back({block, truncatedBlock(blockSize, size - block)});
            end = size;
        }
        std::uint64_t p = block + kBlockHeader;
        const unsigned char* w = in.data();   // the byte at file offset `base`
        std::uint64_t base = in.base();
        std::uint64_t held = in.end();
        while (p + kEventHeader <= end) {
            if (p + kLargestEvent > held && held < end) {
                // The next event may go past the window: it slides to start there.
                if (!in.slide(p, std::min(end, p + kLargestEvent), p) && !in.error().empty()) {
                    readFailed(p);
                    s.endedEarly = true;
                    return std::nullopt;
                }
                w = in.data();
                base = in.base();
                held = in.end();
                if (in.size() < end) {
                    // The file was cut while it was read: its block ends with it.
                    out.problems.push_back({block, truncatedBlock(blockSize, in.size() - block)});
                    end = in.size();
                }
            }
            const unsigned char* e = w + (p - base);
            const std::uint64_t time = load64(e);
            const std::uint64_t word = load64(e + 16);
            const std::uint64_t words = word & 0xff;
            if (words == 0 || words - 1 > kMaxParams || p + kEventHeader + (words - 1) * 8 > end) {
                out.problems.push_back({p, damagedEvent(words)});
                p = end;   // the rest of the block cannot be delimited
                break;
            }
            const auto count = static_cast<std::uint32_t>(words - 1);
            ++s.events;
            if (first) {
                s.firstTime = time;
                first = false;
            }
            s.lastTime = time;
            const std::uint64_t code = word >> 8;
            if (code >= firstCode && code <= lastCode && !onEvent(time, code, count, e + kEventHeader, p)) {
                return p;
            }
            p += kEventHeader + count * 8;
            if (p >= nextTick) {
                nextTick = p + tickStep;
                if (!tick(p)) {
                    return p;
                }
            }
        }
        if (p != end && p + kEventHeader > end && p < end) {
            // a few bytes left over: a cut event
            out.problems.push_back({p, "truncated FxT event at the end of a block"});
        }
        s.bytesRead = end;
        if (end == in.size()) {
            break;
        }
        block = end;
    }
    if (block < in.size() && block + kBlockHeader > in.size() && s.bytesRead < in.size()) {
        out.problems.push_back({block, "truncated FxT block header"});
    }
    s.endedEarly = !out.problems.empty();
    return std::nullopt;
}

} // namespace fxt_direct

// Calls onEvent for every event whose code is in [firstCode, lastCode], in file order; onEvent
// or progress returning false cancels (ErrorCode::Cancelled). A template, so that the per-event
// call inlines: millions of events went through a std::function before (9 % of reading).
// windowBytes: the buffer the file is read through (tests make it small, to slide it often).
template <typename OnEvent>
TraceResult<DirectFxtSummary> readFxtDirect(const std::filesystem::path& file, std::uint64_t firstCode,
                                            std::uint64_t lastCode, OnEvent&& onEvent,
                                            const std::function<bool(double)>& progress,
                                            std::size_t windowBytes = files::FileWindow::kDefaultCapacity) {
    using namespace fxt_direct;
    files::FileWindow in(file, std::max<std::size_t>(windowBytes, kSmallestWindow));
    const auto headerSize = fxt_direct::open(in, file);
    if (!headerSize) {
        return fail(headerSize.error());
    }
    const std::uint64_t size = in.size();
    const auto reportProgress = [&](std::uint64_t offset) {
        return !progress || progress(static_cast<double>(offset) / static_cast<double>(size));
    };
    RawEvent ev;
    DirectFxtSummary out;
    Params params;
    const auto stopped = walk(
        in, *headerSize, firstCode, lastCode, out,
        [&](std::uint64_t time, std::uint64_t code, std::uint32_t count, const unsigned char* raw, std::uint64_t) {
            ev.time = time;
            ev.origin = out.stream.firstTime;
            ev.code = code;
            ev.paramCount = count;
            ev.params = params.load(raw, count);
            return static_cast<bool>(onEvent(ev));
        },
        reportProgress);
    if (stopped) {
        return fail(cancelled(file, *stopped));
    }
    return out;
}

} // namespace starscope::tracer::detail
