#include "common/descriptor_buffer.hpp"

#include <cerrno>
#include <unistd.h>

namespace starscope::files {

DescriptorBuffer::DescriptorBuffer(int fd) : m_fd(fd) {
    setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
}

DescriptorBuffer::int_type DescriptorBuffer::overflow(int_type ch) {
    if (!drain()) {
        return traits_type::eof();
    }
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
        *pptr() = traits_type::to_char_type(ch);
        pbump(1);
    }
    return traits_type::not_eof(ch);
}

int DescriptorBuffer::sync() {
    return drain() ? 0 : -1;
}

bool DescriptorBuffer::drain() {
    const char* data = pbase();
    std::size_t left = static_cast<std::size_t>(pptr() - pbase());
    while (left > 0 && m_error == 0) {
        const ssize_t n = ::write(m_fd, data, left);
        if (n < 0) {
            // A signal handler (record's Ctrl-C) may interrupt a write to a FIFO.
            if (errno != EINTR) {
                m_error = errno;
            }
            continue;
        }
        data += n;
        left -= static_cast<std::size_t>(n);
    }
    setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
    return m_error == 0;
}

} // namespace starscope::files
