#pragma once
// The one shape of an expected failure in every library: what went wrong (a code of the
// library's own enum and a message), in which file, folder or flag, at which byte offset where
// it applies. Each library instantiates it with its code enum and keeps its own names:
// tracer::TraceError, workloads::WorkloadError, runtime::RuntimeError, viewer::ViewerError.

#include "common/result.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace starscope {

template <class Code>
struct Error {
    Code code{};
    // Names what failed and why, e.g. "arena 'batch0': starpu_malloc of 1048576 bytes failed".
    std::string message{};
    std::string file{};                    // file or folder concerned, or "--flag"; may be empty
    std::optional<std::uint64_t> offset{}; // byte offset in file, where it applies

    // "file: byte 1234: message" (parts omitted where unknown).
    std::string describe() const {
        std::string out;
        if (!file.empty()) {
            out += file + ": ";
        }
        if (offset) {
            out += "byte " + std::to_string(*offset) + ": ";
        }
        return out + message;
    }
    bool operator==(const Error&) const = default;
};

} // namespace starscope
