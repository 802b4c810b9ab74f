#include "cli/command_line.hpp"

#include "common/cli_conventions.hpp"
#include "common/standard_output.hpp"

#include <iostream>
#include <string>

namespace starscope::cli {

namespace {

// "starscope stats": the command that ran, for the message of a failed standard output.
std::string commandName(const CLI::App& app) {
    const auto run = app.get_subcommands();
    return run.empty() ? "starscope" : "starscope " + run.front()->get_name();
}

} // namespace

int runCommandLine(CLI::App& app, int argc, char** argv, files::StandardOutput& output) {
    int code = 0;
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        code = exitCode(app, e, std::cout, std::cerr);
    }
    if (const auto failed = output.close()) {
        std::cerr << commandName(app) << ": standard output: " << *failed << "\n";
        return code == 0 ? 1 : code;
    }
    return code;
}

} // namespace starscope::cli
