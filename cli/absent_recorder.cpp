#include "cli/absent_recorder.hpp"

#include "cli/command_line.hpp"
#include "cli/recorder_config.hpp"
#include "common/cli_conventions.hpp"

#include <ostream>

namespace starscope::cli {

void addAbsentRecorderCommands(CLI::App& app, std::ostream& err) {
    for (const char* name : {"record", "sweep"}) {
        addForeignSubcommand(
            app, name, "Not in this build: it has no recorder (StarPU with FxT, PAPI)",
            [name, &err] {
                // Whatever follows (--help included) gets the same answer: the command cannot run
                // here.
                err << "starscope " << name
                    << ": this build of starscope has no recorder: " << kRecorderAbsentReason
                    << ". Its analyser (stats, barriers, export, convert, compare) reads runs "
                       "recorded "
                       "elsewhere; "
                       "recording needs a build with StarPU (built with FxT) and PAPI.\n";
                return kUsageError;
            });
    }
}

} // namespace starscope::cli
