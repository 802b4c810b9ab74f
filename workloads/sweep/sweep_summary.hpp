#pragma once
// The sweep's summary: per run, the figures of run.json and of the trace (through the
// tracer's analysis, with the same barrier threshold as `starscope stats` and `compare`).

#include "tracer/run_folder/sweep_summary_record.hpp"
#include "workloads/sweep/sweep.hpp"

namespace starscope::workloads {

// The run's summary row: its status and note from run.json, its figures measured on its trace
// (absent, with the reason in the note, when it has none).
SweepRow summarizeRun(const SweepRun& run, std::size_t order, SweepAction action);

// The rows as the run folder's typed summary, a figure per metric of the run model's table.
tracer::run::SweepSummary sweepSummary(const std::vector<SweepRow>& rows);

// summary.csv and summary.json in dir, each written atomically by the run folder's writer.
WorkloadResult<Done> writeSummary(const std::filesystem::path& dir,
                                  const std::vector<SweepRow>& rows);

} // namespace starscope::workloads
