#pragma once
// Free space in a run folder's file system, for the CNN's recording and a program's alike. FxT
// writes the trace into the run folder during the run (whenever a buffer is full) and at its
// end; libfxt ends the process or writes what fits when the disk is full. So record warns
// before the run when the trace may not fit, and after it, a full file system counts as a cut
// trace (a cut can fall between two of FxT's blocks, where the files still look whole).

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>

namespace starscope::workloads {

// Bytes free for an unprivileged writer in dir's file system; nullopt when it cannot be read.
std::optional<std::uint64_t> freeBytes(const std::filesystem::path& dir);

// Whether dir's file system is (nearly) full: after FxT wrote the trace, its writes most likely
// failed.
bool fileSystemIsFull(const std::filesystem::path& dir);

// " (the file system of DIR is full)" when it is, else empty.
std::string fullDiskNote(const std::filesystem::path& dir);

// Warns on out when dir has less free space than the trace may need:
// "starscope record: warning: N MiB free in DIR; the trace may need about M MiB".
void warnIfSpaceIsShort(const std::filesystem::path& dir, std::uint64_t neededBytes,
                        std::ostream& out);

} // namespace starscope::workloads
