// The one `starscope` executable: the tracer's subcommands, and `record` and `sweep`
// (workloads) when this build has the recorder (cli/CMakeLists.txt says why they may not).

#include "cli/recorder_config.hpp"
#include "common/cli_conventions.hpp"
#include "common/standard_output.hpp"
#include "tracer/cli/commands.hpp"
#if STARSCOPE_HAVE_RECORDER
#include "workloads/cli/record_command.hpp"
#include "workloads/cli/sweep_command.hpp"
#else
#include "cli/absent_recorder.hpp"
#endif

#include <CLI/CLI.hpp>
#include <iostream>

namespace {

// "starscope stats": the command that ran, for the message of a failed standard output.
std::string commandName(const CLI::App& app) {
    const auto run = app.get_subcommands();
    return run.empty() ? "starscope" : "starscope " + run.front()->get_name();
}

} // namespace

int main(int argc, char** argv) {
    // Every command's output (a table, JSON, an export to -o -) must reach standard output
    // whole: one that could not be written is an error, never an exit status of 0.
    starscope::files::StandardOutput output;
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
    int code = 0;
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        code = starscope::cli::exitCode(app, e, std::cout, std::cerr);
    }
    if (const auto failed = output.close()) {
        std::cerr << commandName(app) << ": standard output: " << *failed << "\n";
        return code == 0 ? 1 : code;
    }
    return code;
}
