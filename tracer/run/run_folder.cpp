#include "tracer/run/run_folder.hpp"

#include "common/input_file.hpp"
#include "tracer/readers/read_trace.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

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
    const auto path = sweepFolder / kSweepJsonName;
    if (files::notRegularFile(path)) {
        return {};
    }
    std::ifstream in(path);
    const auto doc = in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json();
    std::vector<std::string> names;
    if (doc.is_object() && doc.contains("strategies") && doc["strategies"].is_array()) {
        for (const auto& name : doc["strategies"]) {
            if (name.is_string()) {
                names.push_back(name.get<std::string>());
            }
        }
    }
    return names;
}

} // namespace starscope::tracer::run
