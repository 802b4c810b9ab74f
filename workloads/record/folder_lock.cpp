#include "workloads/record/folder_lock.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <unistd.h>

namespace starscope::workloads {

namespace fs = std::filesystem;

namespace {

// The pid written in an open lock file; 0 when the holder has not written it yet.
pid_t pidIn(int fd) {
    char text[32] = {};
    const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
    return n > 0 ? static_cast<pid_t>(std::atol(text)) : 0;
}

} // namespace

WorkloadError lockedFolderError(const fs::path& dir, const char* what, pid_t holder) {
    const bool holderEnded = holder > 0 && ::kill(holder, 0) != 0 && errno == ESRCH;
    const std::string who = holderEnded ? "a program that starscope (pid " + std::to_string(holder)
                                              + ", ended since) started, which still runs"
                            : holder > 0 ? "another starscope (pid " + std::to_string(holder) + ")"
                                         : std::string("another starscope");
    return WorkloadError{ErrorCode::Io,
                         std::string(what) + " is being written by " + who
                             + ": wait for it to finish, or choose another --out",
                         dir.string(),
                         {}};
}

WorkloadResult<FolderLock> FolderLock::acquire(const fs::path& dir, const char* what) {
    const auto path = dir / kLockFileName;
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
        return workloadError(ErrorCode::Io,
                             std::string("cannot create the lock file: ") + std::strerror(errno),
                             path.string());
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        const pid_t holder = pidIn(fd);
        ::close(fd);
        if (err == EWOULDBLOCK) {
            return fail(lockedFolderError(dir, what, holder));
        }
        return workloadError(ErrorCode::Io, std::string("cannot lock: ") + std::strerror(err),
                             path.string());
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) != 0
        || ::pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
        const int err = errno;
        ::close(fd);
        return workloadError(ErrorCode::Io,
                             std::string("cannot write the lock file: ") + std::strerror(err),
                             path.string());
    }
    return FolderLock(fd);
}

FolderLock::FolderLock(FolderLock&& other) noexcept : m_fd(other.m_fd) {
    other.m_fd = -1;
}

FolderLock& FolderLock::operator=(FolderLock&& other) noexcept {
    if (this != &other) {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
        m_fd = other.m_fd;
        other.m_fd = -1;
    }
    return *this;
}

FolderLock::~FolderLock() {
    // Closing the last descriptor releases the flock; the file stays, so that a process that
    // opened it meanwhile locks the same inode as the next one (removing it would let two
    // processes hold "the" lock on two different files).
    if (m_fd >= 0) {
        ::close(m_fd);
    }
}

bool isEmptyRunFolder(const fs::path& dir) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        // record's own files: the lock, and the room for run.json a killed record left.
        const auto name = entry.path().filename();
        if (name != kLockFileName && name != kRunJsonRoomName) {
            return false;
        }
    }
    return true;
}

std::optional<pid_t> folderLockHolder(const fs::path& dir) {
    const int fd = ::open((dir / kLockFileName).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        return std::nullopt;
    }
    std::optional<pid_t> holder;
    if (::flock(fd, LOCK_SH | LOCK_NB) != 0) {
        holder = errno == EWOULDBLOCK ? std::optional<pid_t>(pidIn(fd)) : std::nullopt;
    }
    ::close(fd); // releases the shared lock taken when nobody held it
    return holder;
}

} // namespace starscope::workloads
