#include "tracer/run/run_folder.hpp"

#include "tracer/readers/read_trace.hpp"
#include "tracer/run/run_record.hpp"
#include "tracer/run/sweep_record.hpp"

#include <algorithm>

namespace starscope::tracer::run {

namespace fs = std::filesystem;

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

std::vector<std::string> sweepStrategies(const fs::path& sweepFolder) {
    auto record = readSweepRecord(sweepFolder / kSweepJsonName);
    return record ? std::move(record->strategies) : std::vector<std::string>{};
}

} // namespace starscope::tracer::run
