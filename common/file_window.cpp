#include "common/file_window.hpp"

#include "common/input_file.hpp"

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <utility>

namespace starscope::files {

FileWindow::FileWindow(const std::filesystem::path& file, std::size_t capacity)
    : m_capacity((std::max<std::size_t>(capacity, 64) + 7) / 8 * 8) {
    auto opened = openRegularFile(file);
    if (opened.fd < 0) {
        m_error = std::move(opened.error);
        return;
    }
    m_fd = opened.fd;
    m_size = opened.size;
    // Advice only: the kernel reads further ahead of a file read front to back.
    (void)::posix_fadvise(m_fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    m_buffer = std::make_unique_for_overwrite<std::uint64_t[]>(m_capacity / 8);
}

FileWindow::~FileWindow() {
    if (m_fd >= 0) {
        ::close(m_fd);
    }
}

bool FileWindow::slide(std::uint64_t keep, std::uint64_t to, std::uint64_t aligned) {
    assert(m_data == nullptr || keep >= m_base);
    assert(to >= keep && to - keep <= m_capacity - 8);
    if (!m_error.empty() || !m_buffer) {
        return false;
    }
    auto* bytes = reinterpret_cast<unsigned char*>(m_buffer.get());
    // keep's place in the buffer puts `aligned` on a multiple of 8 (the buffer is one).
    const auto shift = static_cast<std::size_t>((keep - aligned) & 7U);
    const std::uint64_t kept = m_data != nullptr && keep < m_end ? m_end - keep : 0;
    if (kept > 0) {
        std::memmove(bytes + shift, m_data + (keep - m_base), static_cast<std::size_t>(kept));
    }
    m_data = bytes + shift;
    m_base = keep;
    m_end = keep + kept;
    const std::size_t room = m_capacity - shift;
    while (m_end < m_size && m_end - m_base < room) {
        const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(room - (m_end - m_base), m_size - m_end));
        const auto got = ::pread(m_fd, bytes + shift + (m_end - m_base), want, static_cast<off_t>(m_end));
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            m_error = std::strerror(errno);
            return false;
        }
        if (got == 0) {
            m_size = m_end;   // cut since it was opened: it ends here
            break;
        }
        m_end += static_cast<std::uint64_t>(got);
    }
    return m_end >= std::min(to, m_size);
}

} // namespace starscope::files
