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

#include "common/mapped_file.hpp"
#include "tracer/readers/fxt/fxt_source.hpp"

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
constexpr std::uint64_t kMapAhead = std::uint64_t{4} << 20;

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

// The checks of the file's start; the mapped view when it is a libfxt 0.3 trace.
TraceResult<const files::MappedFile*> open(const files::MappedFile& map, const std::filesystem::path& file);
std::string impossibleBlock(std::uint64_t blockSize);
std::string truncatedBlock(std::uint64_t blockSize, std::uint64_t left);
std::string damagedEvent(std::uint64_t words);
TraceError cancelled(const std::filesystem::path& file, std::uint64_t offset);
// Maps the next kMapAhead bytes of the trace from `from` into the process in one call, ahead
// of the walk, and returns where the next call starts: a file page faulted in by the walk cost
// a fault per 16 pages (the kernel's fault-around), 24,274 page faults in all for `stats` of a
// 240 MB trace against 21,897 so.
std::uint64_t mapAhead(const unsigned char* d, std::uint64_t size, std::uint64_t from);

} // namespace fxt_direct

namespace fxt_direct {

// An event's parameters as u64: in place when the mapping has them aligned (events are
// multiples of 8 bytes, so that is the whole file or none of it), else copied into `copy`.
// Not memcpy: with its length unknown it became a `rep movsq`, whose start-up cost was nearly
// half of the walk for events of 2-6 parameters.
inline const std::uint64_t* loadParams(const unsigned char* raw, std::uint32_t count, std::uint64_t* copy) {
    if (reinterpret_cast<std::uintptr_t>(raw) % alignof(std::uint64_t) == 0) {
        return reinterpret_cast<const std::uint64_t*>(raw);
    }
    for (std::uint32_t i = 0; i < count; ++i) {
        copy[i] = load64(raw + std::size_t{i} * 8);
    }
    return copy;
}

// Where readFxtDirect puts the parameters it realigns: two buffers in turn, so that an event's
// stay valid while the next one is handled. StarPU's traces are all realigned (their
// 2,834-byte header puts every event at 6 mod 8).
class Params {
public:
    const std::uint64_t* load(const unsigned char* raw, std::uint32_t count) {
        m_flip ^= 1U;
        return loadParams(raw, count, m_buffers[m_flip].data());
    }

private:
    std::array<std::array<std::uint64_t, kMaxParams>, 2> m_buffers;
    unsigned m_flip = 0;
};

// One pass over the blocks and events of a mapped libfxt 0.3 trace, filling `out` (counts,
// times, damage). onEvent(time, code, count, params, offset) sees every event whose code is in
// [firstCode, lastCode]; tick(offset) is asked now and then (every 1/64 of the file). Either
// returning false stops the walk: the offset it stopped at is returned, nullopt otherwise.
// `params` points into the mapping (loadParams reads them as u64).
// What lies more than a read-ahead behind the walk leaves the process (MappedFile::release), so a
// big prof file is not all resident on top of the model built from it: `params` still point into
// the mapping, which a read after the release maps again from the file.
template <typename OnEvent, typename Tick>
std::optional<std::uint64_t> walk(const files::MappedFile& map, std::uint64_t firstCode, std::uint64_t lastCode,
                                  DirectFxtSummary& out, OnEvent&& onEvent, Tick&& tick) {
    const unsigned char* d = map.data();
    const std::uint64_t size = map.size();
    std::uint64_t released = 0;
    const std::uint64_t headerSize = load32(d + 4);
    auto& s = out.stream;
    bool first = true;
    std::uint64_t block = 4 + headerSize;
    std::uint64_t nextTick = 0;
    std::uint64_t mapped = mapAhead(d, size, 0);
    while (block + kBlockHeader <= size) {
        const std::uint64_t blockSize = load64(d + block);
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
        while (p + kEventHeader <= end) {
            const std::uint64_t time = load64(d + p);
            const std::uint64_t word = load64(d + p + 16);
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
            if (code >= firstCode && code <= lastCode && !onEvent(time, code, count, d + p + kEventHeader, p)) {
                return p;
            }
            p += kEventHeader + count * 8;
            if (p >= nextTick) {
                nextTick = p + (size >> 6);
                while (mapped < size && p + (kMapAhead >> 1) >= mapped) {
                    mapped = mapAhead(d, size, mapped);
                }
                if (p >= released + 2 * kMapAhead) {
                    map.release(released, p - kMapAhead);
                    released = p - kMapAhead;
                }
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
        if (end == size) {
            break;
        }
        block = end;
    }
    if (block < size && block + kBlockHeader > size && s.bytesRead < size) {
        out.problems.push_back({block, "truncated FxT block header"});
    }
    s.endedEarly = !out.problems.empty();
    return std::nullopt;
}

} // namespace fxt_direct

// Calls onEvent for every event whose code is in [firstCode, lastCode], in file order; onEvent
// or progress returning false cancels (ErrorCode::Cancelled). A template, so that the per-event
// call inlines: millions of events went through a std::function before (9 % of reading).
template <typename OnEvent>
TraceResult<DirectFxtSummary> readFxtDirect(const std::filesystem::path& file, std::uint64_t firstCode,
                                            std::uint64_t lastCode, OnEvent&& onEvent,
                                            const std::function<bool(double)>& progress) {
    using namespace fxt_direct;
    files::MappedFile map(file);
    if (auto opened = fxt_direct::open(map, file); !opened) {
        return fail(opened.error());
    }
    const std::uint64_t size = map.size();
    const auto reportProgress = [&](std::uint64_t offset) {
        return !progress || progress(static_cast<double>(offset) / static_cast<double>(size));
    };
    RawEvent ev;
    DirectFxtSummary out;
    Params params;
    const auto stopped = walk(
        map, firstCode, lastCode, out,
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
