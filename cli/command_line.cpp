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

CLI::App* addForeignSubcommand(CLI::App& app, const std::string& name,
                               const std::string& description, std::function<int()> run) {
    auto* command = app.add_subcommand(name, description);
    // The arguments, --help included, reach run()'s parser untouched.
    command->set_help_flag();
    command->preparse_callback(
        [run = std::move(run)](std::size_t) { throw CLI::RuntimeError(run()); });
    return command;
}

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
