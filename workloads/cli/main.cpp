// The one `starscope` executable: `record` (workloads) and the tracer's subcommands.

#include "workloads/cli/record_command.hpp"

#ifdef STARSCOPE_HAVE_TRACER_CLI
#include "tracer/cli/commands.hpp"
#endif

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv) {
    CLI::App app{"starscope: record StarPU training runs and find where workers wait"};
    app.require_subcommand(1);
    starscope::workloads::cli::addRecordCommand(app, std::cout, std::cerr);
#ifdef STARSCOPE_HAVE_TRACER_CLI
    starscope::tracer::cli::addCommands(app);
#endif
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    return 0;
}
