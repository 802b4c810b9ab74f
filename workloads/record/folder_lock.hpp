#pragma once
// A run or sweep folder is locked while a process writes it: two `record --out X` at once
// would both write X/prof_file_<user>_0 and one trace would be silently lost. The lock is a
// flock on X/.starscope.lock, which the kernel releases when the holder dies however it dies
// (no stale lock after a SIGKILL); the file holds the holder's pid for the refusal message.
// `record -- PROGRAM` hands the lock on to the program it starts (descriptor()), so that a
// program that outlives a killed record keeps its folder locked until it ends.

#include "tracer/run_folder/run_folder_names.hpp"
#include "workloads/error.hpp"

#include <filesystem>
#include <optional>
#include <sys/types.h>

namespace starscope::workloads {

// The lock file's name, and that of the room a program's recording keeps for run.json
// (run_folder_setup.hpp, left behind only by a record that was killed), are the run folder's.
using tracer::run::kLockFileName;
using tracer::run::kRunJsonRoomName;

class FolderLock {
public:
    // Takes the lock of dir (which must exist) without waiting; what names the folder in the
    // refusal ("run folder", "sweep folder"). Refused with the holder's pid when held.
    static WorkloadResult<FolderLock> acquire(const std::filesystem::path& dir, const char* what);

    FolderLock(FolderLock&& other) noexcept;
    FolderLock& operator=(FolderLock&& other) noexcept;
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;
    ~FolderLock();

    // The open lock file (close-on-exec): a child that inherits it holds the lock with this
    // process, and alone once this process is gone.
    int descriptor() const { return m_fd; }

private:
    explicit FolderLock(int fd) : m_fd(fd) {}
    int m_fd = -1;
};

// The pid of the process holding dir's lock (0 when it is held but the pid is not known yet),
// nullopt when nobody holds it. Creates nothing.
std::optional<pid_t> folderLockHolder(const std::filesystem::path& dir);

// dir holds nothing but, possibly, the lock file (or room for run.json) an earlier record or
// sweep left.
bool isEmptyRunFolder(const std::filesystem::path& dir);

// "<what> <dir> is being written by another starscope (pid N): wait for it, or choose another
// --out", as an error; when that pid has ended, the lock is held by a program it started.
WorkloadError lockedFolderError(const std::filesystem::path& dir, const char* what, pid_t holder);

} // namespace starscope::workloads
