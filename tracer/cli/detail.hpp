#pragma once
// Internals shared by the tracer's command implementations.

#include "tracer/analysis/machine.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/model/error.hpp"
#include "tracer/model/trace.hpp"

#include "common/cli_conventions.hpp"
#include "tracer/report/duration_format.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <ostream>
#include <string>

namespace starscope::tracer::cli::detail {

struct Io {
    std::ostream* out;
    std::ostream* err;
};

// Reads the input of a command; on failure prints "starscope <command>: <error>" and returns
// nullopt. Reader warnings go to err.
std::optional<Trace> load(const std::string& command, const std::filesystem::path& input, const Io& io);
// Several inputs are several prof files of one run (one per process), merged.
std::optional<Trace> load(const std::string& command, const std::vector<std::string>& inputs, const Io& io);
std::string joined(const std::vector<std::string>& inputs);
inline constexpr const char* kInputHelp =
    "Run folder, prof_file_* (several: one per process, merged), paje.trace or native trace";
int reportError(const std::string& command, const TraceError& error, const Io& io);
// Exit code for an error: 2 for bad arguments, 1 otherwise.
int exitCodeFor(const TraceError& error);
// A command that read a big trace and is done with it: destroying the model (every table and
// string freed) was 1.9 % of `stats` on a 40 MB trace, right before the process ends and returns
// all of it at once. The trace is kept until exit instead; a later call's replaces it, so a
// process running many commands (the tests) holds one at most.
void keepUntilExit(std::optional<Trace>&& trace);

// A machine with GPUs (machine_output.cpp): its figures as JSON and as text, and the area bound
// line of `stats` (the homogeneous bound alone for a CPU-only trace).
nlohmann::json machineJson(const Trace& trace, const MachineFigures& machine);
void printMachine(const Trace& trace, const MachineFigures& machine, std::ostream& out);
std::string areaBoundText(const TraceSummary& summary, const MachineFigures& machine, std::int64_t ticksPerSecond);

// The one JSON shape of every figure that may be n/a: {"value": v}, or {"value": null,
// "reason": why} when the input cannot support it.
nlohmann::json unavailableJson(const std::string& reason);
template <typename T>
nlohmann::json figureJson(const Figure<T>& figure) {
    return figure.value ? nlohmann::json{{"value", *figure.value}} : unavailableJson(figure.reason);
}
// The figure formatted, or "n/a (why)".
template <typename T, typename Format>
std::string figureText(const Figure<T>& figure, Format format) {
    return figure.value ? format(*figure.value) : "n/a (" + figure.reason + ")";
}
std::string percent(double fraction);

// --threshold-us's default: the analysis's (BarrierOptions), in the flag's microseconds.
inline double defaultThresholdUs() { return static_cast<double>(BarrierOptions{}.threshold) / 1e3; }

// Ranges of the tracer's numeric options: anything larger would overflow the nanosecond clock
// (int64 ns: 9.2e18) once converted, and no trace is days long.
inline CLI::Validator thresholdUsRange() { return starscope::cli::numberIn(0.0, 1e12); }
inline CLI::Validator timeMsRange() { return starscope::cli::numberIn(0.0, 1e9); }

// Registers a subcommand whose action returns an exit code (non-zero throws
// CLI::RuntimeError so that main's app.exit() returns it).
template <typename Fn>
void onRun(CLI::App* sub, Fn fn) {
    sub->callback([fn]() {
        const int code = fn();
        if (code != 0) {
            throw CLI::RuntimeError(code);
        }
    });
}

void addExportCommands(CLI::App& app, const Io& io);
void addCompareCommand(CLI::App& app, const Io& io);

} // namespace starscope::tracer::cli::detail
