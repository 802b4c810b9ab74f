#pragma once
// The one test every reader makes before opening a path the user named: open() of a FIFO
// blocks until a writer appears (forever, for a FIFO nobody writes), and a device, a socket
// or a folder is never a trace or a dataset file. stat() answers without opening, and follows
// symlinks, so a symlink to a regular file is read like the file.

#include <sys/stat.h>

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

} // namespace starscope::files
