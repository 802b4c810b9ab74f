#include "tracer/run_folder/run_folder.hpp"

#include "common/input_file.hpp"
#include "common/mapped_file.hpp"

#include "tracer/run_folder/sweep_record.hpp"

#include <algorithm>

namespace starscope::tracer::run {

namespace fs = std::filesystem;

std::vector<fs::path> findProfFiles(const fs::path& folder) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().filename().string().starts_with(kProfFilePrefix)) {
            files.push_back(it->path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string profFileName(std::string_view user, std::uint64_t id) {
    return std::string(kProfFilePrefix) + std::string(user) + "_" + std::to_string(id);
}

bool isRunArtifact(std::string_view name) {
    return name.starts_with(kProfFilePrefix) || name == kRunJsonName
           || name.starts_with(std::string(kRunJsonName) + ".tmp") || name.starts_with(kTraceConversionPrefix)
           || name == kPajeTraceName || (name.starts_with(kWeightsFilePrefix) && name.ends_with(kWeightsFileSuffix));
}

bool RunFolder::isRunFolder(const fs::path& path) { return !findProfFiles(path).empty(); }

std::vector<RunFolder> RunFolder::runsInside(const fs::path& path) {
    std::vector<fs::path> inside;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(path, ec)) {
        if (entry.is_directory(ec) && isRunFolder(entry.path())) {
            inside.push_back(entry.path());
        }
    }
    std::sort(inside.begin(), inside.end());
    return {inside.begin(), inside.end()};
}

std::vector<fs::path> RunFolder::profFiles() const { return findProfFiles(m_path); }

fs::path RunFolder::identity() const {
    std::error_code ec;
    auto canonical = fs::canonical(m_path, ec);
    return ec ? fs::absolute(m_path, ec).lexically_normal() : canonical;
}

namespace {

// Both regular files of one content, or both absent.
bool sameContent(const fs::path& one, const fs::path& other) {
    std::error_code ec;
    const bool hasOne = fs::exists(one, ec);
    if (hasOne != fs::exists(other, ec)) {
        return false;
    }
    if (!hasOne) {
        return true;
    }
    // A FIFO would block the mapping's open.
    if (files::notRegularFile(one) || files::notRegularFile(other)) {
        return false;
    }
    const files::MappedFile a(one);
    const files::MappedFile b(other);
    return a.error().empty() && b.error().empty() && a.text() == b.text();
}

} // namespace

bool sameRecording(const RunFolder& a, const RunFolder& b) {
    const auto mine = a.profFiles();
    const auto theirs = b.profFiles();
    if (mine.empty() || mine.size() != theirs.size()) {
        return false;
    }
    // Sizes first: recordings that differ almost always differ there, and cost no read.
    std::error_code ec;
    for (std::size_t i = 0; i < mine.size(); ++i) {
        if (mine[i].filename() != theirs[i].filename()
            || fs::file_size(mine[i], ec) != fs::file_size(theirs[i], ec) || ec) {
            return false;
        }
    }
    for (std::size_t i = 0; i < mine.size(); ++i) {
        if (!sameContent(mine[i], theirs[i])) {
            return false;
        }
    }
    return sameContent(a.runJson(), b.runJson());
}

std::vector<std::string> sweepStrategies(const fs::path& sweepFolder) {
    auto record = readSweepRecord(sweepFolder / kSweepJsonName);
    return record ? std::move(record->strategies) : std::vector<std::string>{};
}

} // namespace starscope::tracer::run
