#pragma once
// The viewer's one error type (common/error.hpp's shape with the viewer's codes): a message
// naming the file or flag and what was wrong with it. Reading errors keep the tracer's message
// (file, byte offset) verbatim.

#include "common/error.hpp"
#include "common/result.hpp"

#include <cstdint>

namespace starscope::viewer {

enum class ViewerErrorCode : std::uint8_t {
    InvalidArgument, // a bad flag or flag value
    Input,           // a trace or run that cannot be read (the tracer's message kept)
    Io,              // a picture that cannot be written
    Unsupported,     // a picture format the viewer does not write
};

using ViewerError = Error<ViewerErrorCode>;

template <typename T>
using ViewerResult = Result<T, ViewerError>;

} // namespace starscope::viewer
