// starscope-viewer: the desktop viewer, or with --render a headless picture of a trace drawn
// by the same code (no display needed).

#include "common/pending_temporaries.hpp"
#include "common/version.hpp"
#include "viewer/core/format/command_line.hpp"
#include "viewer/core/comparison/comparison.hpp"
#include "viewer/core/document/trace_document.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/comparison/comparison_view.hpp"
#include "viewer/gui/comparison/comparison_window.hpp"
#include "viewer/gui/export/render.hpp"
#include "viewer/gui/window/main_window.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QFontMetrics>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <system_error>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace {

using namespace starscope::viewer;

int usageError(const std::string& message) {
    std::fprintf(stderr, "starscope-viewer: %s\nTry 'starscope-viewer --help'.\n", message.c_str());
    return 2;
}

// --render draws without a window; --help and --version only print. None needs a display.
bool needsNoDisplay(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        for (const char* flag : {"--render", "--help", "-h", "--help-all", "--version", "-v"}) {
            const std::size_t n = std::strlen(flag);
            if (std::strncmp(argv[i], flag, n) == 0 && (argv[i][n] == '\0' || argv[i][n] == '=')) {
                return true;
            }
        }
    }
    return false;
}

// --render reads one trace, draws it and exits: glibc's heap grows 64 MB at a time and serves
// blocks up to 32 MB itself, so the reader's tables, which grow, are freed and come again, reuse
// memory already mapped instead of each being a fresh mapping faulted in page by page and
// unmapped. The 1-epoch CNN trace: 11,212 -> 7,490 page faults, 113.0/118.7 -> 103.6/102.3 ms
// of CPU; the 5-epoch one: 34,028 -> 28,398 page faults, its CPU time within the runs' spread
// (perf stat -r 5, two alternating rounds each). The whole process is concerned, so only this
// mode sets it. The trace is read on a thread of its own (startEarlyLoad), which glibc would give
// an arena of its own, made of 64 MB mappings without that padding: one arena for all keeps the
// reading in the padded heap (the 1-epoch trace: 9,009 -> 6,200 page faults).
void growHeapInLargeSteps() {
#ifdef __GLIBC__
    mallopt(M_TOP_PAD, 64 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_ARENA_MAX, 1);
#endif
}

// --threshold's default: the analysis's (BarrierOptions), as the flag takes it (parseTime).
QString defaultThreshold() {
    const starscope::tracer::TimeNs ns = starscope::tracer::BarrierOptions{}.threshold;
    return ns % 1000 == 0 ? QString::number(ns / 1000) + QStringLiteral("us") : QString::number(ns) + QStringLiteral("ns");
}

// The options and arguments starscope-viewer takes.
void describeArguments(QCommandLineParser& parser) {
    parser.setApplicationDescription(QStringLiteral(
        "Gantt viewer for StarPU traces with barrier highlighting.\n"
        "TRACE: a run folder, a prof_file_* written by StarPU with FxT, a paje.trace or a native trace.\n"
        "Several prof files are one StarPU-MPI job (one file per rank): they open merged, as one trace."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("TRACE"), QStringLiteral("Trace to open; several prof files: one job's ranks, merged."),
                                 QStringLiteral("[TRACE...]"));
    parser.addOption({QStringLiteral("render"), QStringLiteral("Write a picture of TRACE to OUT (.png, .jpg, .pdf, .svg) and exit."),
                      QStringLiteral("OUT")});
    parser.addOption({QStringLiteral("range"),
                      QStringLiteral("Time window of the picture, e.g. 0:2.5ms (default: whole trace); with --compare, "
                                     "time from the aligned axis's zero (not with --align normalized)."),
                      QStringLiteral("START:END")});
    parser.addOption({QStringLiteral("size"),
                      QStringLiteral("Picture size in pixels, exactly (default 1600x900; 1600x1400 with --compare)."),
                      QStringLiteral("WxH")});
    const QString threshold = defaultThreshold();
    parser.addOption({QStringLiteral("threshold"), QStringLiteral("Shortest barrier, e.g. %1 (default).").arg(threshold),
                      QStringLiteral("TIME"), threshold});
    parser.addOption({QStringLiteral("no-messages"),
                      QStringLiteral("Leave out the arrows of StarPU-MPI messages between ranks (View > Show messages).")});
    parser.addOption({QStringLiteral("no-transfers"),
                      QStringLiteral("Leave out the arrows of data transfers between memory nodes (View > Show data transfers).")});
    parser.addOption({QStringLiteral("critical-path"),
                      QStringLiteral("Draw the critical path, the longest chain of dependent tasks (View > Show critical path).")});
    parser.addOption({QStringLiteral("fold"),
                      QStringLiteral("With --render: lane groups drawn as their header row alone: all, or a list of "
                                     "cpu, cuda, other, memory, rank N (View > Lane groups)."),
                      QStringLiteral("GROUPS")});
    parser.addOption({QStringLiteral("compare"),
                      QStringLiteral("Open the runs side by side: aligned Gantt panels, statistics and metric charts.")});
    parser.addOption({QStringLiteral("allow-mixed"),
                      QStringLiteral("With --compare: show runs of different workloads (batches, epochs, ...) side by side, "
                                     "as starscope compare --allow-mixed.")});
    parser.addOption({QStringLiteral("align"),
                      QStringLiteral("With --compare: start (the program's first task), marker:K (batch_begin marker K, counted "
                                     "from 0 as the batch numbers: marker:3 is e0 b3 in a first epoch) or normalized "
                                     "(share of makespan)."),
                      QStringLiteral("MODE"), QStringLiteral("start")});
}

// The positional arguments: one trace, or the prof files of one job.
std::vector<std::filesystem::path> inputPaths(const QCommandLineParser& parser) {
    std::vector<std::filesystem::path> paths;
    for (const QString& input : parser.positionalArguments()) {
        paths.emplace_back(input.toStdString());
    }
    return paths;
}

// A trace ready to draw, with its barriers at the chosen threshold.
struct LoadedTrace {
    std::shared_ptr<const TraceDocument> document;
    JobAndRankBarriers barriers;
};

starscope::tracer::TraceResult<LoadedTrace> loadWithBarriers(const std::vector<std::filesystem::path>& paths,
                                                             starscope::tracer::TimeNs threshold) {
    auto document = loadDocument(paths, viewerReadOptions());
    if (!document) {
        return fail(document.error());
    }
    return LoadedTrace{*document, computeJobAndRankBarriers(**document, threshold)};
}

// A headless render's trace, read and its barriers found on another thread while this one
// starts Qt (platform plugin, fonts) and builds the plot: a render is mostly these two, one
// waiting on the other, and a second core does the reading.
struct EarlyLoad {
    std::vector<std::filesystem::path> paths;
    starscope::tracer::TimeNs threshold = 0;
    std::future<starscope::tracer::TraceResult<LoadedTrace>> loaded;
};

// Before QApplication exists, argv as given: when it asks for a picture of a trace, that
// trace starts loading now. Anything else (or anything Qt's own options would change) is left
// to the normal path after QApplication, which reads the arguments again.
std::optional<EarlyLoad> startEarlyLoad(int argc, char** argv) {
    QStringList arguments;
    for (int i = 0; i < argc; ++i) {
        arguments.push_back(QString::fromLocal8Bit(argv[i]));
    }
    QCommandLineParser parser;
    describeArguments(parser);
    // --help and --version end the program with exit(), which must not find a reader running.
    if (!parser.parse(arguments) || !parser.isSet(QStringLiteral("render")) || parser.isSet(QStringLiteral("compare"))
        || parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))
        || parser.isSet(QStringLiteral("version")) || parser.isSet(QStringLiteral("align"))
        || parser.positionalArguments().isEmpty()) {
        return std::nullopt;
    }
    // A usage mistake is reported without reading the trace first.
    auto threshold = parseTime(parser.value(QStringLiteral("threshold")).toStdString(), "--threshold");
    if (!threshold || (parser.isSet(QStringLiteral("size")) && !parseSize(parser.value(QStringLiteral("size")).toStdString(), "--size"))
        || (parser.isSet(QStringLiteral("range")) && !parseRange(parser.value(QStringLiteral("range")).toStdString(), "--range"))) {
        return std::nullopt;
    }
    EarlyLoad early;
    early.paths = inputPaths(parser);
    early.threshold = static_cast<starscope::tracer::TimeNs>(*threshold);
    growHeapInLargeSteps();
    try {
        early.loaded = std::async(std::launch::async, loadWithBarriers, early.paths, early.threshold);
    } catch (const std::system_error&) {
        return std::nullopt;   // no thread to be had: render() reads the trace itself
    }
    return early;
}

int render(const QCommandLineParser& parser, starscope::tracer::TimeNs threshold, std::optional<EarlyLoad>& early) {
    if (parser.positionalArguments().isEmpty()) {
        return usageError("--render needs a trace");
    }
    growHeapInLargeSteps();
    RenderRequest request;
    if (parser.isSet(QStringLiteral("size"))) {
        auto size = parseSize(parser.value(QStringLiteral("size")).toStdString(), "--size");
        if (!size) {
            return usageError(size.error().message);
        }
        request.size = *size;
    }
    if (parser.isSet(QStringLiteral("range"))) {
        auto range = parseRange(parser.value(QStringLiteral("range")).toStdString(), "--range");
        if (!range) {
            return usageError(range.error().message);
        }
        request.range = *range;
    }
    request.messages = !parser.isSet(QStringLiteral("no-messages"));
    request.transfers = !parser.isSet(QStringLiteral("no-transfers"));
    request.criticalPath = parser.isSet(QStringLiteral("critical-path"));
    if (parser.isSet(QStringLiteral("fold"))) {
        auto fold = parseFold(parser.value(QStringLiteral("fold")).toStdString(), "--fold");
        if (!fold) {
            return usageError(fold.error().message);
        }
        request.fold = *fold;
    }
    // Made while the trace is read, and its fonts found and opened: fontconfig reads its
    // configuration and Qt opens a font file on a font's first use, which came after the trace.
    GanttPlot plot;
    QFont bold = plot.xAxis->labelFont();
    bold.setBold(true);
    for (const QFont& font : {plot.xAxis->tickLabelFont(), plot.xAxis->labelFont(), plot.yAxis->tickLabelFont(), bold}) {
        QFontMetrics(font).horizontalAdvance(QStringLiteral("0123456789 msu"));
    }
    const auto paths = inputPaths(parser);
    auto loaded = early && early->paths == paths && early->threshold == threshold ? early->loaded.get()
                                                                                  : loadWithBarriers(paths, threshold);
    if (!loaded) {
        std::fprintf(stderr, "starscope-viewer: %s\n", loaded.error().describe().c_str());
        return 1;
    }
    auto barriers = std::make_shared<const Barriers>(std::move(loaded->barriers.job));
    request.rankBarriers = std::make_shared<const Barriers>(std::move(loaded->barriers.ranks));
    const QString output = parser.value(QStringLiteral("render"));
    if (auto written = renderToFile(plot, loaded->document, barriers, request, output); !written) {
        std::fprintf(stderr, "starscope-viewer: %s\n", written.error().message.c_str());
        // A --range outside the trace is a bad flag value, as the usage errors are.
        return written.error().code == ViewerErrorCode::InvalidArgument ? 2 : 1;
    }
    return 0;
}

// --compare: one window (or with --render one picture) of all the runs, aligned.
int compare(const QCommandLineParser& parser, starscope::tracer::TimeNs threshold,
            std::unique_ptr<ComparisonWindow>& window) {
    const QStringList inputs = parser.positionalArguments();
    if (inputs.isEmpty()) {
        return usageError("--compare needs at least one run folder");
    }
    auto alignment = parseAlignment(parser.value(QStringLiteral("align")).toStdString(), "--align");
    if (!alignment) {
        return usageError(alignment.error().message);
    }
    if (!parser.isSet(QStringLiteral("render"))
        && (parser.isSet(QStringLiteral("size")) || parser.isSet(QStringLiteral("range")))) {
        return usageError("--size and --range apply to --render only");
    }
    ComparisonPicture picture;
    picture.transfers = !parser.isSet(QStringLiteral("no-transfers"));
    if (parser.isSet(QStringLiteral("size"))) {
        auto parsed = parseSize(parser.value(QStringLiteral("size")).toStdString(), "--size");
        if (!parsed) {
            return usageError(parsed.error().message);
        }
        picture.size = *parsed;
    }
    if (parser.isSet(QStringLiteral("range"))) {
        auto parsed = parseRange(parser.value(QStringLiteral("range")).toStdString(), "--range");
        if (!parsed) {
            return usageError(parsed.error().message);
        }
        picture.range = *parsed;
    }
    std::vector<std::filesystem::path> paths;
    for (const QString& input : inputs) {
        paths.emplace_back(input.toStdString());
    }
    auto loaded = loadComparison(paths, threshold, parser.isSet(QStringLiteral("allow-mixed")));
    if (!loaded) {
        std::fprintf(stderr, "starscope-viewer: %s\n", loaded.error().message.c_str());
        return 1;
    }
    if (parser.isSet(QStringLiteral("render"))) {
        if (auto written = renderComparison(*loaded, *alignment, picture, parser.value(QStringLiteral("render")));
            !written) {
            std::fprintf(stderr, "starscope-viewer: %s\n", written.error().message.c_str());
            // A --range outside the runs is a bad flag value, as the usage errors are.
            return written.error().code == ViewerErrorCode::InvalidArgument ? 2 : 1;
        }
        return 0;
    }
    window = std::make_unique<ComparisonWindow>();
    if (auto set = window->setComparison(*loaded, *alignment); !set) {
        std::fprintf(stderr, "starscope-viewer: %s\n", set.error().message.c_str());
        return 1;
    }
    window->transfersAction()->setChecked(!parser.isSet(QStringLiteral("no-transfers")));
    window->show();
    return QApplication::exec();
}

} // namespace

int main(int argc, char** argv) {
    // The headless mode must work without a display: pick the offscreen platform before Qt
    // starts, unless the caller chose one.
    if (needsNoDisplay(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    // A picture being written when the viewer is stopped leaves no temporary file beside it.
    starscope::files::removeTemporariesOnStop();
    std::optional<EarlyLoad> early = startEarlyLoad(argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("starscope"));
    QApplication::setApplicationName(QStringLiteral("starscope-viewer"));
    QApplication::setApplicationVersion(QString::fromLatin1(starscope::kVersion));

    QCommandLineParser parser;
    describeArguments(parser);
    // parse() rather than process(): process() ends the program with status 1 on a mistake,
    // and a usage error exits 2 in every starscope tool.
    if (!parser.parse(QApplication::arguments())) {
        return usageError(parser.errorText().toStdString());
    }
    if (parser.isSet(QStringLiteral("version"))) {
        parser.showVersion();
    }
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))) {
        parser.showHelp(0);
    }

    auto threshold = parseTime(parser.value(QStringLiteral("threshold")).toStdString(), "--threshold");
    if (!threshold) {
        return usageError(threshold.error().message);
    }
    const auto thresholdNs = static_cast<starscope::tracer::TimeNs>(*threshold);
    if (parser.isSet(QStringLiteral("compare"))) {
        std::unique_ptr<ComparisonWindow> window;
        return compare(parser, thresholdNs, window);
    }
    if (parser.isSet(QStringLiteral("align")) || parser.isSet(QStringLiteral("allow-mixed"))) {
        return usageError("--align and --allow-mixed apply to --compare only");
    }
    if (parser.isSet(QStringLiteral("render"))) {
        return render(parser, thresholdNs, early);
    }
    if (parser.isSet(QStringLiteral("range")) || parser.isSet(QStringLiteral("size")) || parser.isSet(QStringLiteral("fold"))) {
        return usageError("--range, --size and --fold apply to --render only");
    }

    // One window: several files are one job's, read as one trace (ViTE and Vampir do the same).
    MainWindow window;
    window.setBarrierThreshold(thresholdNs);
    window.messagesAction()->setChecked(!parser.isSet(QStringLiteral("no-messages")));
    window.transfersAction()->setChecked(!parser.isSet(QStringLiteral("no-transfers")));
    window.criticalPathAction()->setChecked(parser.isSet(QStringLiteral("critical-path")));
    window.show();
    if (const QStringList inputs = parser.positionalArguments(); !inputs.isEmpty()) {
        window.openPaths(inputs);
    }
    return QApplication::exec();
}
