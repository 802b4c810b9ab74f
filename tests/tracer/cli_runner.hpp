#pragma once
// The tracer's `starscope` subcommands run in-process on an argument vector, answering with the
// exit code, standard output and standard error a user of the executable gets.

#include "common/cli_conventions.hpp"
#include "tracer/cli/commands.hpp"

#include <CLI/CLI.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace starscope::tracer::testing {

struct CliRun {
    int code = 0;
    std::string out;
    std::string err;
};

// args without the program name: {"stats", "RUN", "--json"}.
inline CliRun runCli(std::vector<std::string> args) {
    CLI::App app{"starscope"};
    app.require_subcommand(1);
    std::ostringstream out;
    std::ostringstream err;
    cli::addCommands(app, out, err);
    args.insert(args.begin(), "starscope");
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    CliRun result;
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::ParseError& e) {
        // As main() answers, so that exit codes here are those a user sees.
        result.code = starscope::cli::exitCode(app, e, out, err);
    }
    result.out = out.str();
    result.err = err.str();
    return result;
}

} // namespace starscope::tracer::testing
