#pragma once
// The sweep's summary: per run, the figures of run.json and of the trace (through the
// tracer's analysis, with the same barrier threshold as `starscope stats` and `compare`).

#include "workloads/sweep/sweep.hpp"

namespace starscope::workloads {

SweepRow measureRun(const SweepRun& run, std::size_t order, SweepAction action);

// summary.csv and summary.json in dir, each written atomically.
WorkloadResult<Done> writeSummary(const std::filesystem::path& dir,
                                  const std::vector<SweepRow>& rows);

} // namespace starscope::workloads
