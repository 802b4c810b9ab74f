#include "common/file_writer.hpp"

#include "common/descriptor_buffer.hpp"
#include "common/pending_temporaries.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <ostream>
#include <sys/stat.h>
#include <unistd.h>

namespace starscope::files {

namespace fs = std::filesystem;

namespace {

// Linux's own limit on symlinks followed in one lookup (MAXSYMLINKS).
constexpr int kMaxSymlinks = 40;

std::string errnoText(int err) { return std::strerror(err); }

Unexpected<WriteError> failure(WriteErrorCode code, const fs::path& path, std::string message) {
    return fail(WriteError{code, std::move(message), path.string(), {}});
}

// Runs fill on fd; 0 or the errno of the first failed write.
int fillDescriptor(int fd, const std::function<void(std::ostream&)>& fill) {
    DescriptorBuffer buffer(fd);
    std::ostream out(&buffer);
    fill(out);
    out.flush();
    if (buffer.error() != 0) {
        return buffer.error();
    }
    return out ? 0 : EIO;
}

// FIFOs and devices: written in place. O_TRUNC is meaningless for them, and O_CREAT must not
// make a regular file should the special file vanish between the check and the open.
WriteResult<Done> writeThrough(const fs::path& named, const fs::path& target,
                               const std::function<void(std::ostream&)>& fill) {
    int fd = -1;
    do {
        fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        return failure(WriteErrorCode::Create, named,
                       "cannot open for writing: " + errnoText(errno));
    }
    const int err = fillDescriptor(fd, fill);
    const int closed = ::close(fd);
    if (err != 0) {
        return failure(WriteErrorCode::Write, named, "write failed: " + errnoText(err));
    }
    if (closed != 0 && errno != EINTR) {
        return failure(WriteErrorCode::Write, named, "write failed: " + errnoText(errno));
    }
    return Done{};
}

// A name no other writer (another process, another thread) uses at the same time.
fs::path temporaryFor(const fs::path& target) {
    static std::atomic<unsigned> counter{0};
    auto temp = target;
    temp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
    return temp;
}

void syncFolder(const fs::path& folder) {
    // Makes the rename itself durable; best effort, as some file systems refuse it.
    const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

WriteResult<Done> replaceAtomically(const fs::path& named, const fs::path& target, bool exists,
                                    const std::function<void(std::ostream&)>& fill, Durability durability) {
    struct stat old {};
    if (exists && ::stat(target.c_str(), &old) != 0) {
        exists = false;
    }
    // The rename needs only the folder's permission: without this check a file the user could
    // not write (read-only, or another user's in a shared folder) would be replaced all the same.
    if (exists && ::faccessat(AT_FDCWD, target.c_str(), W_OK, AT_EACCESS) != 0) {
        return failure(WriteErrorCode::Create, named,
                       "cannot write to it: " + errnoText(errno) + "; not replaced");
    }
    const fs::path temp = temporaryFor(target);
    // Named before it exists, forgotten once renamed or removed: a stop signal between the two
    // removes it (removeTemporariesOnStop).
    const PendingTemporary pending(temp);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        return failure(WriteErrorCode::Create, named,
                       "cannot create a temporary file beside it (" + temp.filename().string()
                           + "): " + errnoText(errno));
    }
    // The replacement keeps the permissions of the file it replaces.
    if (exists) {
        [[maybe_unused]] const int chmodded = ::fchmod(fd, old.st_mode & 07777);
    }
    int err = fillDescriptor(fd, fill);
    if (err == 0 && durability == Durability::Durable && ::fsync(fd) != 0) {
        err = errno;
    }
    if (::close(fd) != 0 && err == 0 && errno != EINTR) {
        err = errno;
    }
    if (err != 0) {
        ::unlink(temp.c_str());
        return failure(WriteErrorCode::Write, named, "write failed: " + errnoText(err));
    }
    if (::rename(temp.c_str(), target.c_str()) != 0) {
        err = errno;
        ::unlink(temp.c_str());
        return failure(WriteErrorCode::Replace, named,
                       "cannot move the written file into place: " + errnoText(err));
    }
    if (durability == Durability::Durable) {
        syncFolder(target.parent_path());
    }
    return Done{};
}

} // namespace

WriteResult<Target> resolveTarget(const fs::path& path) {
    if (path.empty()) {
        return failure(WriteErrorCode::InvalidPath, path, "empty file name");
    }
    fs::path current = path;
    for (int links = 0; links <= kMaxSymlinks; ++links) {
        struct stat info {};
        if (::lstat(current.c_str(), &info) != 0) {
            if (errno == ENOENT) {
                return Target{current, TargetKind::New};
            }
            return failure(WriteErrorCode::Unreachable, path, errnoText(errno));
        }
        if (S_ISLNK(info.st_mode)) {
            std::error_code ec;
            const fs::path next = fs::read_symlink(current, ec);
            if (ec) {
                return failure(WriteErrorCode::Unreachable, path,
                               "cannot read the symlink " + current.string() + ": " + ec.message());
            }
            current = next.is_absolute() ? next : current.parent_path() / next;
            continue;
        }
        if (S_ISREG(info.st_mode)) {
            return Target{current, TargetKind::Regular};
        }
        if (S_ISDIR(info.st_mode)) {
            return Target{current, TargetKind::Directory};
        }
        return Target{current, TargetKind::Special};
    }
    return failure(WriteErrorCode::Unreachable, path, errnoText(ELOOP));
}

WriteResult<Done> writeFile(const fs::path& path, const std::function<void(std::ostream&)>& fill,
                            Durability durability) {
    auto target = resolveTarget(path);
    if (!target) {
        return fail(target.error());
    }
    switch (target->kind) {
    case TargetKind::Directory:
        return failure(WriteErrorCode::InvalidPath, path, "is a folder; name a file to write");
    case TargetKind::Special:
        return writeThrough(path, target->path, fill);
    case TargetKind::Regular:
        return replaceAtomically(path, target->path, true, fill, durability);
    case TargetKind::New:
        break;
    }
    return replaceAtomically(path, target->path, false, fill, durability);
}

WriteResult<Done> writeFile(const fs::path& path, std::string_view contents, Durability durability) {
    return writeFile(
        path,
        [contents](std::ostream& out) { out.write(contents.data(), static_cast<std::streamsize>(contents.size())); },
        durability);
}

} // namespace starscope::files
