// Replot time of the Gantt view on a synthetic trace of about 10 M spans, at full zoom-out,
// mid zoom and deep zoom: what a frame costs while the user pans and zooms. Target: median
// <= 16 ms (60 frames per second). Runs offscreen; prints medians, never asserts.
//
//   starscope-viewer-replot-bench [--spans-millions N] [--repeats N] [--size WxH] [--trace FILE]
// --trace FILE: the trace of FILE (any input the viewer opens) instead of a synthetic one, read
// and prepared as the viewer does (bench/tracer/scale_steps.sh times a scroll of its jobs so).

#include "tests/support/synthetic_trace.hpp"
#include "viewer/core/format/command_line.hpp"
#include "viewer/core/drawing/span_folding.hpp"
#include "viewer/core/document/trace_document.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/chart/gantt_plottable.hpp"

#include <QApplication>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace starscope::viewer;
using Clock = std::chrono::steady_clock;

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    double millions = 10.0;
    int repeats = 30;
    bool rowImages = true;
    std::string only;   // run one view only (for profiling): "full", "mid" or "deep"
    std::string input;  // a trace file instead of the synthetic trace
    PixelSize size{1600, 900};
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--spans-millions") {
            millions = std::atof(argv[i + 1]);
        } else if (flag == "--row-images") {
            rowImages = std::string(argv[i + 1]) != "off";
        } else if (flag == "--trace") {
            input = argv[i + 1];
        } else if (flag == "--only") {
            only = argv[i + 1];
        } else if (flag == "--repeats") {
            repeats = std::max(1, std::atoi(argv[i + 1]));
        } else if (flag == "--size") {
            auto parsed = parseSize(argv[i + 1], "--size");
            if (!parsed) {
                std::fprintf(stderr, "replot_bench: %s\n", parsed.error().message.c_str());
                return 2;
            }
            size = *parsed;
        } else {
            std::fprintf(stderr, "replot_bench: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    QApplication app(argc, argv);

    // 16 workers x 100 batches x (2 spans per task + 1 sleep) ~ millions x 1e6 spans.
    SyntheticOptions options;
    options.cpuWorkers = 16;
    options.batchesPerEpoch = 100;
    options.tasksPerWorker = std::max(1, static_cast<int>(millions * 1e6 / (16.0 * 100.0 * 2.0)));
    options.taskNs = 5'000;
    options.overheadNs = 500;
    options.barrierNs = 400'000;
    options.jitter = 0.3;
    auto start = Clock::now();
    std::shared_ptr<const TraceDocument> document;
    if (input.empty()) {
        document = prepareDocument(makeSyntheticTrace(options), "synthetic");
    } else {
        auto loaded = loadDocument(std::filesystem::path(input), viewerReadOptions());
        if (!loaded) {
            std::fprintf(stderr, "replot_bench: %s\n", loaded.error().describe().c_str());
            return 1;
        }
        document = std::move(*loaded);
    }
    const double prepareMs = msSince(start);
    start = Clock::now();
    auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    const double barriersMs = msSince(start);
    const auto& trace = document->trace;
    std::printf("trace: %zu spans on %zu lanes, %zu tasks, %.3f s long; generate (or read)+prepare %.0f ms, barriers %.0f ms "
                "(%zu)\n",
                trace.spanCount(), trace.lanes.size(), trace.tasks.size(), static_cast<double>(trace.end) / 1e9,
                prepareMs, barriersMs, barriers->size());

    GanttPlot plot;
    plot.resize(size.width, size.height);
    plot.setDocument(document);
    plot.gantt()->setRowImages(rowImages);
    plot.setBarriers(barriers);
    plot.show();
    plot.replot(QCustomPlot::rpImmediateRefresh);

    const double length = static_cast<double>(trace.end);
    struct Zoom {
        const char* name;
        double window;   // ns
    };
    const Zoom zooms[] = {{"full zoom-out", length}, {"mid zoom (1/100)", length / 100.0}, {"deep zoom (50 us)", 50'000.0}};
    std::printf("%-20s %12s %12s %12s %14s %12s %8s\n", "view", "median ms", "min ms", "max ms", "spans in view",
                "fold-only ms", "marks");
    for (const Zoom& zoom : zooms) {
        if (!only.empty() && std::string(zoom.name).rfind(only, 0) != 0) {
            continue;
        }
        std::vector<double> times;
        for (int r = 0; r < repeats; ++r) {
            // Each frame shows a slightly different window, as while panning.
            const double centre = length * (0.37 + 0.002 * r);
            plot.setView(centre - zoom.window / 2.0, centre + zoom.window / 2.0);
            start = Clock::now();
            plot.replot(QCustomPlot::rpImmediateRefresh);
            times.push_back(msSince(start));
        }
        const TimeView view = plot.view();
        std::size_t visible = 0;
        for (const auto& lane : trace.lanes) {
            const auto& spans = lane.spans();
            const auto first = std::partition_point(spans.begin(), spans.end(), [&](const auto& s) {
                return static_cast<double>(s.end) <= view.startNs;
            });
            const auto last = std::partition_point(first, spans.end(), [&](const auto& s) {
                return static_cast<double>(s.start) < view.endNs;
            });
            visible += static_cast<std::size_t>(last - first);
        }
        // The first drawing pass alone (visible spans, folding, colours), without painting.
        std::vector<double> foldTimes;
        std::size_t marks = 0;
        std::vector<DrawRun> runs;
        std::vector<starscope::tracer::TimeNs> perState(trace.states.size());
        for (int r = 0; r < repeats; ++r) {
            start = Clock::now();
            marks = 0;
            for (std::size_t lane = 0; lane < trace.lanes.size(); ++lane) {
                runs.clear();
                foldSpans(trace.lanes[lane].spans(), view, kDefaultFoldPx, runs, &document->laneIndex[lane][0]);
                marks += runs.size();
                for (const auto& run : runs) {
                    std::fill(perState.begin(), perState.end(), 0);
                    document->laneIndex[lane][0].addStateTimes(trace.lanes[lane].spans(), run.first, run.last, perState.data());
                }
            }
            foldTimes.push_back(msSince(start));
        }
        std::printf("%-20s %12.2f %12.2f %12.2f %14zu %12.2f %8zu\n", zoom.name, median(times),
                    *std::min_element(times.begin(), times.end()), *std::max_element(times.begin(), times.end()),
                    visible, median(foldTimes), marks);
    }
    std::printf("target: median <= 16 ms per replot at %dx%d\n", size.width, size.height);
    return 0;
}
