#pragma once
// `starscope record`: the CLI11 subcommand around planRecord / executeRecord.

#include <CLI/CLI.hpp>
#include <iosfwd>

namespace starscope::workloads::cli {

// Registers `record` on app. Messages go to err (progress bar only when err is a terminal),
// the summary to out. A failure throws CLI::RuntimeError with the exit code, so main's
// app.exit(e) returns it.
void addRecordCommand(CLI::App& app, std::ostream& out, std::ostream& err);

} // namespace starscope::workloads::cli
