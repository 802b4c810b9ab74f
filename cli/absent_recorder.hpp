#pragma once
// `record` and `sweep` in a build without the recorder: a laptop reading traces recorded on a
// cluster has no StarPU. A user who types them there is told that this build cannot record and
// why (exit 2), rather than CLI11's "unknown subcommand", which reads like a typo.

#include <CLI/CLI.hpp>
#include <iosfwd>

namespace starscope::cli {

// Registers `record` and `sweep`, which accept any arguments and fail, printing to err.
void addAbsentRecorderCommands(CLI::App& app, std::ostream& err);

} // namespace starscope::cli
