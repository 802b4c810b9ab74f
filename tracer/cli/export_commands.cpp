// `starscope export` (Paje, Chrome JSON, CSV) and `starscope convert` (native format).

#include "tracer/cli/detail.hpp"
#include "tracer/exporters/exporters.hpp"

#include <fstream>
#include <memory>

namespace starscope::tracer::cli::detail {

namespace fs = std::filesystem;

namespace {

struct ExportArgs {
    std::vector<std::string> inputs;
    std::string format;
    std::string table = "spans";
    std::string output = "-";
    double thresholdUs = 100.0;
};

// Writes through a temporary file renamed into place, so a failed export leaves no half file.
template <typename Fn>
int writeOutput(const std::string& command, const std::string& output, const Io& io, Fn write) {
    if (output == "-") {
        write(*io.out);
        return 0;
    }
    const fs::path path(output);
    auto temp = path;
    temp += ".tmp";
    {
        std::ofstream file(temp, std::ios::binary | std::ios::trunc);
        if (!file) {
            *io.err << "starscope " << command << ": " << temp.string() << ": cannot create file\n";
            return 1;
        }
        write(file);
        file.flush();
        if (!file) {
            *io.err << "starscope " << command << ": " << temp.string() << ": write failed\n";
            return 1;
        }
    }
    std::error_code ec;
    fs::rename(temp, path, ec);
    if (ec) {
        *io.err << "starscope " << command << ": " << path.string() << ": cannot move the output into place: "
                << ec.message() << "\n";
        fs::remove(temp, ec);
        return 1;
    }
    return 0;
}

int runExport(const ExportArgs& args, const Io& io) {
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
    if (args.table == "barriers") {
        BarrierOptions options;
        options.threshold = static_cast<TimeNs>(args.thresholdUs * 1e3 + 0.5);
        const auto barriers = findBarriers(*trace, options);
        return writeOutput("export", args.output, io, [&](std::ostream& out) { writeBarriersCsv(barriers, out); });
    }
    return writeOutput("export", args.output, io, [&](std::ostream& out) { writeSpansCsv(*trace, out); });
}

struct ConvertArgs {
    std::vector<std::string> inputs;
    std::string output;
};

int runConvert(const ConvertArgs& args, const Io& io) {
    const auto trace = load("convert", args.inputs, io);
    if (!trace) {
        return 1;
    }
    fs::path output = args.output;
    if (output.empty()) {
        // A run folder keeps its cached conversion inside (DESIGN.md: run directory).
        std::error_code ec;
        const auto& first = args.inputs.front();
        output = fs::is_directory(first, ec) ? fs::path(first) / "trace.sstrace" : fs::path(first + ".sstrace");
    }
    const auto written = writeNativeFile(*trace, output);
    if (!written) {
        return reportError("convert", written.error(), io);
    }
    *io.out << "wrote " << output.string() << " (" << trace->spanCount() << " spans, " << trace->tasks.size()
            << " tasks)\n";
    return 0;
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
        sub->add_option("--table", args->table, "CSV table: spans, tasks or barriers")
            ->check(CLI::IsMember({"spans", "tasks", "barriers"}));
        sub->add_option("-o,--output", args->output, "Output file ('-': standard output)");
        sub->add_option("--threshold-us", args->thresholdUs, "Shortest barrier (barriers table), microseconds")
            ->check(CLI::NonNegativeNumber);
        onRun(sub, [args, io] { return runExport(*args, io); });
    }
    {
        auto args = std::make_shared<ConvertArgs>();
        auto* sub = app.add_subcommand("convert", "Convert a trace to starscope's native format for fast reopening");
        sub->add_option("input", args->inputs, kInputHelp)->required();
        sub->add_option("-o,--output", args->output,
                        "Output file (default: RUN/trace.sstrace for a run folder, INPUT.sstrace otherwise)");
        onRun(sub, [args, io] { return runConvert(*args, io); });
    }
}

} // namespace starscope::tracer::cli::detail
