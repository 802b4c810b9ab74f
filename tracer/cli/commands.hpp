#pragma once
// The tracer's subcommands of `starscope`: stats, barriers, export, convert (and compare).
// Each command writes its output to a stream and returns an exit code, so tests run them
// in-process; errors go to the error stream with the file and byte offset.

#include <CLI/CLI.hpp>

#include <iosfwd>

namespace starscope::tracer::cli {

// Registers the subcommands on app; they print to std::cout / std::cerr. A failing command
// throws CLI::RuntimeError carrying its exit code, so main's `app.exit(e)` returns it.
void addCommands(CLI::App& app);

// Same, printing to out / err (tests capture them).
void addCommands(CLI::App& app, std::ostream& out, std::ostream& err);

} // namespace starscope::tracer::cli
