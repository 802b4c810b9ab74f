// The one `starscope` executable: `record` and `sweep` (workloads) and the tracer's subcommands.

#include "tracer/cli/commands.hpp"
#include "workloads/cli/record_command.hpp"
#include "workloads/cli/sweep_command.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

int main(int argc, char** argv) {
    CLI::App app{"starscope: record StarPU training runs and find where workers wait"};
    app.require_subcommand(1);
    starscope::workloads::cli::addRecordCommand(app, std::cout, std::cerr);
    starscope::workloads::cli::addSweepCommand(app, std::cout, std::cerr);
    starscope::tracer::cli::addCommands(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    return 0;
}
