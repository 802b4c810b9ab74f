#include "workloads/record/run_folder_setup.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace starscope::workloads {

namespace fs = std::filesystem;

using tracer::run::kSetAsideName;
using tracer::run::kWriteProbeName;

WorkloadResult<PreparedRunFolder> prepareRunFolder(const fs::path& dir, bool force) {
    std::error_code ec;
    // Whether this process made the folder: another record may have made it since the plan.
    const bool created = fs::create_directories(dir, ec);
    if (ec) {
        return workloadError(ErrorCode::Io, "cannot create the run folder: " + ec.message(),
                             dir.string());
    }
    const auto undo = [&] {
        if (created) {
            fs::remove_all(dir, ec);
        }
    };
    auto lock = FolderLock::acquire(dir, "run folder");
    if (!lock) {
        undo();
        return fail(lock.error());
    }
    const auto probe = dir / kWriteProbeName;
    std::FILE* file = std::fopen(probe.c_str(), "w");
    if (file == nullptr) {
        const int err = errno;
        undo();
        return workloadError(ErrorCode::Io,
                             std::string("run folder is not writable: ") + std::strerror(err),
                             dir.string());
    }
    std::fclose(file);
    fs::remove(probe, ec);
    // A folder that another record filled between the plan and the lock is not ours to clear.
    if (!created && !force && !isEmptyRunFolder(dir)) {
        return workloadError(ErrorCode::Io,
                             "run folder already exists and is not empty: pass --force to "
                             "overwrite it, or choose another --out",
                             dir.string());
    }
    return PreparedRunFolder{std::move(lock).value(), created};
}

RunJsonRoom::RunJsonRoom(const fs::path& dir) : m_file(dir / kRunJsonRoomName) {
    const std::vector<char> zeros(kRunJsonRoomBytes, '\0');
    std::FILE* file = std::fopen(m_file.c_str(), "wb");
    if (file == nullptr) {
        return;
    }
    // Written, not only sized: a sparse file would keep no room at all.
    const bool written = std::fwrite(zeros.data(), 1, zeros.size(), file) == zeros.size();
    m_kept = std::fclose(file) == 0 && written;
}

RunJsonRoom::~RunJsonRoom() {
    release();
}

void RunJsonRoom::release() {
    std::error_code ec;
    fs::remove(m_file, ec);
    m_kept = false;
}

void removeRunArtifacts(const fs::path& dir) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (isRunArtifact(entry.path().filename().string())) {
            fs::remove(entry.path(), ec);
        }
    }
}

SetAsideRunFiles::SetAsideRunFiles(const fs::path& dir) : m_dir(dir) {
    std::error_code ec;
    const fs::path aside = dir / kSetAsideName;
    fs::remove_all(aside, ec); // left by a recording that died
    bool any = false;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (!isRunArtifact(name)) {
            continue;
        }
        if (!any) {
            fs::create_directory(aside, ec);
            any = true;
        }
        fs::rename(entry.path(), aside / name, ec);
    }
    if (any) {
        m_aside = aside;
    }
}

SetAsideRunFiles::~SetAsideRunFiles() {
    restore();
}

void SetAsideRunFiles::discard() {
    std::error_code ec;
    if (!m_aside.empty()) {
        fs::remove_all(m_aside, ec);
        m_aside.clear();
    }
}

void SetAsideRunFiles::restore() {
    if (m_aside.empty()) {
        return;
    }
    std::error_code ec;
    removeRunArtifacts(m_dir);
    for (const auto& entry : fs::directory_iterator(m_aside, ec)) {
        fs::rename(entry.path(), m_dir / entry.path().filename(), ec);
    }
    fs::remove_all(m_aside, ec);
    m_aside.clear();
}

} // namespace starscope::workloads
