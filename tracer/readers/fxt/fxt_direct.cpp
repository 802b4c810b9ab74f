#include "tracer/readers/fxt/fxt_direct.hpp"

#include "common/mapped_file.hpp"

#include <cstring>

namespace starscope::tracer::detail {

namespace {

constexpr std::uint32_t kMagic = 0x02000000;
constexpr std::uint64_t kBlockHeader = 16;
constexpr std::uint64_t kEventHeader = 24;
constexpr std::uint32_t kMaxParams = 254;   // FXT_MAX_PARAMS of libfxt 0.3

std::uint64_t load64(const unsigned char* p) {
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

std::uint32_t load32(const unsigned char* p) {
    std::uint32_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

} // namespace

bool isDirectFxtLayout(const std::filesystem::path& file) {
    files::MappedFile map(file);
    if (map.data() == nullptr || map.size() < 8) {
        return false;
    }
    const auto headerSize = load32(map.data() + 4);
    return load32(map.data()) == kMagic && std::uint64_t{headerSize} + 8 <= map.size();
}

TraceResult<DirectFxtSummary> readFxtDirect(const std::filesystem::path& file, std::uint64_t firstCode,
                                            std::uint64_t lastCode,
                                            const std::function<bool(const RawEvent&)>& onEvent,
                                            const std::function<bool(double)>& progress) {
    files::MappedFile map(file);
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
            out.problems.push_back({block, "FxT block with an impossible size " + std::to_string(blockSize)});
            break;
        }
        std::uint64_t end = block + blockSize;
        if (blockSize > size - block) {
            out.problems.push_back({block, "truncated FxT block: " + std::to_string(blockSize) + " bytes announced, "
                                               + std::to_string(size - block) + " in the file"});
            end = size;
        }
        std::uint64_t p = block + kBlockHeader;
        while (p + kEventHeader <= end) {
            const std::uint64_t time = load64(d + p);
            const std::uint64_t word = load64(d + p + 16);
            const std::uint64_t words = word & 0xff;
            if (words == 0 || words - 1 > kMaxParams || p + kEventHeader + (words - 1) * 8 > end) {
                out.problems.push_back({p, "damaged FxT event (size field " + std::to_string(words) + ")"});
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
                    return fail(TraceError{ErrorCode::Cancelled, "reading cancelled", file.string(), p});
                }
            }
            p += kEventHeader + count * 8;
            if (p >= nextProgress) {
                nextProgress = p + (size >> 6);
                if (progress && !progress(static_cast<double>(p) / static_cast<double>(size))) {
                    return fail(TraceError{ErrorCode::Cancelled, "reading cancelled", file.string(), p});
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
