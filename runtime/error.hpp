#pragma once
// The runtime library's one error type (common/error.hpp's shape with the runtime's codes; a
// runtime failure seldom names a file). Expected failures (StarPU not initialised, pinned
// memory exhausted, a bad loader name or configuration, a PAPI/SDE registration refused) come
// back as Result<T, RuntimeError>, and so does what a C program may hand the C API unchecked
// (memory outside the arena given to a register call, a bad alignment given to tryAllocate);
// programming errors on the C++ fast paths (a non-power-of-two alignment given to the inline
// allocate()) assert instead.

#include "common/error.hpp"
#include "common/result.hpp"

#include <cstdint>
#include <string>

namespace starscope::runtime {

enum class RuntimeErrorCode : std::uint8_t {
    StarpuNotInitialized, // starpu_init() was not called (or failed) before a StarPU call
    AllocationFailed,     // starpu_malloc could not provide a block
    InvalidArgument,      // a size, count, alignment or order that cannot be honoured
    UnknownLoader,        // a loader name that parseLoaderKind() does not know
    StarpuCallFailed,     // a StarPU call returned an error code
    PapiFailed,           // PAPI SDE refused to register a counter
};

using RuntimeError = Error<RuntimeErrorCode>;

template <typename T>
using RuntimeResult = Result<T, RuntimeError>;

inline Unexpected<RuntimeError> runtimeFailure(RuntimeErrorCode code, std::string message) {
    return fail(RuntimeError{code, std::move(message)});
}

} // namespace starscope::runtime
