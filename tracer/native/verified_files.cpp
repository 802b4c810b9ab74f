#include "tracer/native/verified_files.hpp"

#include "common/file_writer.hpp"

#include <algorithm>
#include <cinttypes>
#include <ctime>
#include <cstdio>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace starscope::tracer::detail::native {

namespace fs = std::filesystem;

namespace {

std::string stampLine(const files::FileIdentity& file, std::uint64_t checksum) {
    char line[160];
    std::snprintf(line, sizeof line, "starscope-verified %" PRIu32 " %" PRIu64 " %" PRId64 " %" PRId64 " %016" PRIx64 "\n",
                  VerifiedFiles::kChecksVersion, file.size, file.modifiedNs, file.changedNs, checksum);
    return line;
}

// Keeps the kKept newest stamps (and the one just written): a folder that grew past it loses
// its oldest, whose files are most likely gone or checked again at little cost.
void prune(const fs::path& folder, std::size_t kept) {
    std::error_code ec;
    std::vector<std::pair<fs::file_time_type, fs::path>> stamps;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code timeError;
        const auto time = it->last_write_time(timeError);
        if (!timeError && it->path().extension() == ".stamp") {
            stamps.emplace_back(time, it->path());
        }
    }
    if (stamps.size() <= kept) {
        return;
    }
    const auto excess = static_cast<std::ptrdiff_t>(stamps.size() - kept);
    std::nth_element(stamps.begin(), stamps.begin() + excess, stamps.end());
    for (auto it = stamps.begin(); it != stamps.begin() + excess; ++it) {
        fs::remove(it->second, ec);
    }
}

} // namespace

fs::path VerifiedFiles::stampOf(const files::FileIdentity& file) const {
    char name[64];
    std::snprintf(name, sizeof name, "%" PRIx64 "-%" PRIx64 ".stamp", file.device, file.inode);
    return m_folder / name;
}

bool VerifiedFiles::holds(const files::FileIdentity& file, std::uint64_t checksum) const {
    if (m_folder.empty()) {
        return false;
    }
    // A stamp is one short line: a longer file is no stamp of ours.
    char held[256];
    std::size_t size = 0;
    if (std::FILE* in = std::fopen(stampOf(file).c_str(), "rb")) {
        size = std::fread(held, 1, sizeof held, in);
        std::fclose(in);
    }
    return std::string_view(held, size) == stampLine(file, checksum);
}

void VerifiedFiles::add(const files::FileIdentity& file, std::uint64_t checksum) const {
    // A file changed within the last second may change again within the same tick of the
    // file system's clock (a few ms) and keep its times: its checks are not remembered until
    // it has settled, as git does not trust an index entry as new as the index.
    constexpr std::int64_t kSettledNs = 1'000'000'000;
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    const std::int64_t nowNs = static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
    if (m_folder.empty() || file.changedNs > nowNs - kSettledNs) {
        return;
    }
    std::error_code ec;
    fs::create_directories(m_folder, ec);
    // Atomic, not durable: a stamp lost in a crash costs one read its checks.
    if (files::writeFile(stampOf(file), stampLine(file, checksum), files::Durability::Atomic)) {
        prune(m_folder, kKept);
    }
}

} // namespace starscope::tracer::detail::native
