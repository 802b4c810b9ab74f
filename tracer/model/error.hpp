#pragma once
// The tracer library's one error type: what went wrong, in which file, at which byte offset
// (common/error.hpp's shape with the tracer's codes).

#include "common/error.hpp"
#include "common/result.hpp"

#include <cstdint>
#include <filesystem>
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

using TraceError = Error<ErrorCode>;

template <typename T>
using TraceResult = Result<T, TraceError>;

// An error about one file (or folder), at a byte offset where it applies: the readers' shape.
inline TraceError fileError(ErrorCode code, const std::filesystem::path& file, std::string message,
                            std::optional<std::uint64_t> offset = std::nullopt) {
    return TraceError{code, std::move(message), file.string(), offset};
}

} // namespace starscope::tracer
