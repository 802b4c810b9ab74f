// `starscope stats` and `starscope barriers`, plus what every tracer command shares.

#include "tracer/cli/commands.hpp"

#include "tracer/analysis/barriers.hpp"
#include "tracer/cli/barriers_report.hpp"
#include "tracer/cli/detail.hpp"
#include "tracer/cli/stats_report.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/readers/read_trace.hpp"

#include <atomic>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace starscope::tracer::cli {

namespace detail {

int exitCodeFor(const TraceError& error) { return error.code == ErrorCode::InvalidArgument ? 2 : 1; }

void keepUntilExit(std::optional<Trace>&& trace) {
    // Never deleted but by the next call: the pointer keeps it reachable (leak checkers stay
    // quiet) and the process's end returns its memory at once.
    static std::atomic<Trace*> kept{nullptr};
    delete kept.exchange(trace ? new Trace(std::move(*trace)) : nullptr);
    trace.reset();
}

int reportError(const std::string& command, const TraceError& error, const Io& io) {
    *io.err << "starscope " << command << ": " << error.describe() << "\n";
    return exitCodeFor(error);
}

// STARSCOPE_READ_THREADS=N (1 to 64) sets how many threads the readers use (the benchmarks compare
// them: 1 reads a job's prof files one after another, N decodes up to N at once); unset or
// anything else, each reader chooses. Where verified native files are remembered
// (verifiedFilesFolder: STARSCOPE_VERIFIED_FILES, the user's cache). Read here, at the front,
// so that the readers read no environment.
ReadOptions readOptions() {
    ReadOptions options;
    const char* threads = std::getenv("STARSCOPE_READ_THREADS");
    const std::string_view chosen = threads != nullptr ? threads : "";
    unsigned count = 0;
    const auto [end, ec] = std::from_chars(chosen.data(), chosen.data() + chosen.size(), count);
    if (!chosen.empty() && ec == std::errc{} && end == chosen.data() + chosen.size() && count >= 1 && count <= 64) {
        options.threads = count;
    }
    options.verifiedFiles = verifiedFilesFolder();
    return options;
}

std::optional<Trace> load(const std::string& command, const std::filesystem::path& input, const Io& io) {
    return load(command, std::vector<std::string>{input.string()}, io);
}

std::optional<Trace> load(const std::string& command, const std::vector<std::string>& inputs, const Io& io) {
    auto trace = readTrace(std::vector<std::filesystem::path>(inputs.begin(), inputs.end()), readOptions());
    if (!trace) {
        reportError(command, trace.error(), io);
        return std::nullopt;
    }
    // One input: the warning names it; several: each warning names its file.
    const std::string where = inputs.size() == 1 ? inputs.front() + ": " : std::string();
    for (const auto& warning : trace->warnings) {
        *io.err << "starscope " << command << ": warning: " << where << warning << "\n";
    }
    return std::move(trace).value();
}

std::string joined(const std::vector<std::string>& inputs) {
    std::string out;
    for (const auto& input : inputs) {
        out += (out.empty() ? "" : " ") + input;
    }
    return out;
}

std::string percent(double fraction) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f %%", fraction * 100.0);
    return buffer;
}

nlohmann::json unavailableJson(const std::string& reason) { return {{"value", nullptr}, {"reason", reason}}; }


} // namespace detail

namespace {

using detail::Io;


struct StatsArgs {
    std::vector<std::string> inputs;
    bool json = false;
    double thresholdUs = detail::defaultThresholdUs();
    double fromMs = -1;
    double toMs = -1;
};

TimeNs toNs(double value, double scale) { return static_cast<TimeNs>(value * scale + (value >= 0 ? 0.5 : -0.5)); }
// Milliseconds given on the command line in the trace's ticks (time_unit.hpp).
TimeNs msToTicks(double ms, std::int64_t ticksPerSecond) { return toNs(ms, static_cast<double>(ticksPerSecond) / 1e3); }



int printStats(const StatsArgs& args, const std::optional<Trace>& trace, const Io& io) {
    const auto tps = ticksPerSecond(*trace);
    const TimeNs from = args.fromMs >= 0 ? msToTicks(args.fromMs, tps) : trace->begin;
    const TimeNs to = args.toMs >= 0 ? msToTicks(args.toMs, tps) : trace->end;
    if (to < from) {
        // Without --to-ms the range ends where the trace does: the start given is what is wrong.
        if (args.toMs < 0) {
            *io.err << "starscope stats: --from-ms " << args.fromMs
                    << " is after the end of the trace, at " << formatDuration(trace->end, tps) << "\n";
        } else {
            *io.err << "starscope stats: --to-ms is before --from-ms\n";
        }
        return 2;
    }
    const auto report = detail::makeStatsReport(*trace, detail::joined(args.inputs), toNs(args.thresholdUs, 1e3), from, to);
    if (args.json) {
        detail::printStatsJson(report, *io.out);
    } else {
        detail::printStatsText(report, *io.out);
    }
    return 0;
}

// A command that reads one big trace and exits: glibc's heap grows 64 MB at a time and keeps
// that much when blocks are freed, instead of being trimmed back to the system and grown again
// page by page as the reader's tables come and go (stats on a 390 MB trace, one reading thread:
// 292.3 -> 283.6 ms of CPU, medians of 7 alternating runs). The whole process is concerned, so
// only the command sets it.
void padHeapGrowth() {
#ifdef __GLIBC__
    mallopt(M_TOP_PAD, 64 << 20);
#endif
}

int runStats(const StatsArgs& args, const Io& io) {
    padHeapGrowth();
    auto trace = detail::load("stats", args.inputs, io);
    if (!trace) {
        return 1;
    }
    const int code = printStats(args, trace, io);
    detail::keepUntilExit(std::move(trace));
    return code;
}

struct BarriersArgs {
    std::vector<std::string> inputs;
    bool json = false;
    bool csv = false;
    double thresholdUs = detail::defaultThresholdUs();
};

int runBarriers(const BarriersArgs& args, const Io& io) {
    const auto trace = detail::load("barriers", args.inputs, io);
    if (!trace) {
        return 1;
    }
    const auto report = detail::makeBarriersReport(*trace, detail::joined(args.inputs), toNs(args.thresholdUs, 1e3));
    if (args.csv) {
        writeBarriersCsv(report.barriers, *io.out, report.ticksPerSecond);
    } else if (args.json) {
        detail::printBarriersJson(report, *io.out);
    } else {
        detail::printBarriersText(report, *io.out);
    }
    return 0;
}

} // namespace

void addCommands(CLI::App& app) { addCommands(app, std::cout, std::cerr); }

void addCommands(CLI::App& app, std::ostream& out, std::ostream& err) {
    const Io io{&out, &err};
    {
        auto args = std::make_shared<StatsArgs>();
        auto* sub = app.add_subcommand("stats", "Time per state class per worker, barriers, efficiencies of a trace");
        sub->add_option("input", args->inputs, detail::kInputHelp)->required();
        sub->add_flag("--json", args->json, "Print JSON for scripts");
        sub->add_option("--threshold-us", args->thresholdUs, "Shortest barrier, in microseconds")
            ->check(detail::thresholdUsRange());
        sub->add_option("--from-ms", args->fromMs, "Per-lane table from this time (ms from trace start)")
            ->check(detail::timeMsRange());
        sub->add_option("--to-ms", args->toMs, "Per-lane table up to this time (ms)")->check(detail::timeMsRange());
        detail::onRun(sub, [args, io] { return runStats(*args, io); });
    }
    {
        auto args = std::make_shared<BarriersArgs>();
        auto* sub = app.add_subcommand("barriers", "List the barriers (no worker executing) and their batch transitions");
        sub->add_option("input", args->inputs, detail::kInputHelp)->required();
        auto* json = sub->add_flag("--json", args->json, "Print JSON for scripts");
        // One output format: with both, one of them used to win silently.
        sub->add_flag("--csv", args->csv, "Print CSV")->excludes(json);
        sub->add_option("--threshold-us", args->thresholdUs, "Shortest barrier, in microseconds")
            ->check(detail::thresholdUsRange());
        detail::onRun(sub, [args, io] { return runBarriers(*args, io); });
    }
    detail::addExportCommands(app, io);
    detail::addCompareCommand(app, io);
}

} // namespace starscope::tracer::cli
