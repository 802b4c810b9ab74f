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

#include <cstring>
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
    const unsigned char* d = map.data();
    const std::uint64_t size = map.size();
    const std::uint64_t headerSize = load32(d + 4);
    DirectFxtSummary out;
    auto& s = out.stream;
    std::uint64_t params[kMaxParams];
    RawEvent ev;
    bool first = true;
    std::uint64_t block = 4 + headerSize;
    std::uint64_t nextProgress = 0;
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
            if (code >= firstCode && code <= lastCode) {
                std::memcpy(params, d + p + kEventHeader, count * 8);
                ev.time = time;
                ev.origin = s.firstTime;
                ev.code = code;
                ev.paramCount = count;
                ev.params = params;
                if (!onEvent(ev)) {
                    return fail(cancelled(file, p));
                }
            }
            p += kEventHeader + count * 8;
            if (p >= nextProgress) {
                nextProgress = p + (size >> 6);
                if (progress && !progress(static_cast<double>(p) / static_cast<double>(size))) {
                    return fail(cancelled(file, p));
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
    return out;
}

} // namespace starscope::tracer::detail
