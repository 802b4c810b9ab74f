#pragma once
// The files of a run folder that any recording writes or checks, whatever the program: the
// time and StarPU version run.json names, libfxt's flushes and cut traces, and a text file
// written with the project's one writer.

#include "tracer/run_folder/run_record.hpp"
#include "workloads/error.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace starscope::workloads {

// The version of the StarPU record is linked with ("1.3.10"): the CNN's, and what a command
// run's run.json names as starscope's own.
std::string linkedStarpuVersion();

// Now in UTC, ISO 8601, as run.json's started_at.
std::string utcNow();

// libfxt's buffer flushes in the run's trace files, summed: what the tracing itself cost the
// run (run.json's starpu.fxt.flushes). nullopt when no file could be measured.
std::optional<tracer::run::FlushRecord> measureFlushes(const std::filesystem::path& folder,
                                                       const std::vector<std::string>& traceFiles);

// Every trace file of the run that is cut short (a full disk), each with the byte where it
// stops, joined with "; "; empty when every file is whole. All of them, not the first: after a
// full disk, each rank's file may be cut.
std::string cutTraceFiles(const std::filesystem::path& folder,
                          const std::vector<std::string>& traceFiles);

// Why the run's trace is cut, for a run.json marked failed; empty when it is whole. libfxt only
// prints a line when it cannot write the whole trace (a full disk) and goes on, and a cut can
// fall between two of its blocks: so a full file system counts as a cut too ("the trace in DIR
// may be cut short (the file system of DIR is full)").
std::string traceCutProblem(const std::filesystem::path& folder,
                            const std::vector<std::string>& traceFiles);

// Writes text to path with the project's one writer (common/file_writer.hpp): a regular file
// is replaced atomically, a symlink followed, a FIFO or device written through.
WorkloadResult<Done> writeTextFile(const std::filesystem::path& path, const std::string& text);

} // namespace starscope::workloads
