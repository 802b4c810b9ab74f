// The one `starscope` executable: `record` and `sweep` (workloads) and the tracer's subcommands.

#include "common/cli_conventions.hpp"
#include "tracer/cli/commands.hpp"
#include "workloads/cli/record_command.hpp"
#include "workloads/cli/sweep_command.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

int main(int argc, char** argv) {
    CLI::App app{"starscope: record StarPU training runs and find where workers wait"};
    // --version alone needs no subcommand: require_subcommand counts only after it.
    starscope::cli::addVersionFlag(app, "starscope");
    app.require_subcommand(1);
    starscope::workloads::cli::addRecordCommand(app, std::cout, std::cerr);
    starscope::workloads::cli::addSweepCommand(app, std::cout, std::cerr);
    starscope::tracer::cli::addCommands(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return starscope::cli::exitCode(app, e, std::cout, std::cerr);
    }
    return 0;
}
