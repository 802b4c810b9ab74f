#pragma once
// Reading traces into the model: one entry point that recognises the input by its content
// (a run folder, StarPU FxT prof files, a Paje trace or starscope's native file), plus the
// per-format readers it dispatches to.

#include "tracer/model/error.hpp"
#include "tracer/model/read_options.hpp"
#include "tracer/model/trace.hpp"
#include "tracer/native/native_format.hpp"   // readNative: one of the formats readTrace reads

#include <filesystem>
#include <string_view>
#include <vector>

namespace starscope::tracer {

enum class InputFormat : std::uint8_t {
    RunFolder,   // a folder holding prof_file_* (and run.json)
    Fxt,         // one FxT prof file written by StarPU
    Paje,        // a Paje trace (starpu_fxt_tool's paje.trace or another tool's)
    Native,      // starscope's own binary format (native/native_format.hpp)
};

// Recognises the input by its content (magic bytes, Paje header), not by its name.
TraceResult<InputFormat> detectFormat(const std::filesystem::path& input);

// Metadata key of a trace read from a run folder's prof files: what it was made from, one line
// per prof file (name, size, modification time, checksum of its first 64 KiB). A native copy
// carries it, so that the folder's trace.sstrace cache can be checked against the folder.
inline constexpr std::string_view kRunSourcesMetadata = "run.sources";

// Reads a run folder (all its prof_file_* merged, or its trace.sstrace cache when that was
// made from exactly these prof files; a cache that was not is named in a warning, and rebuilt
// when it is a regular file and the folder is writable), one prof file, a Paje trace or a
// native file. Errors name the file and, where it applies, the byte offset.
TraceResult<Trace> readTrace(const std::filesystem::path& input, const ReadOptions& options = {});

// Reads one or several FxT prof files (one per process) of StarPU 1.3.10 into one trace.
TraceResult<Trace> readFxt(const std::vector<std::filesystem::path>& files,
                           const ReadOptions& options = {});

// Whether an FxT prof file is whole: every block and event complete. A Corrupt error naming
// the file and the byte where it stops when a write was cut short (a full disk). It walks the
// events without decoding them (a few ms per 100,000 events).
TraceResult<Done> checkFxtWhole(const std::filesystem::path& file);

// Reads any Paje trace (event definitions with arbitrary ids, unsorted input, ...).
TraceResult<Trace> readPaje(const std::filesystem::path& file, const ReadOptions& options = {});

// The prof_file_* of a run folder, sorted by name; empty when there is none.
std::vector<std::filesystem::path> findProfFiles(const std::filesystem::path& folder);

} // namespace starscope::tracer
