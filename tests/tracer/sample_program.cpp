// Records a small StarPU+FxT trace with the shape starscope looks for: batches of tasks with
// batch markers, a starpu_task_wait_for_all() barrier between batches (the main thread in
// "Waiting all tasks") and a simulated image load with load markers. Tests and the benchmark
// run it as a separate process so each recording gets a fresh StarPU and its own FxT prefix.
//
// sample_program OUT_DIR [--epochs N] [--batches N] [--tasks N] [--task-us N] [--load-us N]
//                        [--ncpu N] [--chains N] [--gate-us N] [--unprofiled-batch N]
//                        [--task-events N] [--exit-before-shutdown STATUS] [--startup-us N]
//
// OUT_DIR "-": the trace goes where the environment's STARPU_FXT_PREFIX says, as a program that
// `starscope record` or `sweep` runs into a run folder it names itself.
//
// --gate-us N: between batches, the main thread waits (starpu_task_wait_for_all) for a task
// gated on a tag another thread notifies N us later, so every worker sleeps while the main
// thread is "Waiting all tasks": a barrier with a known cause.
//
// --unprofiled-batch N: batch N (counted over all epochs from 0) runs with FxT profiling
// stopped (starpu_fxt_stop_profiling before its load, starpu_fxt_start_profiling after its
// wait), as StarPU's own examples stop it around what they do not measure.
//
// --exit-before-shutdown STATUS: after its tasks the program _exits with STATUS without
// starpu_shutdown, which is where StarPU writes its trace: a StarPU program that leaves no trace.
//
// --startup-us N: before the first batch every worker runs a task of
// starpu_execute_on_each_worker for N us, as StarPU's own start-up does on a GPU machine (its
// CUDA initialisation): a task of StarPU's, named by StarPU ("execute_on_all_wrapper").
//
// --task-events N: each task records N user events (starpu_fxt_trace_user_event, which names the
// worker's thread) while it runs, so that a small FxT buffer (STARPU_TRACE_BUFFER_SIZE=1) fills,
// and is written to the trace file, in the middle of a task.

#include "common/markers.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <starpu.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

struct Options {
    std::string outDir;
    int epochs = 1;
    int batches = 4;
    int tasks = 24;
    int taskUs = 200;
    int loadUs = 1500;
    int ncpu = 2;
    int chains = 4;
    int gateUs = 0;
    int unprofiledBatch = -1;
    int taskEvents = 0;
    int exitBeforeShutdown = -1;
    int startupUs = 0;
};

int g_taskUs = 200;
int g_taskEvents = 0;

void spinFor(void* buffers[], void* /*arg*/) {
    // Busy wait, not sleep: the worker must be Executing for the whole task.
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(g_taskUs);
    for (int i = 0; i < g_taskEvents; ++i) {
        starpu_fxt_trace_user_event(static_cast<unsigned long>(i));
    }
    while (std::chrono::steady_clock::now() < until) {
    }
    auto* value = reinterpret_cast<long*>(STARPU_VARIABLE_GET_PTR(buffers[0]));
    *value += 1;
}

void nothing(void* /*buffers*/[], void* /*arg*/) {}

// Submits a task that can only start once a helper thread notifies its tag, gateUs later,
// and waits for it.
bool gate(int index, int gateUs) {
    static starpu_codelet gateCodelet = [] {
        starpu_codelet c;
        starpu_codelet_init(&c);
        c.cpu_funcs[0] = nothing;
        c.nbuffers = 0;
        c.name = "sample_gate";
        return c;
    }();
    const auto trigger = static_cast<starpu_tag_t>(100000 + index);
    const auto gated = static_cast<starpu_tag_t>(200000 + index);
    starpu_tag_declare_deps(gated, 1, trigger);
    starpu_task* task = starpu_task_create();
    task->cl = &gateCodelet;
    task->use_tag = 1;
    task->tag_id = gated;
    if (starpu_task_submit(task) != 0) {
        return false;
    }
    std::thread notifier([trigger, gateUs] {
        std::this_thread::sleep_for(std::chrono::microseconds(gateUs));
        starpu_tag_notify_from_apps(trigger);
    });
    starpu_task_wait_for_all();
    notifier.join();
    return true;
}

void mark(const starscope::markers::Marker& marker) {
    const std::string text = starscope::markers::format(marker);
    starpu_fxt_trace_user_event_string(text.c_str());
}

bool parseInt(const char* text, int& out) {
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || value < 0 || value > 100'000'000) {
        return false;
    }
    out = static_cast<int>(value);
    return true;
}

bool parseArgs(int argc, char** argv, Options& options) {
    if (argc < 2) {
        return false;
    }
    options.outDir = argv[1];
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        int* target = flag == "--epochs"                 ? &options.epochs
                      : flag == "--batches"              ? &options.batches
                      : flag == "--tasks"                ? &options.tasks
                      : flag == "--task-us"              ? &options.taskUs
                      : flag == "--load-us"              ? &options.loadUs
                      : flag == "--ncpu"                 ? &options.ncpu
                      : flag == "--chains"               ? &options.chains
                      : flag == "--gate-us"              ? &options.gateUs
                      : flag == "--unprofiled-batch"     ? &options.unprofiledBatch
                      : flag == "--task-events"          ? &options.taskEvents
                      : flag == "--exit-before-shutdown" ? &options.exitBeforeShutdown
                      : flag == "--startup-us"           ? &options.startupUs
                                                         : nullptr;
        if (target == nullptr || !parseInt(argv[i + 1], *target)) {
            std::fprintf(stderr, "sample_program: bad option %s %s\n", argv[i], argv[i + 1]);
            return false;
        }
    }
    return (argc % 2) == 0 && options.chains > 0;
}

} // namespace

int main(int argc, char** argv) {
    Options options;
    if (!parseArgs(argc, argv, options)) {
        std::fprintf(stderr,
                     "usage: sample_program OUT_DIR [--epochs N] [--batches N] [--tasks N] "
                     "[--task-us N] [--load-us N] [--ncpu N] [--chains N] [--gate-us N] "
                     "[--unprofiled-batch N] [--task-events N] [--exit-before-shutdown STATUS] "
                     "[--startup-us N]\n");
        return 2;
    }
    const bool ownFolder = options.outDir != "-";
    std::error_code ec;
    if (ownFolder) {
        std::filesystem::create_directories(options.outDir, ec);
    }
    if (ec) {
        std::fprintf(stderr, "sample_program: cannot create %s\n", options.outDir.c_str());
        return 1;
    }
    g_taskUs = options.taskUs;
    g_taskEvents = options.taskEvents;
    const std::string ncpu = std::to_string(options.ncpu);
    if (ownFolder) {
        ::setenv("STARPU_FXT_PREFIX", options.outDir.c_str(), 1);
    }
    ::setenv("STARPU_FXT_TRACE", "1", 1);
    ::setenv("STARPU_NCPU", ncpu.c_str(), 1);
    ::setenv("STARPU_NCUDA", "0", 1);
    ::setenv("STARPU_NOPENCL", "0", 1);
    ::setenv("STARPU_SILENT", "1", 1);
    if (starpu_init(nullptr) != 0) {
        std::fprintf(stderr, "sample_program: starpu_init failed\n");
        return 1;
    }

    starpu_codelet codelet;
    starpu_codelet_init(&codelet);
    codelet.cpu_funcs[0] = spinFor;
    codelet.nbuffers = 1;
    codelet.modes[0] = STARPU_RW;
    codelet.name = "sample_spin";

    std::vector<long> counters(static_cast<std::size_t>(options.chains), 0);
    std::vector<starpu_data_handle_t> handles(counters.size());
    for (std::size_t i = 0; i < counters.size(); ++i) {
        starpu_variable_data_register(&handles[i], STARPU_MAIN_RAM,
                                      reinterpret_cast<uintptr_t>(&counters[i]), sizeof(long));
    }
    if (options.startupUs > 0) {
        starpu_execute_on_each_worker(
            [](void* us) { std::this_thread::sleep_for(std::chrono::microseconds(*static_cast<int*>(us))); },
            &options.startupUs, STARPU_CPU);
    }
    int status = 0;
    for (int epoch = 0; epoch < options.epochs && status == 0; ++epoch) {
        for (int batch = 0; batch < options.batches && status == 0; ++batch) {
            using starscope::markers::Kind;
            const bool unprofiled = epoch * options.batches + batch == options.unprofiledBatch;
            if (unprofiled) {
                starpu_fxt_stop_profiling();
            }
            mark({Kind::LoadBegin, epoch, batch, -1, -1, {}});
            std::this_thread::sleep_for(std::chrono::microseconds(options.loadUs));
            mark({Kind::LoadEnd, epoch, batch, -1, -1, {}});
            mark({Kind::BatchBegin, epoch, batch, batch % 2, -1, {}});
            for (int t = 0; t < options.tasks; ++t) {
                // RW on a handle per chain: tasks of one chain depend on each other.
                if (starpu_task_insert(&codelet, STARPU_RW,
                                       handles[static_cast<std::size_t>(t % options.chains)], 0)
                    != 0) {
                    status = 1;
                    break;
                }
            }
            mark({Kind::BatchEnd, epoch, batch, batch % 2, -1, {}});
            mark({Kind::ResetWaitBegin, epoch, batch, batch % 2, options.chains, "batch"});
            starpu_task_wait_for_all();
            mark({Kind::ResetWaitEnd, epoch, batch, batch % 2, options.chains, "batch"});
            if (unprofiled) {
                starpu_fxt_start_profiling();
            }
            const bool last = epoch + 1 == options.epochs && batch + 1 == options.batches;
            if (options.gateUs > 0 && !last && !gate(epoch * options.batches + batch, options.gateUs)) {
                status = 1;
            }
        }
    }
    for (auto& handle : handles) {
        starpu_data_unregister(handle);
    }
    if (options.exitBeforeShutdown >= 0) {
        ::_exit(options.exitBeforeShutdown);
    }
    starpu_shutdown();
    long total = 0;
    for (const long c : counters) {
        total += c;
    }
    if (status == 0 && total != static_cast<long>(options.epochs) * options.batches * options.tasks) {
        std::fprintf(stderr, "sample_program: %ld tasks ran, expected %d\n", total,
                     options.epochs * options.batches * options.tasks);
        status = 1;
    }
    return status;
}
