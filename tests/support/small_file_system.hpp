#pragma once
// A small tmpfs over a folder: a disk that can fill up, for the tests of what record does on a
// full disk (the CNN's and a program's).

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sched.h>
#include <string>
#include <sys/mount.h>
#include <unistd.h>

namespace starscope::testing {

// A small tmpfs over a folder: a disk that can fill up. Mounted in a mount namespace of this
// test process alone when it can (nothing outlives the test), else in the shared one and
// unmounted on destruction. Needs CAP_SYS_ADMIN (root, as in CI): why() says what failed.
class SmallFileSystem {
public:
    // inodes: how many files it holds (0: tmpfs's default), for a disk that is full for new
    // files only.
    SmallFileSystem(const std::filesystem::path& where, std::uint64_t bytes,
                    std::uint64_t inodes = 0)
        : m_where(where) {
        std::filesystem::create_directories(where);
        if (::unshare(CLONE_NEWNS) == 0) {
            ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr);
        }
        const std::string options = "size=" + std::to_string(bytes)
                                    + (inodes > 0 ? ",nr_inodes=" + std::to_string(inodes) : "");
        if (::mount("tmpfs", where.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) != 0) {
            m_why = "cannot mount a tmpfs on " + where.string() + ": " + std::strerror(errno);
            return;
        }
        m_mounted = true;
    }
    ~SmallFileSystem() {
        if (m_mounted) {
            ::umount2(m_where.c_str(), MNT_DETACH);
        }
    }
    SmallFileSystem(const SmallFileSystem&) = delete;
    SmallFileSystem& operator=(const SmallFileSystem&) = delete;

    bool mounted() const { return m_mounted; }
    const std::string& why() const { return m_why; }

    // Writes a file until the file system refuses more; returns the bytes written.
    std::uint64_t fill() const {
        const int fd = ::open((m_where / "filler").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const std::string block(64 * 1024, 'x');
        std::uint64_t written = 0;
        for (;;) {
            const auto n = ::write(fd, block.data(), block.size());
            if (n <= 0) {
                break;
            }
            written += static_cast<std::uint64_t>(n);
        }
        ::close(fd);
        return written;
    }

    // Creates empty files until the file system holds no more; returns how many.
    std::size_t fillInodes() const {
        std::size_t created = 0;
        for (;;) {
            const int fd = ::open((m_where / ("inode" + std::to_string(created))).c_str(),
                                  O_WRONLY | O_CREAT | O_EXCL, 0644);
            if (fd < 0) {
                break;
            }
            ::close(fd);
            ++created;
        }
        return created;
    }

private:
    std::filesystem::path m_where;
    bool m_mounted = false;
    std::string m_why;
};

} // namespace starscope::testing
