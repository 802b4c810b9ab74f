// The `starscope` executable: the tracer's subcommands, and `record` and `sweep` when this build
// has the recorder, which run in the recorder executable (cli/recorder_launcher.hpp says why)
// or, without it, say why they are missing (cli/absent_recorder.hpp).

#include "cli/command_line.hpp"
#include "cli/recorder_config.hpp"
#include "common/cli_conventions.hpp"
#include "common/pending_temporaries.hpp"
#include "common/standard_output.hpp"
#include "tracer/cli/commands.hpp"
#if STARSCOPE_HAVE_RECORDER
#include "cli/recorder_launcher.hpp"
#else
#include "cli/absent_recorder.hpp"
#endif

#include <CLI/CLI.hpp>
#include <iostream>

int main(int argc, char** argv) {
    // Every command's output (a table, JSON, an export to -o -) must reach standard output
    // whole: one that could not be written is an error, never an exit status of 0.
    starscope::files::StandardOutput output;
    starscope::files::removeTemporariesOnStop();
    CLI::App app{starscope::cli::kProgramDescription};
    // --version alone needs no subcommand: require_subcommand counts only after it.
    starscope::cli::addVersionFlag(app, "starscope");
    app.require_subcommand(1);
#if STARSCOPE_HAVE_RECORDER
    starscope::cli::addRecorderCommands(app, argv, std::cerr);
#else
    starscope::cli::addAbsentRecorderCommands(app, std::cerr);
#endif
    starscope::tracer::cli::addCommands(app);
    return starscope::cli::runCommandLine(app, argc, argv, output);
}
