#pragma once
// What `record` measured, and the run.json it makes of it: the measurements are turned into the
// run model's RunRecord (tracer/run_folder/run_record.hpp) and written by the model's one writer,
// atomically (temp file + fsync + rename), so a reader never sees half a file and record
// writes exactly what compare, sweep and the viewer read.

#include "tracer/run_folder/run_record.hpp"
#include "workloads/record/run_files.hpp"
#include "workloads/train/trainer.hpp"
#include "workloads/train_record/counters.hpp"
#include "workloads/train_record/rank_group.hpp"
#include "workloads/train_record/record_plan.hpp"

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

// The run.json content of a recorded run (StarPU's version is read from the library linked).
tracer::run::RunRecord runRecord(const RecordPlan& plan, const RecordedRun& run);

// Writes runRecord(plan, run) to path with the run model's writer.
WorkloadResult<Done> writeRunJson(const std::filesystem::path& path, const RecordPlan& plan,
                                  const RecordedRun& run);

// Writes the run folder's run.json for a job of `record --ranks N` lost before rank 0 wrote it
// (lost_job.hpp): status failed with `what` as its error, the trace files there are, `ranks` ranks.
WorkloadResult<Done> recordLostJob(const RecordPlan& plan, int ranks, const std::string& what,
                                   const std::string& startedAt, double seconds);

} // namespace starscope::workloads
