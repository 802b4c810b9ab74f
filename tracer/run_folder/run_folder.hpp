#pragma once
// Where a run's files are. A run folder holds the prof files StarPU wrote (one per process:
// a StarPU-MPI run has one per rank), run.json (RunRecord), and optionally the native cache
// `starscope convert` made; a sweep folder holds run folders and sweep.json. The names are
// run_folder_names.hpp's. Below the readers: it finds files and never reads a trace.

#include "tracer/run_folder/run_folder_names.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::tracer::run {

// Every entry named prof_file_* in a run folder, whatever it is, sorted by name; empty when
// there is none. Each stands for a process of the run: one that is no regular file is not to be
// skipped (the readers' notAProfFile says why it cannot be read).
std::vector<std::filesystem::path> findProfFiles(const std::filesystem::path& folder);

// The name StarPU gives the prof file of process `id` (its rank, or 0) run by `user` when
// STARPU_FXT_SUFFIX is unset: prof_file_<user>_<id>.
std::string profFileName(std::string_view user, std::uint64_t id);

class RunFolder {
public:
    explicit RunFolder(std::filesystem::path path) : m_path(std::move(path)) {}

    // A folder with at least one prof_file_*.
    static bool isRunFolder(const std::filesystem::path& path);
    // The run folders directly inside path, sorted by name (a sweep folder's runs).
    static std::vector<RunFolder> runsInside(const std::filesystem::path& path);

    const std::filesystem::path& path() const { return m_path; }
    std::vector<std::filesystem::path> profFiles() const; // sorted by name
    std::filesystem::path runJson() const { return m_path / kRunJsonName; }
    std::filesystem::path nativeCache() const { return m_path / kNativeCacheName; }
    // The same folder named another way (relative, through a link) is the same run.
    std::filesystem::path identity() const;

private:
    std::filesystem::path m_path;
};

// Whether two run folders hold the same recording: prof files of the same names, each the same
// byte for byte, and the same run.json (or none in either). A copy of a run is that run again,
// not a second repetition of it.
bool sameRecording(const RunFolder& a, const RunFolder& b);

// A sweep's sweep.json: the strategies in the order the sweep recorded them; empty when the
// folder is no sweep or its sweep.json cannot be read.
std::vector<std::string> sweepStrategies(const std::filesystem::path& sweepFolder);

} // namespace starscope::tracer::run
