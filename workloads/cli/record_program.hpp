#pragma once
// `starscope record [--out DIR] [--force] [--buffer-mb N] [--ranks N] [--no-trace] -- PROGRAM
// [ARGS...]`: the part of the record subcommand that records a user's program instead of the
// built-in CNN (workloads/record/program_plan.hpp).

#include "workloads/record/program_plan.hpp"

#include <CLI/CLI.hpp>
#include <iosfwd>

namespace starscope::workloads::cli {

// Refuses the CNN's options, plans, runs the program and prints the summary. Throws
// CLI::RuntimeError with record's exit status when it is not 0: 2 for bad input (nothing
// created), the program's own status when it failed (128 + N for a signal), 1 when it wrote
// no trace or a damaged one after succeeding.
void recordProgram(const CLI::App& record, const ProgramOptions& options, std::ostream& out,
                   std::ostream& err);

} // namespace starscope::workloads::cli
