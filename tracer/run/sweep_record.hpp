#pragma once
// sweep.json, typed: the record options every run of a sweep shares (resuming with others
// would pool runs that cannot be compared) and the strategies in the order the sweep first
// recorded them (compare orders its table by it and takes the first as the default
// baseline). Read and written here only: sweep writes it, sweep and compare read it.

#include "tracer/model/error.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace starscope::tracer::run {

inline constexpr int kSweepRecordVersion = 1;
inline constexpr const char* kSweepRecordFormat = "starscope-sweep";

struct SweepRecord {
    int version = kSweepRecordVersion;
    std::vector<std::string> recordArgs; // the `record` options shared by every run
    std::vector<std::string> strategies; // "arenas+loader", in the order first recorded
    // StarPU-MPI rank counts (`sweep --ranks`), in the order first recorded; a sweep.json
    // without the key (written before ranks were a dimension) recorded 1 rank only.
    std::vector<std::uint64_t> ranks{1};

    bool operator==(const SweepRecord&) const = default;
};

// The JSON text of a record (2-space indented, newline-terminated).
std::string sweepRecordText(const SweepRecord& record);

// Parses sweep.json text; `file` names it in errors. Another format is Format, a newer
// version TooNew, a document without record_args or with a key of the wrong type Corrupt.
TraceResult<SweepRecord> parseSweepRecord(const std::string& text, const std::string& file);

// Reads path (refusing a FIFO, device or folder by stat before any open).
TraceResult<SweepRecord> readSweepRecord(const std::filesystem::path& path);

// Writes through the project's one writer (common/file_writer.hpp).
TraceResult<Done> writeSweepRecord(const std::filesystem::path& path, const SweepRecord& record);

} // namespace starscope::tracer::run
