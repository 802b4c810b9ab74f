#pragma once
// The one way starscope writes an output file (record's run.json, sweep's sweep.json and
// summaries, export -o, convert -o, the viewer's pictures), whatever the path names:
// - a new path or a regular file: replaced atomically (temporary file in the same folder,
//   fsync, rename), so a reader sees the old file or the whole new one, never half of it; a
//   file the user may not write is refused, although the folder would allow the rename;
// - a symlink: followed to its final target, which is then written as above; the link stays;
// - a FIFO, a character or block device, a socket: opened for writing and written through,
//   never renamed over (`-o /dev/null` must not replace /dev/null with a regular file);
// - a folder: refused.

#include "common/error.hpp"
#include "common/result.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace starscope::files {

// What stopped a write; the message says it in words ("is a folder; name a file to write").
enum class WriteErrorCode : std::uint8_t {
    InvalidPath, // an empty name, or a folder
    Unreachable, // the path or one of its symlinks cannot be followed
    Create,      // the file (or the temporary file beside it) cannot be opened or created
    Write,       // writing, syncing or closing failed
    Replace,     // the written temporary file cannot be renamed over the target
};

// file is the path the caller named; describe() gives "path: message".
using WriteError = Error<WriteErrorCode>;

template <typename T> using WriteResult = Result<T, WriteError>;

// What a path leads to once its symlinks are followed.
enum class TargetKind { New, Regular, Directory, Special };

struct Target {
    std::filesystem::path path; // the final target (the path itself when it is no symlink)
    TargetKind kind = TargetKind::New;
};

// Follows path's symlinks (as many as the kernel would) to what a write would reach.
WriteResult<Target> resolveTarget(const std::filesystem::path& path);

// How a replaced regular file reaches the disk. Durable: the file, then its folder, synced
// before the call returns, so a crash right after leaves the old file or the new one whole.
// Atomic: still the temporary file and the rename, so readers see the old file or the whole new
// one, but the kernel writes it out in its own time; for output drawn again in a moment should a
// crash lose it (the viewer's pictures), whose two syncs took 8 ms, at times 50, of a headless
// render of under 100 ms.
enum class Durability { Durable, Atomic };

// Writes what fill puts into the stream. A failed write leaves a regular target as it was.
WriteResult<Done> writeFile(const std::filesystem::path& path, const std::function<void(std::ostream&)>& fill,
                            Durability durability = Durability::Durable);
WriteResult<Done> writeFile(const std::filesystem::path& path, std::string_view contents,
                            Durability durability = Durability::Durable);

} // namespace starscope::files
