#pragma once
// `starscope sweep`: the CLI11 subcommand around planSweep / executeSweep.

#include <CLI/CLI.hpp>
#include <iosfwd>

namespace starscope::workloads::cli {

// What `starscope --help` says of sweep (see kRecordDescription).
inline constexpr const char* kSweepDescription =
    "Record every arena x loader strategy (on every --ranks count) --repeat times (interleaved) into one "
    "folder with summary.csv/summary.json; a rerun skips completed runs";

// Registers `sweep` on app. Progress lines go to out, errors to err. A failure throws
// CLI::RuntimeError with the exit code: 2 bad input, 1 a run failed, 130 stopped by Ctrl-C.
void addSweepCommand(CLI::App& app, std::ostream& out, std::ostream& err);

} // namespace starscope::workloads::cli
