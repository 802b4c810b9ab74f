// The `starscope-recorder` executable: `record` and `sweep`, the commands that run StarPU (with
// Open MPI and PAPI). `starscope record ...` and `starscope sweep ...` replace the front end's
// process with this one, same arguments (cli/recorder_launcher.hpp); it is not meant to be run
// by hand, but run so it behaves as those two commands do.
//
// It exports _starpu_gettid (workloads/record/fxt_thread_id.cpp): the StarPU this process loads
// finds the cached thread id here, in the executable, before its own.

#include "cli/command_line.hpp"
#include "common/cli_conventions.hpp"
#include "common/standard_output.hpp"
#include "workloads/cli/record_command.hpp"
#include "workloads/cli/sweep_command.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

int main(int argc, char** argv) {
    starscope::files::StandardOutput output;
    CLI::App app{starscope::cli::kProgramDescription};
    starscope::cli::addVersionFlag(app, "starscope");
    app.require_subcommand(1);
    starscope::workloads::cli::addRecordCommand(app, std::cout, std::cerr);
    starscope::workloads::cli::addSweepCommand(app, std::cout, std::cerr);
    return starscope::cli::runCommandLine(app, argc, argv, output);
}
