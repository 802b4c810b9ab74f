// Writes a synthetic batched-training trace (tests/support/synthetic_trace.hpp) as a native
// starscope trace, so benchmarks and screenshots can run the real starscope-viewer binary on
// traces of any size without recording a run.
//
//   starscope-viewer-synth OUT [--workers N] [--epochs N] [--batches N] [--tasks-per-worker N]
//                              [--task-us X] [--barrier-us X] [--jitter X] [--seed N] [--ranks N]
//                              [--dependencies]
// --ranks N (1-4): a StarPU-MPI job of N ranks on one clock, with messages between them.
// --dependencies: each task waits for the one before it on its worker (a task graph).
//
// The trace is streamed into the file as it is made (SyntheticJob, tracer::TraceStream), never
// whole in memory: a job of 1 G spans (36 GB of file) is written in some tens of MiB, which is
// what bench/tracer/scale_steps.sh measures as the generator's peak. The file is the one
// writeNativeFile would write from makeSyntheticTrace or makeSyntheticRanksTrace, written
// atomically as that is: a failed write (a full disk) leaves no file and exits 1.

#include "tests/support/synthetic_job.hpp"
#include "tracer/native/native_format.hpp"

#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>

namespace {

template <typename T>
bool parseNumber(std::string_view text, T& out, T lo, T hi) {
    T value{};
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size() || value < lo || value > hi) {
        return false;
    }
    out = value;
    return true;
}

constexpr const char* kUsage =
    "usage: starscope-viewer-synth OUT [--workers N] [--epochs N] [--batches N] "
    "[--tasks-per-worker N] "
    "[--task-us X] [--barrier-us X] [--jitter X] [--seed N] [--ranks N] [--dependencies]\n";

int usage(const std::string& message) {
    std::fprintf(stderr, "starscope-viewer-synth: %s\n%s", message.c_str(), kUsage);
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    starscope::viewer::SyntheticOptions options;
    std::string output;
    double taskUs = 50.0;
    double barrierUs = 400.0;
    int ranks = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            std::fputs("Writes a synthetic batched-training trace as a native starscope trace.\n",
                       stdout);
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (!arg.starts_with("--")) {
            if (!output.empty()) {
                return usage("more than one output file given ('" + output + "', '" + std::string(arg) + "')");
            }
            output = arg;
            continue;
        }
        if (arg == "--dependencies") {
            options.dependencies = true;
            continue;
        }
        if (i + 1 >= argc) {
            return usage(std::string(arg) + " needs a value");
        }
        const std::string_view value = argv[++i];
        bool ok = false;
        if (arg == "--workers") {
            ok = parseNumber(value, options.cpuWorkers, 1, 4096);
        } else if (arg == "--epochs") {
            ok = parseNumber(value, options.epochs, 1, 1 << 20);
        } else if (arg == "--batches") {
            ok = parseNumber(value, options.batchesPerEpoch, 1, 1 << 24);
        } else if (arg == "--tasks-per-worker") {
            ok = parseNumber(value, options.tasksPerWorker, 1, 1 << 24);
        } else if (arg == "--task-us") {
            ok = parseNumber(value, taskUs, 0.001, 1e9);
        } else if (arg == "--barrier-us") {
            ok = parseNumber(value, barrierUs, 0.0, 1e9);
        } else if (arg == "--jitter") {
            ok = parseNumber(value, options.jitter, 0.0, 0.99);
        } else if (arg == "--ranks") {
            ok = parseNumber(value, ranks, 1, 4);
        } else if (arg == "--seed") {
            ok = parseNumber(value, options.seed, std::uint64_t{0}, ~std::uint64_t{0});
        } else {
            return usage("unknown option " + std::string(arg));
        }
        if (!ok) {
            return usage(std::string(arg) + ": '" + std::string(value) + "' is not a valid value");
        }
    }
    if (output.empty()) {
        return usage("no output file given");
    }
    options.taskNs = static_cast<starscope::tracer::TimeNs>(taskUs * 1e3);
    options.barrierNs = static_cast<starscope::tracer::TimeNs>(barrierUs * 1e3);

    // --ranks 1 is one process (makeSyntheticTrace), as it always was: no MPI lane.
    const starscope::viewer::SyntheticJob job(options, ranks > 1 ? ranks : 0);
    const auto stream = job.stream();
    if (auto written = starscope::tracer::writeNativeFile(stream, output); !written) {
        std::fprintf(stderr, "starscope-viewer-synth: %s\n", written.error().describe().c_str());
        return 1;
    }
    std::printf("%s: %zu lanes, %llu spans, %llu tasks, %llu messages\n", output.c_str(), stream.tables->lanes.size(),
                static_cast<unsigned long long>(stream.spanCount()), static_cast<unsigned long long>(stream.tasks.count),
                static_cast<unsigned long long>(stream.messages.count));
    return 0;
}
