// Benchmark of the tracer against the reference tools, on the same inputs:
//  1. FxT -> model (readTrace) against `starpu_fxt_tool -i` on one prof file of >= 64,000 tasks
//     recorded by the sample program; runs alternate, medians and their ratio are printed.
//  2. Bytes per span of the model.
//  3. Barrier detection on a synthetic 10 M-span trace.
// With --model TRACE it only reads TRACE (any input readTrace takes) and prints its model's
// size, as bench/run_all.sh compares the viewer's memory with it.
//
// tracer_bench [--runs N] [--tasks N] [--keep DIR] | --model TRACE

#include "bench/tracer/bench_support.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace starscope::tracer;
using starscope::bench::Clock;
using starscope::bench::median;
using starscope::bench::seconds;
using starscope::bench::shell;

namespace {

Trace syntheticTrace(std::size_t spans, std::size_t workers) {
    Trace trace;
    trace.states = {{"Executing", StateClass::Executing}, {"Sleeping", StateClass::Sleeping},
                    {"Overhead", StateClass::Overhead}};
    const std::size_t perLane = spans / workers;
    TimeNs end = 0;
    for (std::size_t w = 0; w < workers; ++w) {
        Lane lane;
        lane.name = "CPU " + std::to_string(w);
        lane.workerId = static_cast<std::int32_t>(w);
        lane.levels.emplace_back();
        auto& level = lane.levels[0];
        level.reserve(perLane);
        TimeNs t = static_cast<TimeNs>(w) * 7;
        for (std::size_t i = 0; i < perLane; ++i) {
            // Every 1000th pair of spans, all workers sleep for 500 us together: a barrier.
            const bool executing = i % 2 == 0;
            const TimeNs length = executing ? 20'000 : ((i / 2) % 1000 == 999 ? 500'000 : 1'000);
            level.push_back(Span{t, t + length, executing ? 0U : 1U});
            t += length;
        }
        end = std::max(end, t);
        trace.lanes.push_back(std::move(lane));
    }
    trace.end = end;
    return trace;
}

// The model's own bytes: spans, task records, the lanes' task indexes (how a span finds its
// task), the tasks' dependency lists with the jobs they name outside the trace, markers, and the
// names table (codelets, and the arenas and texts markers keep there) with the tasks' codelet keys.
struct ModelBytes {
    std::size_t spans = 0;
    std::size_t tasks = 0;
    std::size_t taskIndexes = 0;
    std::size_t dependencies = 0;
    std::size_t markers = 0;
    std::size_t names = 0;
    std::size_t total() const { return spans + tasks + taskIndexes + dependencies + markers + names; }
};

ModelBytes modelParts(const Trace& trace) {
    ModelBytes bytes;
    bytes.spans = trace.spanCount() * sizeof(Span);
    bytes.tasks = trace.tasks.size() * sizeof(Task);
    for (const auto& lane : trace.lanes) {
        bytes.taskIndexes += lane.tasks.capacity() * sizeof(TaskIndex);
    }
    bytes.dependencies = trace.dependencies.capacity() * sizeof(TaskIndex)
                         + trace.dependencyStarts.capacity() * sizeof(std::uint32_t)
                         + trace.outsideJobs.capacity() * sizeof(std::uint64_t);
    bytes.markers = trace.markers.capacity() * sizeof(MarkerEvent);
    bytes.names = trace.names.memoryBytes() + trace.codeletKeys.memoryBytes();   // tasks' codelets and footprints
    return bytes;
}

std::size_t modelBytes(const Trace& trace) { return modelParts(trace).total(); }

int printModel(const std::string& input) {
    // As the command line reads: a native file it checked whole once is read without checks.
    ReadOptions options;
    options.verifiedFiles = verifiedFilesFolder();
    const auto trace = readTrace(input, options);
    if (!trace) {
        std::fprintf(stderr, "tracer_bench: %s\n", trace.error().describe().c_str());
        return 1;
    }
    const std::size_t spans = trace->spanCount();
    const auto parts = modelParts(*trace);
    const auto perSpan = [&](std::size_t bytes) {
        return static_cast<double>(bytes) / static_cast<double>(std::max<std::size_t>(spans, 1));
    };
    std::printf("model of %s: %zu spans, %zu tasks, %zu markers, %.1f MB, whole model = %.1f bytes/span\n",
                input.c_str(), spans, trace->tasks.size(), trace->markers.size(),
                static_cast<double>(parts.total()) / 1e6, perSpan(parts.total()));
    // Where the bytes are, to see what a smaller layout has to shrink.
    std::printf("  per span: spans %.1f (sizeof(Span) %zu) + tasks %.1f (sizeof(Task) %zu, %.1f spans per task) + "
                "lanes' task indexes %.1f + dependencies %.1f + markers %.1f (sizeof(MarkerEvent) %zu) + names %.1f "
                "(%zu strings, %zu codelet keys)\n",
                perSpan(parts.spans), sizeof(Span), perSpan(parts.tasks), sizeof(Task),
                static_cast<double>(spans) / static_cast<double>(std::max<std::size_t>(trace->tasks.size(), 1)),
                perSpan(parts.taskIndexes), perSpan(parts.dependencies), perSpan(parts.markers), sizeof(MarkerEvent),
                perSpan(parts.names), trace->names.size(), trace->codeletKeys.size());
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    int runs = 5;
    int tasks = 64'000;
    std::string keep;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--runs") {
            runs = std::max(1, std::atoi(argv[i + 1]));
        } else if (flag == "--tasks") {
            tasks = std::max(1000, std::atoi(argv[i + 1]));
        } else if (flag == "--keep") {
            keep = argv[i + 1];
        } else if (flag == "--model") {
            return printModel(argv[i + 1]);
        } else {
            std::fprintf(stderr, "usage: tracer_bench [--runs N] [--tasks N] [--keep DIR] | --model TRACE\n");
            return 2;
        }
    }
    const fs::path dir = keep.empty() ? fs::temp_directory_path() / ("starscope-tracer-bench-" + std::to_string(::getpid()))
                                      : fs::path(keep);
    fs::create_directories(dir);
    const fs::path run = dir / "run";
    if (run::findProfFiles(run).empty()) {
        const int batches = 16;
        const std::string command = std::string("'") + STARSCOPE_TRACER_SAMPLE_PROGRAM + "' '" + run.string()
                                    + "' --batches " + std::to_string(batches) + " --tasks "
                                    + std::to_string((tasks + batches - 1) / batches)
                                    + " --task-us 0 --load-us 0 --ncpu 2 --chains 16";
        std::printf("recording %d tasks: %s\n", tasks, command.c_str());
        if (shell(command) != 0) {
            std::fprintf(stderr, "tracer_bench: the sample program failed\n");
            return 1;
        }
    }
    const auto prof = run::findProfFiles(run).front();
    std::printf("input: %s (%.1f MB)\n", prof.c_str(), static_cast<double>(fs::file_size(prof)) / 1e6);

    std::vector<double> ours;
    std::vector<double> reference;
    std::size_t spanCount = 0;
    std::size_t executed = 0;
    Trace kept;
    const std::string tool = std::string("cd '") + run.string() + "' && '" + STARSCOPE_STARPU_FXT_TOOL + "' -i '"
                             + prof.string() + "' > tool.log 2>&1";
    for (int r = 0; r < runs; ++r) {
        auto start = Clock::now();
        auto trace = readTrace(prof);
        ours.push_back(seconds(start));
        if (!trace) {
            std::fprintf(stderr, "tracer_bench: %s\n", trace.error().describe().c_str());
            return 1;
        }
        spanCount = trace->spanCount();
        executed = static_cast<std::size_t>(std::count_if(trace->tasks.begin(), trace->tasks.end(),
                                                          [](const Task& t) { return t.start >= 0; }));
        start = Clock::now();
        if (shell(tool) != 0) {
            std::fprintf(stderr, "tracer_bench: starpu_fxt_tool failed (see %s/tool.log)\n", run.c_str());
            return 1;
        }
        reference.push_back(seconds(start));
        std::printf("run %d: starscope %.3f s, starpu_fxt_tool -i %.3f s\n", r + 1, ours.back(), reference.back());
        if (r + 1 == runs) {
            kept = std::move(trace).value();
        }
    }
    const double mOurs = median(ours);
    const double mRef = median(reference);
    std::printf("\nFxT -> model, %zu executed tasks, %zu spans, %d runs each (alternating)\n", executed, spanCount, runs);
    std::printf("  starscope readTrace       median %.3f s\n", mOurs);
    std::printf("  starpu_fxt_tool -i        median %.3f s\n", mRef);
    std::printf("  ratio (reference/ours)    %.1fx faster\n", mRef / mOurs);

    // Reopening the same trace from the native format.
    const auto native = dir / "trace.sstrace";
    if (writeNativeFile(kept, native)) {
        std::vector<double> reopen;
        for (int r = 0; r < runs; ++r) {
            const auto start = Clock::now();
            const auto back = readTrace(native);
            reopen.push_back(seconds(start));
        }
        std::printf("  native reopen             median %.3f s (%.1f MB)\n", median(reopen),
                    static_cast<double>(fs::file_size(native)) / 1e6);
    }

    std::printf("\nbytes per span: sizeof(Span) = %zu; whole model (spans + tasks + markers) = %.1f bytes/span\n",
                sizeof(Span), static_cast<double>(modelBytes(kept)) / static_cast<double>(spanCount));

    const std::size_t syntheticSpans = 10'000'000;
    const auto synthetic = syntheticTrace(syntheticSpans, 8);
    std::vector<double> detect;
    std::size_t found = 0;
    for (int r = 0; r < runs; ++r) {
        const auto start = Clock::now();
        found = findBarriers(synthetic).size();
        detect.push_back(seconds(start));
    }
    std::printf("\nbarrier detection on a synthetic %zu-span trace (8 workers): median %.3f s, %zu barriers\n",
                synthetic.spanCount(), median(detect), found);
    if (keep.empty()) {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    return 0;
}
