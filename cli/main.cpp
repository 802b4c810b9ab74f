// The one `starscope` executable: the tracer's subcommands, and `record` and `sweep`
// (workloads) when this build has the recorder (cli/CMakeLists.txt says why they may not).

#include "cli/recorder_config.hpp"
#include "common/cli_conventions.hpp"
#include "tracer/cli/commands.hpp"
#if STARSCOPE_HAVE_RECORDER
#include "workloads/cli/record_command.hpp"
#include "workloads/cli/sweep_command.hpp"
#else
#include "cli/absent_recorder.hpp"
#endif

#include <CLI/CLI.hpp>
#include <iostream>

int main(int argc, char** argv) {
    CLI::App app{"starscope: record StarPU training runs and find where workers wait"};
    // --version alone needs no subcommand: require_subcommand counts only after it.
    starscope::cli::addVersionFlag(app, "starscope");
    app.require_subcommand(1);
#if STARSCOPE_HAVE_RECORDER
    starscope::workloads::cli::addRecordCommand(app, std::cout, std::cerr);
    starscope::workloads::cli::addSweepCommand(app, std::cout, std::cerr);
#else
    starscope::cli::addAbsentRecorderCommands(app, std::cerr);
#endif
    starscope::tracer::cli::addCommands(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return starscope::cli::exitCode(app, e, std::cout, std::cerr);
    }
    return 0;
}
