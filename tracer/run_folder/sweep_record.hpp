#pragma once
// sweep.json, typed: the configuration every run of a sweep shares (resuming with another would
// pool runs that cannot be compared) and the strategies in the order the sweep first recorded
// them (compare orders its table by it and takes the first as the default baseline). Read and
// written here only: sweep writes it, sweep and compare read it.
//
// Version 2 keeps record's options, the program's arguments (`sweep -- PROGRAM ARGS`), --vary
// and the environment apart. Version 1 held one list, "--" PROGRAM ARGS ["--vary" V], so that a
// `--vary` given after `--` read as the option; parseSweepRecord upgrades it, in one place.

#include "tracer/model/error.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace starscope::tracer::run {

inline constexpr int kSweepRecordVersion = 2;
inline constexpr const char* kSweepRecordFormat = "starscope-sweep";

// Environment variables, sorted by name.
using SweepEnvironment = std::vector<std::pair<std::string, std::string>>;

// What every run of a sweep shares; a resume must give the same.
struct SweepConfiguration {
    std::vector<std::string> recordArgs; // the `record` options (never the program's arguments)
    std::vector<std::string> program;    // `sweep -- PROGRAM ARGS`; empty for the CNN
    std::string vary;                    // `--vary NAME=a,b`; empty when not given
    // The sweep's variables that decide how its runs behave; nullopt in a version 1 file, which
    // did not keep them (a resume of it cannot check them, and writes them).
    std::optional<SweepEnvironment> environment;

    bool operator==(const SweepConfiguration&) const = default;
};

// One phrase per difference from `earlier` to `now`, in a fixed order (record options, program,
// --vary, then the environment by variable name), e.g. "STARPU_NCPU was 2, is 3 now"; empty
// when runs of both may be pooled.
std::vector<std::string> configurationChanges(const SweepConfiguration& earlier,
                                              const SweepConfiguration& now);

struct SweepRecord {
    int version = kSweepRecordVersion;
    SweepConfiguration configuration;
    std::vector<std::string> strategies; // "arenas+loader", in the order first recorded
    // StarPU-MPI rank counts (`sweep --ranks`), in the order first recorded; a sweep.json
    // without the key (written before ranks were a dimension) recorded 1 rank only.
    std::vector<std::uint64_t> ranks{1};

    bool operator==(const SweepRecord&) const = default;
};

// The JSON text of a record (2-space indented, newline-terminated), always the current version.
std::string sweepRecordText(const SweepRecord& record);

// Parses sweep.json text; `file` names it in errors. Another format is Format, a newer
// version TooNew, a document without record_args or with a key of the wrong type Corrupt.
TraceResult<SweepRecord> parseSweepRecord(const std::string& text, const std::string& file);

// Reads path (refusing a FIFO, device or folder by stat before any open).
TraceResult<SweepRecord> readSweepRecord(const std::filesystem::path& path);

// Writes through the project's one writer (common/file_writer.hpp).
TraceResult<Done> writeSweepRecord(const std::filesystem::path& path, const SweepRecord& record);

} // namespace starscope::tracer::run
