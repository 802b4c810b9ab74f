#pragma once
// `starscope record`: the CLI11 subcommand around planRecord / executeRecord.

#include <CLI/CLI.hpp>
#include <iosfwd>

namespace starscope::workloads::cli {

// What `starscope --help` says of record: the front end that forwards record to the recorder
// executable (cli/) lists it with the same words without linking this module.
inline constexpr const char* kRecordDescription =
    "Train the CNN on MNIST as StarPU tasks with an arena/loader strategy and "
    "record the run (FxT trace + run.json) into a folder; or, after --, record your own "
    "StarPU program: starscope record --out RUN -- PROGRAM [ARGS...]";

// Registers `record` on app. Messages go to err (progress bar only when err is a terminal),
// the summary to out. A failure throws CLI::RuntimeError with the exit code, so main's
// app.exit(e) returns it.
void addRecordCommand(CLI::App& app, std::ostream& out, std::ostream& err);

} // namespace starscope::workloads::cli
