#pragma once
// The viewer's one error type: a message naming the file or flag and what was wrong with it.
// Reading errors keep the tracer's message (file, byte offset) verbatim.

#include "common/result.hpp"

#include <string>

namespace starscope::viewer {

struct ViewerError {
    std::string message;

    bool operator==(const ViewerError&) const = default;
};

template <typename T>
using ViewerResult = Result<T, ViewerError>;

} // namespace starscope::viewer
