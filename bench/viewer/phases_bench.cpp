// Where the time goes after a trace is read: each step `starscope stats` and the viewer's first
// frame (`starscope-viewer FILE --render OUT.png`) run on the model, timed on its own, in the
// order those programs run them. Read once, then every step once (or --repeats N times, the
// median printed). Prints a table; never asserts.
//
//   starscope-viewer-phases-bench --trace FILE [--repeats N] [--only stats|viewer]
//
// bench/tracer/scale_steps.sh times the whole programs; this says which step of them to cut.

#include "bench/tracer/bench_support.hpp"
#include "tracer/analysis/area_bound.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/codelet_stats.hpp"
#include "tracer/analysis/machine.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/readers/read_trace.hpp"
#include "viewer/core/format/command_line.hpp"
#include "viewer/core/layout/lane_layout.hpp"
#include "viewer/core/drawing/palette.hpp"
#include "viewer/core/document/task_graph.hpp"
#include "viewer/core/document/trace_document.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/export/png_encoder.hpp"

#include <QApplication>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace starscope;
using namespace starscope::viewer;
using bench::Clock;
using bench::median;

// Runs step `repeats` times and prints its median.
void timed(const char* name, int repeats, const std::function<void()>& step) {
    std::vector<double> ms;
    for (int r = 0; r < repeats; ++r) {
        const auto start = Clock::now();
        step();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::printf("  %-34s %10.1f ms\n", name, median(ms));
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    std::string input;
    std::string only;
    int repeats = 1;
    const PixelSize size{1600, 900};   // --render's default size
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--trace") {
            input = argv[i + 1];
        } else if (flag == "--repeats") {
            repeats = std::max(1, std::atoi(argv[i + 1]));
        } else if (flag == "--only") {
            only = argv[i + 1];
        } else {
            std::fprintf(stderr, "phases_bench: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (input.empty()) {
        std::fprintf(stderr, "usage: starscope-viewer-phases-bench --trace FILE [--repeats N] [--only stats|viewer]\n");
        return 2;
    }
    QApplication app(argc, argv);
    auto start = Clock::now();
    auto read = tracer::readTrace(std::filesystem::path(input), viewerReadOptions());
    if (!read) {
        std::fprintf(stderr, "phases_bench: %s\n", read.error().describe().c_str());
        return 1;
    }
    tracer::Trace trace = std::move(read).value();
    std::printf("%s: %zu spans on %zu lanes, %zu tasks, %zu ranks; read %.0f ms\n", input.c_str(), trace.spanCount(),
                trace.lanes.size(), trace.tasks.size(), trace.ranks.size(),
                std::chrono::duration<double, std::milli>(Clock::now() - start).count());

    if (only.empty() || only == "stats") {
        std::printf("stats (printStats on the whole trace):\n");
        tracer::RangeStats range;
        timed("computeRangeStats", repeats, [&] { range = tracer::computeStats(trace); });
        timed("computeCodeletStats", repeats, [&] { static_cast<void>(tracer::computeCodeletStats(trace, trace.begin, trace.end)); });
        timed("summarize", repeats, [&] { static_cast<void>(tracer::summarize(trace, {}, range)); });
        timed("  of which findTransitions", repeats, [&] { static_cast<void>(tracer::findTransitions(trace)); });
        const auto transitions = tracer::findTransitions(trace);
        timed("  of which findBarriers (job)", repeats,
              [&] { static_cast<void>(tracer::findBarriers(trace, transitions, tracer::BarrierOptions{})); });
        timed("  of which criticalPathLength", repeats, [&] { static_cast<void>(tracer::criticalPathLength(trace)); });
        timed("machineFigures", repeats, [&] { static_cast<void>(tracer::machineFigures(trace, range)); });
        timed("  of which heterogeneousAreaBound", repeats, [&] { static_cast<void>(tracer::heterogeneousAreaBound(trace)); });
    }
    if (!only.empty() && only != "viewer") {
        return 0;
    }
    std::printf("viewer (--render: prepareDocument, barriers, first frame):\n");
    timed("layoutRows", repeats, [&] { static_cast<void>(layoutRows(trace)); });
    timed("Palette", repeats, [&] { static_cast<void>(Palette(trace)); });
    timed("LaneIndex of every level", repeats, [&] {
        std::vector<LaneIndex> index;
        for (const auto& lane : trace.lanes) {
            for (const auto& level : lane.levels) {
                index.emplace_back(level, trace.states.size());
            }
        }
    });
    timed("TaskGraph", repeats, [&] { static_cast<void>(TaskGraph(trace)); });
    timed("criticalPath", repeats, [&] { static_cast<void>(tracer::criticalPath(trace)); });
    std::shared_ptr<const TraceDocument> document;
    timed("prepareDocument (all)", 1, [&] { document = prepareDocument(std::move(trace), input); });
    JobAndRankBarriers barriers;
    timed("computeJobAndRankBarriers", repeats, [&] { barriers = computeJobAndRankBarriers(*document, 100'000); });
    std::printf("  (%zu job barriers, %zu rank barriers)\n", barriers.job.size(), barriers.ranks.size());
    auto job = std::make_shared<const Barriers>(barriers.job);
    auto ranks = std::make_shared<const Barriers>(barriers.ranks);
    timed("first frame (setDocument, draw)", repeats, [&] {
        GanttPlot plot;
        plot.resize(size.width, size.height);
        plot.setDocument(document);
        plot.setBarriers(job);
        plot.setRankBarriers(ranks);
        plot.layOutForPicture();
        QImage image = plot.toPixmap(size.width, size.height, 1.0).toImage();
        static_cast<void>(encodePngRuns(image));
    });
    return 0;
}
