#pragma once
// What both starscope executables do with their command line once their commands are
// registered: the `starscope` front end (the analyser's commands, record and sweep forwarded)
// and `starscope-recorder` (record and sweep themselves, cli/recorder_main.cpp). One place, so
// that a command prints, exits and reports a failed standard output alike in either process.

#include <CLI/CLI.hpp>
#include <functional>

namespace starscope::files {
class StandardOutput;
}

namespace starscope::cli {

// What `starscope --help` says of the program as a whole.
inline constexpr const char* kProgramDescription =
    "starscope: record StarPU training runs and find where workers wait";

// Parses argv and runs the chosen command, then closes standard output: the process's exit
// status (a command's own code, kUsageError for a mistake on the command line, 1 when standard
// output could not be written).
int runCommandLine(CLI::App& app, int argc, char** argv, files::StandardOutput& output);

// Adds a subcommand whose arguments are not this parser's (record and sweep are the recorder's
// to parse, --help and `--` included): run() is called as soon as the subcommand is named, before
// CLI11 looks at what follows, and either never returns (it replaced the process) or returns the
// exit status. Left to CLI11, `record --force -- PROG` was refused: a subcommand without a
// positional of its own hands `--` back to its parent, which expects no arguments.
CLI::App* addForeignSubcommand(CLI::App& app, const std::string& name,
                               const std::string& description, std::function<int()> run);

} // namespace starscope::cli
