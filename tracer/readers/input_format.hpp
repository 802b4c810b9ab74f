#pragma once
// What an input is, told by its content (magic bytes, a Paje header, binary FxT blocks) and
// never by its name: the first step of readTrace, also used to name formats in messages.

#include "tracer/model/error.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
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

// Why a run folder's prof file (run::findProfFiles) cannot be read as one: it is a FIFO, a folder, a socket, a device
// (or a symlink to one of them) or a dangling symlink. nullopt for a regular file or a symlink to
// one.
std::optional<std::string> notAProfFile(const std::filesystem::path& file);

} // namespace starscope::tracer
