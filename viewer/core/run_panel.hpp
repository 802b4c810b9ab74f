#pragma once
// The Run panel's lines: what the run was (strategy, scheduler, workers, StarPU version,
// status) from its run.json, and what it measured (times, tasks, hardware counters, energy),
// each figure or why it is n/a, as the recorder wrote it. Read through tracer/run's
// readRunRecord, never by looking keys up here; small enough to read on the UI thread.

#include <filesystem>
#include <string>
#include <vector>

namespace starscope::viewer {

struct RunPanelRow {
    std::string label;
    std::string value;

    bool operator==(const RunPanelRow&) const = default;
};

// input: what was opened (a run folder, or a trace file: then its folder is looked at for a
// run.json). Without a readable run.json the single row says why.
std::vector<RunPanelRow> runPanelRows(const std::filesystem::path& input);

} // namespace starscope::viewer
