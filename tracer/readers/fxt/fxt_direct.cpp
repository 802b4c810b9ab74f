#include "tracer/readers/fxt/fxt_direct.hpp"

#include <algorithm>

namespace starscope::tracer::detail {

bool isDirectFxtLayout(const std::filesystem::path& file) {
    using namespace fxt_direct;
    files::FileWindow in(file, 64);
    if (!in.slide(0, 8, 0) || in.size() < 8) {
        return false;
    }
    const auto headerSize = load32(in.data() + 4);
    return load32(in.data()) == kMagic && std::uint64_t{headerSize} + 8 <= in.size();
}

namespace fxt_direct {

TraceResult<std::uint64_t> open(files::FileWindow& in, const std::filesystem::path& file) {
    if (!in.error().empty()) {
        return fail(TraceError{ErrorCode::Io, "cannot read: " + in.error(), file.string(), {}});
    }
    if (!in.slide(0, 8, 0) && !in.error().empty()) {
        return fail(TraceError{ErrorCode::Io, "cannot read: " + in.error(), file.string(), 0});
    }
    const unsigned char* d = in.data();
    const std::uint64_t size = in.size();
    if (size < 8 || load32(d) != kMagic) {
        return fail(TraceError{ErrorCode::Format, "not an FxT trace (bad magic)", file.string(), 0});
    }
    const std::uint64_t headerSize = load32(d + 4);
    if (headerSize + 8 > size) {
        return fail(TraceError{ErrorCode::Corrupt, "truncated FxT header (" + std::to_string(headerSize)
                                                       + " bytes announced)",
                               file.string(), 4});
    }
    return headerSize;
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

std::string unreadable(const files::FileWindow& in) {
    return "cannot read the file: " + in.error();
}

} // namespace fxt_direct

} // namespace starscope::tracer::detail
