#pragma once
// The C boundary's one error path. A failure is a status plus a message kept per thread (what
// starscope_last_error gives back); every exported function runs its body through guarded(),
// so that no C++ exception reaches a C caller, and checks its arguments with the helpers below
// before the C++ classes see them (the C++ side asserts where a C program could only crash).

#include "runtime/arena.hpp"
#include "runtime/error.hpp"
#include "starscope/arena.h"

#include <string_view>
#include <utility>

namespace starscope::runtime::c_api {

// Records a failure of `function` for this thread ("function: message") and returns status.
starscope_status failure(const char* function, starscope_status status,
                         std::string_view message) noexcept;
// The same for a runtime library error, its code mapped onto a status.
starscope_status failure(const char* function, const RuntimeError& error) noexcept;

namespace detail {
// Inside a catch block: records the exception in flight as a failure of function.
starscope_status currentExceptionFailure(const char* function) noexcept;
} // namespace detail

// Runs body(function), a callable returning starscope_status (function is passed on because
// __func__ inside a lambda names the lambda); an exception escaping it becomes a failure
// (std::bad_alloc: STARSCOPE_ERROR_OUT_OF_MEMORY, any other: STARSCOPE_ERROR_INTERNAL).
template <typename Body> starscope_status guarded(const char* function, Body&& body) noexcept {
    try {
        return std::forward<Body>(body)(function);
    } catch (...) {
        return detail::currentExceptionFailure(function);
    }
}

// Checks: STARSCOPE_OK, or the failure recorded.
// A pointer argument (an object or an out parameter) that must not be NULL.
starscope_status requireNonNull(const char* function, const void* pointer, const char* name);
// A name that goes into markers and counters: non-empty, without whitespace (the marker grammar
// separates its fields by spaces).
starscope_status requireName(const char* function, const char* name, const char* what);
// Refuses a call that may wait for tasks when it runs in a StarPU task or callback: the wait
// would hold the very worker those tasks need, and StarPU aborts on such blocking calls.
starscope_status refuseInTask(const char* function);
// Refuses to reset or destroy an arena that still holds StarPU data once StarPU is shut down:
// its handles cannot be unregistered any more.
starscope_status requireStarpuFor(const char* function, const Arena& arena);

} // namespace starscope::runtime::c_api
