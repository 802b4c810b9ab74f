#pragma once
// What an input is, told by its content (magic bytes, a Paje header, binary FxT blocks) and
// never by its name: the first step of readTrace, also used to name formats in messages.

#include "tracer/model/error.hpp"

#include <cstdint>
#include <filesystem>
#include <vector>

namespace starscope::tracer {

enum class InputFormat : std::uint8_t {
    RunFolder, // a folder holding prof_file_* (and run.json)
    Fxt,       // one FxT prof file written by StarPU
    Paje,      // a Paje trace (starpu_fxt_tool's paje.trace or another tool's)
    Native,    // starscope's own binary format (native/native_format.hpp)
};

// Recognises the input by its content. A FIFO, device or socket is refused before any open.
TraceResult<InputFormat> detectFormat(const std::filesystem::path& input);

// The prof_file_* of a run folder that are regular files, sorted by name; empty when there is
// none.
std::vector<std::filesystem::path> findProfFiles(const std::filesystem::path& folder);

} // namespace starscope::tracer
