#pragma once
// The one test every reader makes before opening a path the user named: open() of a FIFO
// blocks until a writer appears (forever, for a FIFO nobody writes), and a device, a socket
// or a folder is never a trace or a dataset file. stat() answers without opening, and follows
// symlinks, so a symlink to a regular file is read like the file.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>

namespace starscope::files {

// "is a FIFO, not a regular file" (or a character device, a socket, a folder...); nullopt for
// a regular file and for a path stat() cannot follow (the caller's open says what is wrong).
inline std::optional<std::string> notRegularFile(const std::filesystem::path& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || S_ISREG(info.st_mode)) {
        return std::nullopt;
    }
    const char* kind = "a special file";
    if (S_ISFIFO(info.st_mode)) {
        kind = "a FIFO";
    } else if (S_ISCHR(info.st_mode)) {
        kind = "a character device";
    } else if (S_ISBLK(info.st_mode)) {
        kind = "a block device";
    } else if (S_ISSOCK(info.st_mode)) {
        kind = "a socket";
    } else if (S_ISDIR(info.st_mode)) {
        kind = "a folder";
    }
    return std::string("is ") + kind + ", not a regular file";
}

// A regular file open for reading, and its size; fd -1 and why when it is not one or cannot be
// opened. The caller closes fd.
struct OpenedFile {
    int fd = -1;
    std::uint64_t size = 0;
    std::string error;
};

inline OpenedFile openRegularFile(const std::filesystem::path& file) {
    OpenedFile out;
    // O_NONBLOCK: a FIFO that reached a reader directly must be refused below, not wait for a
    // writer; it changes nothing for a regular file.
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        out.error = std::strerror(errno);
        return out;
    }
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
        out.error = std::strerror(errno);
    } else if (!S_ISREG(info.st_mode)) {
        out.error = "not a regular file";
    }
    if (!out.error.empty()) {
        ::close(fd);
        return out;
    }
    out.fd = fd;
    out.size = static_cast<std::uint64_t>(info.st_size);
    return out;
}

} // namespace starscope::files
