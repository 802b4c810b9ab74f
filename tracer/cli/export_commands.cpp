// `starscope export` (Paje, Chrome JSON, CSV) and `starscope convert` (native format).

#include "common/file_writer.hpp"
#include "tracer/cli/detail.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <memory>

namespace starscope::tracer::cli::detail {

namespace fs = std::filesystem;

namespace {

struct ExportArgs {
    std::vector<std::string> inputs;
    std::string format;
    std::string table = "spans";
    std::string output = "-";
    double thresholdUs = defaultThresholdUs();
};

// Through the project's one writer: a regular file is replaced whole or not at all, a FIFO or
// device is written through, a symlink is followed.
template <typename Fn>
int writeOutput(const std::string& command, const std::string& output, const Io& io, Fn write) {
    if (output == "-") {
        write(*io.out);
        return 0;
    }
    if (auto written = files::writeFile(output, write); !written) {
        *io.err << "starscope " << command << ": " << written.error().describe() << "\n";
        return 1;
    }
    return 0;
}

// The files an input is made of: the file itself, or a run folder's prof files and run.json
// (not its native cache, which is derived from them and which convert rewrites).
std::vector<fs::path> recordedFiles(const std::vector<std::string>& inputs) {
    std::vector<fs::path> files;
    for (const auto& input : inputs) {
        std::error_code ec;
        if (!fs::is_directory(input, ec)) {
            files.emplace_back(input);
            continue;
        }
        const run::RunFolder folder(input);
        const auto profFiles = folder.profFiles();
        files.insert(files.end(), profFiles.begin(), profFiles.end());
        files.push_back(folder.runJson());
    }
    return files;
}

// An output that is one of the input's files (by identity: another name, a link) would replace
// the recording with what was made from it. Says so and returns true.
bool overwritesInput(const std::string& command, const std::vector<std::string>& inputs,
                     const fs::path& output, const Io& io) {
    if (output == "-") {
        return false;
    }
    for (const auto& file : recordedFiles(inputs)) {
        std::error_code ec;
        if (fs::equivalent(output, file, ec) && !ec) {
            *io.err << "starscope " << command << ": -o " << output.string()
                    << " is the input file " << file.string()
                    << ": writing it would replace the recording; choose another output\n";
            return true;
        }
    }
    return false;
}

int runExport(const ExportArgs& args, const Io& io) {
    if (overwritesInput("export", args.inputs, args.output, io)) {
        return starscope::cli::kUsageError;
    }
    const auto trace = load("export", args.inputs, io);
    if (!trace) {
        return 1;
    }
    if (args.format == "paje") {
        return writeOutput("export", args.output, io, [&](std::ostream& out) { writePaje(*trace, out); });
    }
    if (args.format == "chrome") {
        return writeOutput("export", args.output, io, [&](std::ostream& out) { writeChromeJson(*trace, out); });
    }
    if (args.table == "tasks") {
        return writeOutput("export", args.output, io, [&](std::ostream& out) { writeTasksCsv(*trace, out); });
    }
    if (args.table == "codelets") {
        const auto codelets = computeCodeletStats(*trace);
        return writeOutput("export", args.output, io,
                           [&](std::ostream& out) { writeCodeletsCsv(codelets, out, ticksPerSecond(*trace)); });
    }
    if (args.table == "barriers") {
        BarrierOptions options;
        options.threshold = static_cast<TimeNs>(args.thresholdUs * 1e3 + 0.5);
        const auto barriers = findJobAndRankBarriers(*trace, options);
        return writeOutput("export", args.output, io, [&](std::ostream& out) { writeBarriersCsv(barriers, out, ticksPerSecond(*trace)); });
    }
    return writeOutput("export", args.output, io, [&](std::ostream& out) { writeSpansCsv(*trace, out); });
}

struct ConvertArgs {
    std::vector<std::string> inputs;
    std::string output;
};

int runConvert(const ConvertArgs& args, const Io& io) {
    fs::path output = args.output;
    if (output.empty()) {
        // A run folder keeps its cached conversion inside (DESIGN.md: run directory).
        std::error_code ec;
        const auto& first = args.inputs.front();
        output = fs::is_directory(first, ec) ? run::RunFolder(first).nativeCache()
                                             : fs::path(first + ".sstrace");
    }
    if (overwritesInput("convert", args.inputs, output, io)) {
        return starscope::cli::kUsageError;
    }
    const auto trace = load("convert", args.inputs, io);
    if (!trace) {
        return 1;
    }
    const int code =
        writeOutput("convert", output.string(), io, [&](std::ostream& out) { writeNative(*trace, out); });
    // On standard output the native bytes are all there is.
    if (code == 0 && output != "-") {
        *io.out << "wrote " << output.string() << " (" << trace->spanCount() << " spans, " << trace->tasks.size()
                << " tasks)\n";
    }
    return code;
}

} // namespace

void addExportCommands(CLI::App& app, const Io& io) {
    {
        auto args = std::make_shared<ExportArgs>();
        auto* sub = app.add_subcommand("export", "Write a trace as Paje, Chrome trace JSON (Perfetto) or CSV");
        sub->add_option("input", args->inputs, kInputHelp)->required();
        sub->add_option("--format", args->format, "paje, chrome or csv")
            ->required()
            ->check(CLI::IsMember({"paje", "chrome", "csv"}));
        auto* table = sub->add_option("--table", args->table, "CSV table: spans, tasks, codelets or barriers (--format csv)")
                          ->check(CLI::IsMember({"spans", "tasks", "codelets", "barriers"}));
        sub->add_option("-o,--output", args->output, "Output file ('-': standard output)");
        auto* threshold =
            sub->add_option("--threshold-us", args->thresholdUs, "Shortest barrier (--table barriers), microseconds")
                ->check(thresholdUsRange());
        onRun(sub, [args, io, table, threshold] {
            // An option the chosen output ignores is a mistake to point out, not to drop.
            if (table->count() > 0 && args->format != "csv") {
                *io.err << "starscope export: --table applies to --format csv only, not " << args->format << "\n";
                return starscope::cli::kUsageError;
            }
            if (threshold->count() > 0 && (args->format != "csv" || args->table != "barriers")) {
                *io.err << "starscope export: --threshold-us applies to --format csv --table barriers only\n";
                return starscope::cli::kUsageError;
            }
            return runExport(*args, io);
        });
    }
    {
        auto args = std::make_shared<ConvertArgs>();
        auto* sub = app.add_subcommand("convert", "Convert a trace to starscope's native format for fast reopening");
        sub->add_option("input", args->inputs, kInputHelp)->required();
        sub->add_option("-o,--output", args->output,
                        std::string("Output file ('-': standard output; default: RUN/") + run::kNativeCacheName
                            + " for a run folder, INPUT.sstrace otherwise)");
        onRun(sub, [args, io] { return runConvert(*args, io); });
    }
}

} // namespace starscope::tracer::cli::detail
