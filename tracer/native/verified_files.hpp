#pragma once
// The native files this starscope has checked whole (every record of every column against the
// model, and the payload's checksum), remembered so that the next read of the same file maps
// its columns and checks none of their records: at 100 M spans the checks were half of the
// read's time. Its checksum is still matched on every read (on a thread of its own, while the
// tables are read: readNative), since storage that changes a file's blocks keeps every field
// of its identity; at 1 G spans that is a pass over a file larger than the page cache, the
// price of every figure coming from bytes that matched. "The same file" is its identity
// (files::FileIdentity: device, inode, size, modification and change times), which any write
// moves, and its checksum; a stamp holds both, and the version of the checks that passed, so
// that a starscope with more checks than the one that wrote it checks the file again.
//
// A stamp is a file of its own in one folder (one line; written whole, then renamed, so that
// two reads at once never see half of one), named after the device and inode. Nothing is
// stamped but what a read checked; a file the writer just wrote is checked on its first read.

#include "common/mapped_file.hpp"

#include <cstdint>
#include <filesystem>

namespace starscope::tracer::detail::native {

class VerifiedFiles {
public:
    // folder: where the stamps live (made when the first is written); empty: none is kept and
    // every file is checked whole on every read.
    explicit VerifiedFiles(std::filesystem::path folder) : m_folder(std::move(folder)) {}

    // Whether a file of this identity and checksum was checked whole by these checks.
    bool holds(const files::FileIdentity& file, std::uint64_t checksum) const;
    // Remembers that it was, once the file has not changed for a second. Best effort: a folder
    // that cannot be written costs the next read its checks, nothing else. Past kKept stamps
    // the oldest are removed.
    void add(const files::FileIdentity& file, std::uint64_t checksum) const;

    static constexpr std::size_t kKept = 512;
    // Moved whenever the checks of a column change, so that no stamp of weaker checks holds.
    static constexpr std::uint32_t kChecksVersion = 1;

private:
    std::filesystem::path stampOf(const files::FileIdentity& file) const;

    std::filesystem::path m_folder;
};

} // namespace starscope::tracer::detail::native
