#include "cli/absent_recorder.hpp"

#include "cli/recorder_config.hpp"
#include "common/cli_conventions.hpp"

#include <ostream>

namespace starscope::cli {

void addAbsentRecorderCommands(CLI::App& app, std::ostream& err) {
    for (const char* name : {"record", "sweep"}) {
        auto* command = app.add_subcommand(
            name, "Not in this build: it has no recorder (StarPU with FxT, PAPI)");
        // Whatever follows (--help included) gets the same answer: the command cannot run here.
        command->set_help_flag();
        command->allow_extras();
        command->prefix_command();
        command->callback([name, &err] {
            err << "starscope " << name
                << ": this build of starscope has no recorder: " << kRecorderAbsentReason
                << ". Its analyser (stats, barriers, export, convert, compare) reads runs recorded "
                   "elsewhere; "
                   "recording needs a build with StarPU (built with FxT) and PAPI.\n";
            throw CLI::RuntimeError(kUsageError);
        });
    }
}

} // namespace starscope::cli
