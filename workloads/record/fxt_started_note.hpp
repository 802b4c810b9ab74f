#pragma once
// A StarPU built with FxT names its prof file to libfxt (fut_set_filename) when it starts
// tracing, in starpu_init, and writes the file at starpu_shutdown. A program that ends before
// starpu_shutdown (exit() or _exit() first) leaves no trace, as one whose StarPU has no FxT
// does; the library record preloads (record/fxt_started_note.cpp) leaves this note beside the
// prof file to be, so that record tells the two apart, and record takes it away again.

#include "tracer/run_folder/run_folder_names.hpp"

#include <filesystem>

namespace starscope::workloads {

using tracer::run::kFxtStartedNote;

// Whether dir holds the note (StarPU started FxT tracing into it); removes it either way.
inline bool takeFxtStartedNote(const std::filesystem::path& dir) {
    std::error_code ec;
    return std::filesystem::remove(dir / kFxtStartedNote, ec);
}

} // namespace starscope::workloads
