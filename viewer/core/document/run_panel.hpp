#pragma once
// The Run panel's lines: what the run was (strategy, scheduler, workers, StarPU version,
// status) from its run.json, and what it measured (times, tasks, hardware counters, energy),
// each figure or why it is n/a, as the recorder wrote it. Read through tracer/run's
// readRunRecord, never by looking keys up here, once per open: the trace loader reads the
// opened run with the trace, off the UI thread, and the window formats what it read.

#include "tracer/run_folder/run_record.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace starscope::viewer {

// The run an opened input belongs to: its folder's run.json as read when it was opened, or
// why there is none.
struct OpenedRun {
    std::optional<tracer::run::RunRecord> record;
    std::string problem;   // without a record: no run.json in that folder, or the reader's error

    bool operator==(const OpenedRun&) const = default;
};

// inputs: what was opened (a run folder, or trace files: a prof file of a run folder, or the
// prof files of one job, belong to the run whose run.json is in the first one's folder).
OpenedRun readOpenedRun(const std::vector<std::filesystem::path>& inputs);

struct RunPanelRow {
    std::string label;
    std::string value;

    bool operator==(const RunPanelRow&) const = default;
};

// Without a record, the single row says why.
std::vector<RunPanelRow> runPanelRows(const OpenedRun& run);

} // namespace starscope::viewer
