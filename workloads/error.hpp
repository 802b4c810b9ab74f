#pragma once
// The workloads library's one error type: what went wrong and in which file or flag
// (common/error.hpp's shape with the workloads' codes).

#include "common/error.hpp"
#include "common/result.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace starscope::workloads {

enum class ErrorCode : std::uint8_t {
    Io,              // cannot open/read/write a file or folder
    Format,          // not the kind of file expected (wrong magic)
    Corrupt,         // right kind, but damaged or truncated
    MissingDataset,  // the dataset folder or one of its files is absent
    InvalidArgument, // a bad option or flag value
    Runtime,         // StarPU or PAPI refused something
};

using WorkloadError = Error<ErrorCode>;

template <typename T> using WorkloadResult = Result<T, WorkloadError>;

inline Unexpected<WorkloadError> workloadError(ErrorCode code, std::string message,
                                               std::string file = {},
                                               std::optional<std::uint64_t> offset = {}) {
    return fail(WorkloadError{code, std::move(message), std::move(file), offset});
}

} // namespace starscope::workloads
