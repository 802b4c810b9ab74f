#pragma once
// The one way into the readers: paths and options in, a finished and checked model out. Which
// format each input is (a run folder, StarPU FxT prof files of StarPU 1.3 or 1.4, a Paje trace,
// starscope's native file) and how many processes it holds is the readers' business; the
// limits of the model (48-bit times, lanes, ranks, states) are enforced here, where every
// format's trace is finished, so that no caller and no format can skip them.

#include "tracer/model/error.hpp"
#include "tracer/model/read_options.hpp"
#include "tracer/model/trace.hpp"
#include "tracer/readers/input_format.hpp"
#include "tracer/readers/run_folder_cache.hpp" // kRunSourcesMetadata

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace starscope::tracer {

// Reads one input: a run folder (its prof files merged, or its trace.sstrace cache when that
// was made from exactly these prof files), one prof file, a Paje trace or a native file.
// Errors name the file and, where it applies, the byte offset.
TraceResult<Trace> readTrace(const std::filesystem::path& input, const ReadOptions& options = {});

// Reads several inputs as one trace: each a prof file of one process of a StarPU-MPI run,
// merged on one clock with their messages matched. One input is read as above.
TraceResult<Trace> readTrace(const std::vector<std::filesystem::path>& inputs,
                             const ReadOptions& options = {});

// What a run folder's trace lacks of its run: run.json (recordedRanks) says it had more ranks
// than the trace holds, whose prof files are missing. "run.json says the run had 2 ranks, the
// folder holds the trace of 1 (rank 0): rank 1 missing (no prof file); every figure covers the
// ranks read only"; nullopt when it holds them all. A lone prof file's rank is told by its name
// (StarPU-MPI's prof_file_USER_RANK). readTrace warns with it; `compare` refuses such a run.
std::optional<std::string> missingRanks(const Trace& trace,
                                        const std::vector<std::filesystem::path>& profFiles,
                                        std::uint64_t recordedRanks);

// Whether an FxT prof file is whole: every block and event complete. A Corrupt error naming
// the file and the byte where it stops when a write was cut short (a full disk). It walks the
// events without decoding them (a few ms per 100,000 events).
TraceResult<Done> checkFxtWhole(const std::filesystem::path& file);

// How often and how long libfxt wrote its full buffer to an FxT prof file (its fut_start_flush /
// fut_stop_flush events), without reading the trace into a model: what the recorder keeps in
// run.json once StarPU has shut down. The readers show each write as the writing thread's
// "Trace flush" state; these totals are theirs.
struct FxtFlushTotals {
    std::uint64_t count = 0;
    std::int64_t totalNs = 0;
    std::int64_t maxNs = 0;
    bool operator==(const FxtFlushTotals&) const = default;
};
TraceResult<FxtFlushTotals> measureFxtFlushes(const std::filesystem::path& file);

} // namespace starscope::tracer
