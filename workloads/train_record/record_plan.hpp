#pragma once
// `starscope record` in two steps. planRecord() checks every option, the dataset and the output
// folder and writes nothing, so bad input fails before StarPU starts. executeRecord() (in
// recorder.hpp) then creates the run folder and records.

#include "runtime/image_loader.hpp"
#include "workloads/dataset/mnist_dataset.hpp"
#include "workloads/error.hpp"
#include "workloads/record/run_settings.hpp"
#include "workloads/train/trainer.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace starscope::workloads {

struct RecordOptions {
    std::string arenas = "single"; // single | double | <N>
    std::string loader = "naive";  // naive | prefetch | advanced | double-prefetch
    std::size_t epochs = 1;
    std::size_t batches = 0; // per epoch; 0: every full batch
    std::size_t batchSize = 64;
    std::size_t chunk = 0;   // images per task; 0: kDefaultChunk, at most the batch size
    // StarPU's settings: an option given wins over StarPU's environment variable (STARPU_NCPU,
    // STARPU_SCHED), which wins over the default, so a user's environment is never overridden
    // without the summary saying which one chose.
    std::size_t workers = 0; // 0: not given: $STARPU_NCPU, else one per hardware thread
    std::string sched;       // empty: not given: $STARPU_SCHED, else kDefaultScheduler
    std::string dataset; // empty: defaultDatasetDir()
    std::string out; // empty: not given: $STARPU_FXT_PREFIX (see RecordPlan::outSource)
    bool force = false;
    // FxT's buffer in MiB (0: not given: STARPU_TRACE_BUFFER_SIZE, else sized for the run).
    std::uint64_t bufferMb = 0;
    // FxT event categories: "all" or StarPU's names ("USER,TASK,..."); empty: not given
    // ($STARPU_FXT_EVENTS, else the smallest set that keeps every figure; see resolveEvents).
    std::string events;
    // FxT off (STARPU_FXT_TRACE=0): the same run without its tracing, to measure what tracing
    // costs. run.json says "traced": false and there is no prof file to read.
    bool noTrace = false;
    float learningRate = 0.1F;
    std::uint64_t seed = 42;
    std::size_t trainImages = 0; // use the first N training images (0: all)
    std::size_t testImages = 0;  // evaluate on the first N test images (0: all)
};

// 32 images keep every task above about 60 us on these machines (conv_bwd about 150 us with the
// vectorised kernels), well above StarPU's per-task cost; 16 measured no faster.
inline constexpr std::size_t kDefaultChunk = 32;
inline constexpr const char* kDefaultScheduler = "lws";

// Whether the StarPU starscope is built against keeps its idle workers spinning: configured
// without --enable-blocking-drivers (STARPU_NON_BLOCKING_DRIVERS in starpu_config.h), as
// StarPU's default and Debian's packages are. Such a worker polls for tasks on its core instead
// of sleeping, so it competes with the main thread that submits the tasks (and loads the images
// of the naive loader): measured on 2 cores, 2 such workers made double+advanced no faster than
// single+naive. The headers are those of the library linked (cmake/FindStarPU.cmake), so this is
// the StarPU the run uses.
bool starpuIdleWorkersSpin();

// Whether the StarPU starscope is built against selects FxT event categories (1.4 and later;
// 1.3 records every event).
bool starpuSelectsFxtEvents();

// record's CPU worker count when neither --workers nor STARPU_NCPU chose: one per hardware
// thread, or one fewer (at least one) when idle workers spin, which leaves the main thread a
// core no worker polls on. StarPU-MPI ranks started on one machine share its hardware threads
// (ranksOnMachine of them), so each takes its share: 4 ranks of 2 workers on 2 cores spent their
// time waiting for a core.
std::size_t defaultCpuWorkers(std::size_t hardwareThreads, bool idleWorkersSpin,
                              std::size_t ranksOnMachine = 1);
// defaultCpuWorkers for this machine's hardware threads.
std::size_t defaultCpuWorkersHere(bool idleWorkersSpin, std::size_t ranksOnMachine = 1);

// How many ranks of this job run on this machine, as the MPI launcher says it
// (OMPI_COMM_WORLD_LOCAL_SIZE for Open MPI, MPI_LOCALNRANKS for MPICH's Hydra); 1 when it does
// not say.
std::size_t ranksOnThisMachine();

struct RecordPlan {
    RecordOptions options;
    std::size_t ringSlots = 1;
    std::string arenasName; // "single", "double" or the slot count
    runtime::LoaderKind loader = runtime::LoaderKind::Naive;
    std::filesystem::path datasetDir;
    std::filesystem::path outDir; // absolute
    bool outExists = false;
    std::optional<MnistDataset> dataset;
    TrainConfig train;
    std::size_t batchesPerEpoch = 0;
    // What the run asks StarPU for (option > environment > default), set in StarPU's
    // environment by executeRecord.
    StarpuSetting<std::size_t> workersAsked;
    StarpuSetting<std::string> schedAsked;
    // What StarPU actually runs, as run.json records it: the request until StarPU starts, then
    // read back from StarPU (it caps STARPU_NCPU at the cores it finds).
    std::size_t workers = 0;
    std::string sched;
    // starpuIdleWorkersSpin(): run.json and the summary say so, and the default worker count
    // leaves the main thread a core.
    bool idleWorkersSpin = false;
    // The default worker count is one below the hardware threads for that reason.
    bool coreLeftToMainThread = false;
    // The run folder, which is also StarPU's STARPU_FXT_PREFIX: --out, else a
    // STARPU_FXT_PREFIX the user set (a STARPU_FXT_PREFIX naming another folder than --out is
    // refused: every reader opens the run folder, so the trace must be written there).
    SettingSource outSource = SettingSource::Option;
    std::uint64_t estimatedTasks = 0;
    // StarPU-MPI messages this process sends or receives (0 for a single process), and the FxT
    // bytes expected from its tasks and messages: in the whole run (the disk space it needs),
    // and before the evaluation (what training writes, which sizes the buffer).
    std::uint64_t estimatedMessages = 0;
    std::uint64_t expectedTraceBytes = 0;
    std::uint64_t expectedTrainingTraceBytes = 0;
    // Whether FxT records: --no-trace > STARPU_FXT_TRACE > on.
    StarpuSetting<bool> trace;
    // The FxT event categories recorded (all() when not traced or on 1.3; see resolveEvents).
    EventsChoice events;
    // FxT's buffer in MiB (STARPU_TRACE_BUFFER_SIZE > sized from the estimated tasks); 0 when
    // the run is not traced.
    std::uint64_t traceBufferMb = 0;
    SettingSource traceBufferSource = SettingSource::Default;
    // Every variable of StarPU's environment the run depends on, with its value and who chose
    // it; executeRecord sets those that are not the user's, and the summary and run.json list
    // them all, so record never changes StarPU's settings silently.
    std::vector<StarpuVariable> environment;
};

// FxT bytes per task of the CNN, measured on whole epochs (8,833 tasks, workloads/README.md):
// every category 2,577 B on StarPU 1.4.12, record's default event set 2,189 B, and 2,454 B on
// 1.3.10 (which records every event); with a little room for the workers' start.
inline constexpr std::uint64_t kTraceBytesPerTask = 2600;
inline constexpr std::uint64_t kTraceBytesPerTaskDefaultEvents = 2200;
inline constexpr std::uint64_t kTraceBytesPerTaskStarpu13 = 2500;
// What a task of the plan writes: by release and event set.
std::uint64_t traceBytesPerTask(const EventsChoice& events, bool starpuSelectsEvents);
// What a StarPU-MPI message adds to its rank's trace (submission, posting, completion and the
// tests in between, on both ends); workloads/README.md has the measure. An estimate short of
// the truth costs a flush, never events.
inline constexpr std::uint64_t kTraceBytesPerMessage = 1024;
// libfxt mallocs two buffers of STARPU_TRACE_BUFFER_SIZE and clears both when StarPU starts, so
// tracing keeps twice the buffer resident for the whole run; when a buffer is full, the thread
// that filled it stops to write it to the prof file (StarPU says so on stderr), and the trace
// stays whole. A write during training stalls the workers and is part of what is measured, so
// the buffer holds what training writes (its tasks, messages and the workers' start, and a
// sixteenth more for the spread between runs): the evaluation and StarPU's shutdown write the
// rest after the figures are taken. FxT's memory is then about twice the trace.
inline constexpr std::uint64_t kTraceMinMb = 1;
// Longer runs write their trace in several parts of at most this size, or of what memory
// allows (traceBufferCapMb), rather than keeping it resident.
inline constexpr std::uint64_t kTraceMaxMb = 1024;

// The buffer, in MiB, for a run expected to write `measuredBytes` of FxT events before its
// figures are taken, at most capMb.
std::uint64_t traceBufferMbFor(std::uint64_t measuredBytes, std::uint64_t capMb = kTraceMaxMb);

// The largest buffer memory allows: FxT's two buffers of every rank on the machine together
// within an eighth of the memory available (MemAvailable), at most kTraceMaxMb; kTraceMaxMb
// when the available memory is unknown.
std::uint64_t traceBufferCapMb(std::optional<std::uint64_t> availableBytes, std::size_t ranksOnMachine);

// MemAvailable of /proc/meminfo in bytes, when the kernel says it.
std::optional<std::uint64_t> availableMemoryBytes();

// The tasks the plan's process submits (its rank's share under StarPU-MPI), the StarPU-MPI
// messages it sends or receives, and the FxT bytes expected from both; then the buffer (the
// user's STARPU_TRACE_BUFFER_SIZE wins) and StarPU's environment. planRecord calls it, and
// planRank again once the plan is a rank's.
WorkloadResult<Done> sizeTrace(RecordPlan& plan);

WorkloadResult<RecordPlan> planRecord(const RecordOptions& options);

// "single" -> 1, "double" -> 2, "<N>" -> N (1..64).
WorkloadResult<std::size_t> parseArenas(const std::string& text);

// Scheduler names StarPU knows (its predefined policies).
std::vector<std::string> starpuSchedulers();

} // namespace starscope::workloads
