#include "common/standard_output.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <unistd.h>

namespace starscope::files {

StandardOutput::StandardOutput() : m_buffer(STDOUT_FILENO) {
    m_flags = std::cout.flags();
    m_previous = std::cout.rdbuf(&m_buffer);
    if (::isatty(STDOUT_FILENO) == 1) {
        std::cout.setf(std::ios::unitbuf);
    }
}

StandardOutput::~StandardOutput() {
    std::cout.flush();
    std::cout.rdbuf(m_previous);
    std::cout.flags(m_flags);
}

std::optional<std::string> StandardOutput::close() {
    if (m_closed) {
        return std::nullopt;
    }
    m_closed = true;
    std::cout.flush();
    int error = m_buffer.error();
    // What a library printed through C's stdout goes out before the descriptor closes.
    if (std::fflush(stdout) != 0 && error == 0) {
        error = errno;
    }
    // A stream error without a failed write (an exception inside an inserter) has no errno.
    if (error == 0 && !std::cout) {
        error = EIO;
    }
    // Some file systems (NFS) report a failed write only at close. A descriptor that was never
    // open (`>&-`) is no error when nothing was written to it, as coreutils has it.
    if (::close(STDOUT_FILENO) != 0 && error == 0 && errno != EINTR && errno != EBADF) {
        error = errno;
    }
    if (error == 0) {
        return std::nullopt;
    }
    return "write error: " + std::string(std::strerror(error));
}

} // namespace starscope::files
