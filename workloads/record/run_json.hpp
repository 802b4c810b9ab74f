#pragma once
// run.json: what a recorded run was (strategy, dataset, parameters, StarPU and FxT settings)
// and what it measured (times, loss/accuracy per epoch, test accuracy, tasks, counters, arena
// peaks), written atomically (temp file + fsync + rename) so a reader never sees half a file.

#include "workloads/record/counters.hpp"
#include "workloads/record/record_plan.hpp"
#include "workloads/train/trainer.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace starscope::workloads {

inline constexpr int kRunJsonVersion = 1;

struct RunRecord {
    std::string status = "failed"; // completed | interrupted | failed
    std::string error;             // why, when failed
    int interruptSignal = 0;       // SIGINT, SIGTERM or SIGHUP when interrupted
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
};

nlohmann::json runJson(const RecordPlan& plan, const RunRecord& record);

// Writes text to path with the project's one writer (common/file_writer.hpp): a regular file
// is replaced atomically, a symlink followed, a FIFO or device written through.
WorkloadResult<Done> writeTextFile(const std::filesystem::path& path, const std::string& text);

} // namespace starscope::workloads
