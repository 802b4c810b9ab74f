#pragma once
// Runs a planned recording: creates and checks the run folder, configures StarPU's FxT tracing
// through its environment (prefix = run folder, buffer sized for the whole run), trains, shuts
// StarPU down (which writes the trace) and writes run.json. Ctrl-C stops at the next batch
// boundary and the run is kept, marked interrupted; SIGTERM and SIGHUP do the same.

#include "workloads/train_record/rank_group.hpp"
#include "workloads/train_record/record_plan.hpp"
#include "workloads/train_record/run_json.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace starscope::workloads {

struct RecordOutcome {
    tracer::run::RunStatus status = tracer::run::RunStatus::Failed;
    std::filesystem::path runJson;
    RecordedRun record;
};

// How record shows its progress: none, one line redrawn on a terminal, or whole lines for a log
// (a file, a pipe, mpirun's forwarding): one at the start, one at the first finished batch (the
// training is under way), then one every kLogProgressSeconds and at each epoch's end.
enum class ProgressStyle { None, Terminal, Lines };
inline constexpr int kLogProgressSeconds = 10;

// Errors returned here happen before StarPU starts (the run folder cannot be created or
// written) and leave nothing behind. Failures after that are reported in the outcome, with a
// run.json marked failed. Progress goes to `progress` in the given style.
// With a rank group (a data-parallel run under mpirun), every rank records its shard and its
// own prof file into the one run folder, and only rank 0 writes run.json.
WorkloadResult<RecordOutcome> executeRecord(RecordPlan& plan,
                                            const std::vector<std::string>& command,
                                            std::ostream& progress, ProgressStyle style,
                                            RankGroup* group = nullptr);

// 0 completed, 128 + the signal when interrupted (as a shell reports it: 130 for SIGINT, 143
// for SIGTERM, 129 for SIGHUP), 1 failed.
int exitCodeFor(const RecordOutcome& outcome);

} // namespace starscope::workloads
