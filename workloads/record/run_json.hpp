#pragma once
// What `record` measured, and the run.json it makes of it: the measurements are turned into the
// run model's RunRecord (tracer/run_folder/run_record.hpp) and written by the model's one writer,
// atomically (temp file + fsync + rename), so a reader never sees half a file and record
// writes exactly what compare, sweep and the viewer read.

#include "tracer/run_folder/run_record.hpp"
#include "workloads/record/counters.hpp"
#include "workloads/record/rank_group.hpp"
#include "workloads/record/record_plan.hpp"
#include "workloads/train/trainer.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace starscope::workloads {

// The recorder's measurements while it runs, in the form they come from StarPU, PAPI, RAPL
// and the trainer.
struct RecordedRun {
    tracer::run::RunStatus status = tracer::run::RunStatus::Failed;
    std::string error;       // why, when failed
    int interruptSignal = 0; // SIGINT, SIGTERM or SIGHUP when interrupted
    std::optional<TrainReport> train;
    PapiReport papi;
    EnergyReport energy;
    SdeReport sde;
    std::optional<std::uint64_t> tasksExecuted; // StarPU's per-worker profiling, summed
    double wallSeconds = 0.0;                   // training + evaluation
    double totalSeconds = 0.0;           // including StarPU start-up and shutdown (trace flush)
    std::string startedAt;               // UTC, ISO 8601
    std::vector<std::string> traceFiles; // file names in the run folder
    std::vector<std::string> command;
    // A data-parallel run: every rank's figures, in rank order (empty: one process), and this
    // rank's file of weight checksums.
    std::vector<RankFigures> ranks;
    std::string weightsFile;
};

// The version of the StarPU record is linked with ("1.3.10"): the CNN's, and what a command
// run's run.json names as starscope's own.
std::string linkedStarpuVersion();

// Now in UTC, ISO 8601, as run.json's started_at.
std::string utcNow();

// libfxt's buffer flushes in the run's trace files, summed: what the tracing itself cost the
// run (run.json's starpu.fxt.flushes). nullopt when no file could be measured.
std::optional<tracer::run::FlushRecord> measureFlushes(const std::filesystem::path& folder,
                                                       const std::vector<std::string>& traceFiles);

// Every trace file of the run that is cut short (a full disk), each with the byte where it
// stops, joined with "; "; empty when every file is whole. All of them, not the first: after a
// full disk, each rank's file may be cut.
std::string cutTraceFiles(const std::filesystem::path& folder,
                          const std::vector<std::string>& traceFiles);

// Why the run's trace is cut, for a run.json marked failed; empty when it is whole. libfxt only
// prints a line when it cannot write the whole trace (a full disk) and goes on, and a cut can
// fall between two of its blocks: so a full file system counts as a cut too ("the trace in DIR
// may be cut short (the file system of DIR is full)").
std::string traceCutProblem(const std::filesystem::path& folder,
                            const std::vector<std::string>& traceFiles);

// The run.json content of a recorded run (StarPU's version is read from the library linked).
tracer::run::RunRecord runRecord(const RecordPlan& plan, const RecordedRun& run);

// Writes runRecord(plan, run) to path with the run model's writer.
WorkloadResult<Done> writeRunJson(const std::filesystem::path& path, const RecordPlan& plan,
                                  const RecordedRun& run);

// Writes text to path with the project's one writer (common/file_writer.hpp): a regular file
// is replaced atomically, a symlink followed, a FIFO or device written through.
WorkloadResult<Done> writeTextFile(const std::filesystem::path& path, const std::string& text);

} // namespace starscope::workloads
