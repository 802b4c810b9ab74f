#pragma once
// run.json, typed: what a recorded run was (strategy, dataset, parameters, StarPU and FxT
// settings) and what it measured (times, loss/accuracy per epoch, tasks, counters, arena
// peaks). Its reader and writer live side by side in run_record.cpp, the way the native
// format's do: `record` fills a RunRecord and writes it; sweep, compare and the viewer read it
// and never look a key up themselves.
//
// Version 2 adds "ranks" (processes that wrote the run's prof files; StarPU-MPI runs have
// several). Version 3 adds "workload": the built-in CNN, or a command (`record -- PROGRAM`: a
// user's own StarPU program, whose argv, folder and end are recorded instead of the CNN's
// parameters). Version 1 and 2 files, and older hand-written ones without "format" or
// "version", read with what they hold (a CNN run); a newer version is refused with its own
// error. "starpu.fxt.events" (the FxT event set, `record --events`) is optional within version
// 3: a file without it reads with the set unknown.

#include "tracer/model/error.hpp"
#include "tracer/model/fxt_event_set.hpp"
#include "tracer/run_folder/run_folder_names.hpp" // kRunJsonName: in every run folder
#include "tracer/run_folder/run_status.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starscope::tracer::run {

inline constexpr int kRunRecordVersion = 3;
inline constexpr const char* kRunRecordFormat = "starscope-run";

// What ran: the built-in CNN training (strategy, dataset and parameters in the record) or a
// command the user gave (`record -- PROGRAM ARGS`, in RunRecord::program).
enum class WorkloadKind : std::uint8_t { Cnn, Command };

inline constexpr std::array<std::pair<WorkloadKind, std::string_view>, 2> kWorkloadKindNames{{
    {WorkloadKind::Cnn, "cnn"},
    {WorkloadKind::Command, "command"},
}};
std::string_view workloadKindName(WorkloadKind kind);
std::optional<WorkloadKind> parseWorkloadKind(std::string_view name);

// Where RunRecord::starpuVersion comes from. The CNN runs in record's own process, on the
// StarPU it is linked with; a command's program may use another StarPU, and StarPU writes no
// version into its traces: the trace's event layout tells the release series (1.3, 1.4) only.
enum class StarpuVersionSource : std::uint8_t { Linked, TraceLayout, Unknown };

inline constexpr std::array<std::pair<StarpuVersionSource, std::string_view>, 3>
    kStarpuVersionSourceNames{{
        {StarpuVersionSource::Linked, "linked"},
        {StarpuVersionSource::TraceLayout, "trace layout"},
        {StarpuVersionSource::Unknown, "unknown"},
    }};
std::string_view starpuVersionSourceName(StarpuVersionSource source);
std::optional<StarpuVersionSource> parseStarpuVersionSource(std::string_view name);

// A command run's program (`record -- PROGRAM ARGS`) and how it ended: an exit code, or the
// signal that killed it.
struct ProgramRecord {
    std::vector<std::string> argv; // as given, argv[0] the program
    std::string executable;        // the file run (argv[0] resolved through PATH)
    std::string cwd;               // the folder it ran in
    std::optional<int> exitCode;   // it exited with this code
    std::optional<int> signal;     // or a signal ended it (its number)
    std::string signalName;        // "SIGKILL"

    // "starpu_example_sgemm -size 512", or the program's name and a digest of its arguments
    // ("prog #3f2a9c") when they are long or one holds a blank: how compare names a command's
    // runs.
    std::string label() const;
    bool operator==(const ProgramRecord&) const = default;
};

struct StrategyRecord {
    std::string arenas;      // "single", "double" or a ring's slot count
    std::size_t ringSlots = 0;
    std::string loader;      // naive | prefetch | advanced | double-prefetch
    std::string text;        // older files name the strategy as one string

    // "arenas+loader" (or the older string); empty when the file names no strategy.
    std::string name() const;
    bool operator==(const StrategyRecord&) const = default;
};

struct DatasetRecord {
    std::string dir;
    std::uint64_t trainImages = 0;
    std::uint64_t testImages = 0;
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    std::uint64_t trainImagesUsed = 0;
    bool operator==(const DatasetRecord&) const = default;
};

struct EpochRecord {
    std::uint64_t epoch = 0;
    std::uint64_t batches = 0;
    double loss = 0.0;
    double accuracy = 0.0;
    double seconds = 0.0;
    bool operator==(const EpochRecord&) const = default;
};

struct TestRecord {
    std::uint64_t images = 0;
    std::optional<double> accuracy; // absent: reason says why
    double loss = 0.0;
    std::string reason;
    bool operator==(const TestRecord&) const = default;
};

// A counter or group of counters that may be unavailable (no PMU, no RAPL): never zeros.
struct Availability {
    bool recorded = false; // the file has the node at all
    bool available = false;
    std::string reason;
    bool operator==(const Availability&) const = default;
};

struct PapiEventRecord {
    std::string name;
    bool available = false;
    std::string reason;
    long long total = 0;
    std::vector<long long> perWorker;
    bool operator==(const PapiEventRecord&) const = default;
};

struct PapiRecord {
    Availability availability;
    std::vector<std::string> workers;
    std::vector<PapiEventRecord> events;
    std::optional<double> ipc;
    std::string ipcReason; // why ipc is absent, as the recorder said

    // Total of an available event; nullopt when absent or unavailable.
    std::optional<double> eventTotal(std::string_view name) const;
    bool operator==(const PapiRecord&) const = default;
};

struct EnergyRecord {
    Availability availability;
    std::optional<double> joules;
    std::map<std::string, double> domains;
    bool operator==(const EnergyRecord&) const = default;
};

struct ArenaRecord {
    std::string name;
    std::string role;
    std::uint64_t peakBytes = 0;
    std::uint64_t bytesReserved = 0;
    std::uint64_t blocks = 0;
    std::uint64_t resets = 0;
    std::uint64_t deferredResets = 0;
    std::uint64_t handlesReleased = 0;
    std::uint64_t waitNs = 0;
    std::uint64_t maxWaitNs = 0;
    Availability sde;
    std::map<std::string, long long> sdeValues;
    bool operator==(const ArenaRecord&) const = default;
};

struct TaskCounts {
    std::uint64_t estimated = 0;
    std::optional<std::uint64_t> submitted;
    std::optional<std::uint64_t> executed;
    bool operator==(const TaskCounts&) const = default;
};

// The tracing's own cost during the run: libfxt's buffer flushes (a thread writing the full
// buffer to the prof file), summed over the trace files.
struct FlushRecord {
    std::uint64_t count = 0;
    std::int64_t totalNs = 0;
    std::int64_t maxNs = 0;
    bool operator==(const FlushRecord&) const = default;
};

struct FxtRecord {
    std::string prefix;
    std::uint64_t bufferSizeMb = 0;
    std::vector<std::string> traceFiles;
    // The FxT event categories recorded (StarPU 1.4's STARPU_FXT_EVENTS; all() on 1.3, which
    // records everything); absent in files from before the field.
    std::optional<FxtEventSet> events;
    std::optional<FlushRecord> flushes;   // absent: not measured (untraced, or written before)
    bool operator==(const FxtRecord&) const = default;
};

// A variable of StarPU's environment the run depended on, and who chose its value: "option"
// or "default" (record set it), "environment" (the user's own, left alone).
struct EnvironmentRecord {
    std::string name;
    std::string value;
    std::string from;
    bool operator==(const EnvironmentRecord&) const = default;
};

struct RunRecord {
    int version = kRunRecordVersion;
    // Files from before the field recorded the CNN.
    WorkloadKind workload = WorkloadKind::Cnn;
    // A command run's program; set exactly when workload is Command.
    std::optional<ProgramRecord> program;
    // Files from before the status field were written only for finished runs.
    RunStatus status = RunStatus::Completed;
    std::string error;         // why, when failed
    std::string interruptedBy; // "SIGINT", "SIGTERM" or "SIGHUP" when interrupted
    std::string startedAt;     // UTC, ISO 8601
    std::vector<std::string> command;
    StrategyRecord strategy;
    // The workload's parameters; absent in older or hand-written files.
    std::optional<DatasetRecord> dataset;
    std::optional<std::uint64_t> batchSize;
    std::optional<std::uint64_t> epochs;
    std::optional<std::uint64_t> batchesPerEpoch;
    std::optional<std::uint64_t> chunk;
    std::optional<double> learningRate;
    std::optional<std::uint64_t> seed;
    std::optional<std::uint64_t> workers;
    std::string scheduler;
    std::uint64_t ranks = 1; // processes (StarPU-MPI ranks) that wrote prof files
    // "1.3.10" (the library record ran with) or "1.3" (a command's trace layout: the series).
    std::string starpuVersion;
    StarpuVersionSource starpuVersionFrom = StarpuVersionSource::Linked;
    // A command run: the StarPU starscope was built against, which the program may or may not
    // use ("1.3.10"); empty for the CNN, which runs on it (starpuVersion).
    std::string starscopeStarpu;
    // What StarPU's idle workers do: "spin" (built without --enable-blocking-drivers: they poll
    // on their core, competing with the main thread) or "block" (they sleep until a task comes).
    // Empty in files from before the field.
    std::string starpuIdleWorkers;
    // False for `record --no-trace` (FxT off, to measure what tracing costs): the folder has
    // run.json and no prof file. Files from before the field were all traced.
    bool traced = true;
    FxtRecord fxt;
    std::vector<EnvironmentRecord> environment; // empty in files from before the field
    std::optional<double> wallTimeS;  // training + evaluation
    std::optional<double> totalTimeS; // including StarPU start-up and shutdown
    std::optional<double> trainTimeS;
    std::optional<double> evalTimeS;
    std::optional<std::uint64_t> batchesRun;
    std::vector<EpochRecord> epochStats;
    std::optional<TestRecord> test;
    TaskCounts tasks;
    PapiRecord papi;
    EnergyRecord energy;
    std::vector<ArenaRecord> arenas;
    // arena -> peak bytes; absent when the file records no arena peaks.
    std::optional<std::map<std::string, std::uint64_t>> peakArenaBytes;

    // How compare and the summaries name the run: the strategy ("single+naive") for the CNN,
    // the program's label, with the StarPU variables the user set, for a command.
    std::string label() const;

    bool operator==(const RunRecord&) const = default;
};

// The JSON text of a record (2-space indented, newline-terminated).
std::string runRecordText(const RunRecord& record);

// Parses run.json text; `file` names it in errors. A newer version is TooNew, a document
// that is not a run record (wrong format, wrong types) is Corrupt with the key named.
TraceResult<RunRecord> parseRunRecord(const std::string& text, const std::string& file);

// Reads path (refusing a FIFO, device or folder by stat before any open).
TraceResult<RunRecord> readRunRecord(const std::filesystem::path& path);

// Writes through the project's one writer (common/file_writer.hpp).
TraceResult<Done> writeRunRecord(const std::filesystem::path& path, const RunRecord& record);

namespace detail {
// The file side of the run model's records (run.json, sweep.json): the text of path, refusing
// a FIFO, device or folder by stat before any open; and text written through the one writer.
TraceResult<std::string> readRecordText(const std::filesystem::path& path);
TraceResult<Done> writeRecordText(const std::filesystem::path& path, const std::string& text);
} // namespace detail

} // namespace starscope::tracer::run
