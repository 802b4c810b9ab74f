#pragma once
// The tracer library's one error type: what went wrong, in which file, at which byte offset.

#include "common/result.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace starscope::tracer {

enum class ErrorCode : std::uint8_t {
    Io,              // cannot open/read/write the file
    Format,          // not a trace of a known format
    Corrupt,         // known format, but damaged or truncated
    TooNew,          // written by a newer version than this reader knows
    TooOld,          // written by an older version that is no longer read
    Unsupported,     // valid, but uses something this reader does not decode
    Cancelled,       // the caller asked to stop
    InvalidArgument, // a bad option or flag
};

struct TraceError {
    ErrorCode code = ErrorCode::Io;
    std::string message;
    std::string file;
    std::optional<std::uint64_t> offset;

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
    bool operator==(const TraceError&) const = default;
};

template <typename T>
using TraceResult = Result<T, TraceError>;

} // namespace starscope::tracer
