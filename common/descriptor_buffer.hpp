#pragma once
// A stream buffer over a file descriptor that keeps the first write error: the one writer's
// files (file_writer.hpp) and standard output (standard_output.hpp) are written through it.
// stdio cannot stand in for it: once std::cout's write to a full disk has failed, fflush and
// fclose report success and errno no longer says why.

#include <array>
#include <streambuf>

namespace starscope::files {

class DescriptorBuffer : public std::streambuf {
public:
    explicit DescriptorBuffer(int fd);
    // 0, or the errno of the first write that failed (later writes are not attempted).
    int error() const { return m_error; }

protected:
    // Writes go out in 64 KiB pieces, so that an export of several GiB never sits in memory.
    int_type overflow(int_type ch) override;
    int sync() override;

private:
    bool drain();

    int m_fd;
    int m_error = 0;
    std::array<char, 64 * 1024> m_buffer{};
};

} // namespace starscope::files
