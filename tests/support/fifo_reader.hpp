#pragma once
// Reads a FIFO on a thread of its own, as a program at the other end of a pipe would, so that a
// writer under test can open it (opening a FIFO for writing blocks until a reader opens it).

#include <fcntl.h>
#include <filesystem>
#include <string>
#include <thread>
#include <unistd.h>

namespace starscope::testing {

class FifoReader {
public:
    explicit FifoReader(const std::filesystem::path& fifo)
        : m_thread([this, fifo] {
              const int fd = ::open(fifo.c_str(), O_RDONLY);
              char buffer[4096];
              for (ssize_t n; fd >= 0 && (n = ::read(fd, buffer, sizeof buffer)) > 0;) {
                  m_received.append(buffer, static_cast<std::size_t>(n));
              }
              ::close(fd);
          }) {}
    ~FifoReader() {
        if (m_thread.joinable()) {
            m_thread.join();
        }
    }
    FifoReader(const FifoReader&) = delete;
    FifoReader& operator=(const FifoReader&) = delete;

    // Everything written until the writer closed its end.
    std::string received() {
        m_thread.join();
        return m_received;
    }

private:
    std::string m_received;
    std::thread m_thread;
};

} // namespace starscope::testing
