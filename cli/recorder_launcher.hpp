#pragma once
// `record` and `sweep` in the `starscope` front end, which run in another executable,
// starscope-recorder: they alone need StarPU, Open MPI and PAPI, whose loading and
// initialisation cost every analysis command 13 ms of start-up when one executable had all the
// commands (issue 29). The front end links the analyser only; these two commands replace its
// process (execv, same pid, same arguments, same standard streams) with the recorder, which
// parses the command line again and runs the command. The recorder is found relative to the
// running executable (kRecorderFromFrontEnd): the build tree and an installation have the same
// layout.

#include <CLI/CLI.hpp>
#include <iosfwd>

namespace starscope::cli {

// Registers `record` and `sweep`, which take any arguments (--help included: the recorder
// answers it) and exec the recorder with argv. A recorder that cannot be run is reported to
// err, exit status 1.
void addRecorderCommands(CLI::App& app, char** argv, std::ostream& err);

} // namespace starscope::cli
