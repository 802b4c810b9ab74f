#include "runtime/c_api/boundary.hpp"

#include <starpu.h>

#include <cctype>
#include <exception>
#include <new>
#include <string>

namespace starscope::runtime::c_api {

namespace {

// The last failure of each thread, as C callers read it.
thread_local starscope_status t_status = STARSCOPE_OK;
thread_local std::string t_message;

starscope_status toStatus(RuntimeErrorCode code) {
    switch (code) {
    case RuntimeErrorCode::StarpuNotInitialized:
        return STARSCOPE_ERROR_STARPU_NOT_INITIALIZED;
    case RuntimeErrorCode::AllocationFailed:
        return STARSCOPE_ERROR_OUT_OF_MEMORY;
    case RuntimeErrorCode::InvalidArgument:
    case RuntimeErrorCode::UnknownLoader:
        return STARSCOPE_ERROR_INVALID_ARGUMENT;
    case RuntimeErrorCode::StarpuCallFailed:
    case RuntimeErrorCode::PapiFailed:
        return STARSCOPE_ERROR_INTERNAL;
    }
    return STARSCOPE_ERROR_INTERNAL;
}

} // namespace

starscope_status failure(const char* function, starscope_status status,
                         std::string_view message) noexcept {
    t_status = status;
    try {
        t_message.assign(function);
        t_message += ": ";
        t_message += message;
    } catch (...) {
        // No room for the text: starscope_last_error falls back to the status name.
        t_message.clear();
    }
    return status;
}

starscope_status failure(const char* function, const RuntimeError& error) noexcept {
    return failure(function, toStatus(error.code), error.message);
}

namespace detail {

starscope_status currentExceptionFailure(const char* function) noexcept {
    try {
        throw;
    } catch (const std::bad_alloc&) {
        return failure(function, STARSCOPE_ERROR_OUT_OF_MEMORY, "out of memory");
    } catch (const std::exception& e) {
        return failure(function, STARSCOPE_ERROR_INTERNAL, e.what());
    } catch (...) {
        return failure(function, STARSCOPE_ERROR_INTERNAL, "an unknown exception");
    }
}

} // namespace detail

starscope_status requireNonNull(const char* function, const void* pointer, const char* name) {
    if (pointer != nullptr) {
        return STARSCOPE_OK;
    }
    return failure(function, STARSCOPE_ERROR_INVALID_ARGUMENT, std::string(name) + " is NULL");
}

starscope_status requireName(const char* function, const char* name, const char* what) {
    if (name == nullptr || *name == '\0') {
        return failure(function, STARSCOPE_ERROR_INVALID_ARGUMENT,
                       std::string(what) + " is " + (name == nullptr ? "NULL" : "empty"));
    }
    for (const char* c = name; *c != '\0'; ++c) {
        if (std::isspace(static_cast<unsigned char>(*c)) != 0) {
            return failure(function, STARSCOPE_ERROR_INVALID_ARGUMENT,
                           std::string(what) + " '" + name
                               + "' contains whitespace (it goes into trace markers)");
        }
    }
    return STARSCOPE_OK;
}

starscope_status refuseInTask(const char* function) {
    // starpu_worker_get_id reads StarPU's thread key, which exists only while StarPU runs.
    if (starpu_is_initialized() == 0 || starpu_worker_get_id() < 0) {
        return STARSCOPE_OK;
    }
    return failure(function, STARSCOPE_ERROR_INVALID_STATE,
                   "called from a StarPU task or callback (worker "
                       + std::to_string(starpu_worker_get_id())
                       + "): it may wait for tasks, which would block the worker they need; call "
                         "it from the thread that submits the tasks");
}

starscope_status requireStarpuFor(const char* function, const Arena& arena) {
    if (!arena.needsStarpu() || starpu_is_initialized() != 0) {
        return STARSCOPE_OK;
    }
    return failure(function, STARSCOPE_ERROR_STARPU_NOT_INITIALIZED,
                   "arena '" + arena.name() + "' still holds "
                       + std::to_string(arena.trackedHandles())
                       + " StarPU handle(s) (or deferred resets) but StarPU is not initialised: "
                         "reset or destroy arenas before starpu_shutdown");
}

} // namespace starscope::runtime::c_api

using namespace starscope::runtime::c_api;

extern "C" {

const char* starscope_last_error(void) {
    if (t_message.empty() && t_status != STARSCOPE_OK) {
        return starscope_status_name(t_status);
    }
    return t_message.c_str();
}

starscope_status starscope_last_error_status(void) {
    return t_status;
}

const char* starscope_status_name(starscope_status status) {
    switch (status) {
    case STARSCOPE_OK:
        return "STARSCOPE_OK";
    case STARSCOPE_ERROR_INVALID_ARGUMENT:
        return "STARSCOPE_ERROR_INVALID_ARGUMENT";
    case STARSCOPE_ERROR_INVALID_STATE:
        return "STARSCOPE_ERROR_INVALID_STATE";
    case STARSCOPE_ERROR_OUT_OF_MEMORY:
        return "STARSCOPE_ERROR_OUT_OF_MEMORY";
    case STARSCOPE_ERROR_STARPU_NOT_INITIALIZED:
        return "STARSCOPE_ERROR_STARPU_NOT_INITIALIZED";
    case STARSCOPE_ERROR_INTERNAL:
        return "STARSCOPE_ERROR_INTERNAL";
    }
    return "unknown status";
}

} // extern "C"
