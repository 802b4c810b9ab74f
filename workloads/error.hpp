#pragma once
// The workloads library's one error type: what went wrong and in which file or flag.

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

struct WorkloadError {
    ErrorCode code = ErrorCode::Io;
    std::string message;
    std::string file;                    // file or folder concerned, or "--flag"
    std::optional<std::uint64_t> offset; // byte offset in file, where it applies

    // "file: byte 12: message" (parts omitted where unknown).
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
    bool operator==(const WorkloadError&) const = default;
};

template <typename T> using WorkloadResult = Result<T, WorkloadError>;

inline Unexpected<WorkloadError> workloadError(ErrorCode code, std::string message,
                                               std::string file = {},
                                               std::optional<std::uint64_t> offset = {}) {
    return fail(WorkloadError{code, std::move(message), std::move(file), offset});
}

} // namespace starscope::workloads
