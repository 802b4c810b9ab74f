#include "tracer/readers/fxt/fxt_direct.hpp"

#include <algorithm>
#include <sys/mman.h>
#include <unistd.h>

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

std::uint64_t mapAhead(const unsigned char* d, std::uint64_t size, std::uint64_t from) {
    const std::uint64_t to = std::min(size, from + kMapAhead);
#ifdef MADV_POPULATE_READ
    // The mapping starts on a page; the chunk's start rounded down to one. const_cast: madvise
    // takes a void*, and populating reads the pages without writing them. A kernel older than
    // 5.14 refuses it: the walk then faults the pages in as before.
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t start = from & ~(page - 1);
    (void)::madvise(const_cast<unsigned char*>(d + start), to - start, MADV_POPULATE_READ);
#else
    (void)d;
#endif
    return to;
}

} // namespace fxt_direct

} // namespace starscope::tracer::detail
