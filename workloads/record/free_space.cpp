#include "workloads/record/free_space.hpp"

#include <ostream>
#include <sys/statvfs.h>

namespace starscope::workloads {

namespace {

constexpr std::uint64_t kMib = std::uint64_t{1} << 20;

// Less free space than this after FxT wrote the trace: its writes most likely failed.
constexpr std::uint64_t kFullBelowBytes = kMib;

} // namespace

std::optional<std::uint64_t> freeBytes(const std::filesystem::path& dir) {
    struct statvfs info {};
    if (::statvfs(dir.c_str(), &info) != 0) {
        return std::nullopt;
    }
    return std::uint64_t{info.f_bavail} * info.f_frsize;
}

bool fileSystemIsFull(const std::filesystem::path& dir) {
    const auto available = freeBytes(dir);
    return available && *available < kFullBelowBytes;
}

std::string fullDiskNote(const std::filesystem::path& dir) {
    return fileSystemIsFull(dir) ? " (the file system of " + dir.string() + " is full)"
                                 : std::string();
}

void warnIfSpaceIsShort(const std::filesystem::path& dir, std::uint64_t neededBytes,
                        std::ostream& out) {
    const auto available = freeBytes(dir);
    if (available && *available < neededBytes) {
        out << "starscope record: warning: " << *available / kMib << " MiB free in " << dir.string()
            << "; the trace may need about " << (neededBytes + kMib - 1) / kMib << " MiB\n"
            << std::flush;
    }
}

} // namespace starscope::workloads
