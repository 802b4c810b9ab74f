#pragma once
// Standard output as a starscope executable writes it: std::cout through a DescriptorBuffer on
// descriptor 1, so that a write that fails (a full disk, /dev/full) is known with its reason
// when the command ends, and the command exits non-zero instead of reporting success over half
// an output. coreutils' close_stdout, for C++ streams.

#include "common/descriptor_buffer.hpp"

#include <ios>
#include <optional>
#include <string>

namespace starscope::files {

class StandardOutput {
public:
    // From here on std::cout writes through the buffer; on a terminal every output operation
    // goes out at once (record's progress lines are read as they come).
    StandardOutput();
    // std::cout's own buffer back.
    ~StandardOutput();
    StandardOutput(const StandardOutput&) = delete;
    StandardOutput& operator=(const StandardOutput&) = delete;

    // Flushes and closes standard output: "write error: No space left on device" when a write,
    // the flush or the close failed; nullopt when everything written reached it.
    std::optional<std::string> close();

private:
    DescriptorBuffer m_buffer;
    std::streambuf* m_previous = nullptr;
    std::ios_base::fmtflags m_flags{};
    bool m_closed = false;
};

} // namespace starscope::files
