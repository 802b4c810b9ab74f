#pragma once
// A job of `record --ranks N` that ended before rank 0 wrote run.json: a rank was killed (its
// peers can never agree on a stop again, so they keep their traces only when mpirun ends the
// job: TraceRescue), mpirun was killed, or a rank failed so early that nothing was written.
// Launched by record, the job is record's to report: what happened in words, and a run.json
// marked failed that says the same, beside whatever traces the ranks left.

#include "workloads/error.hpp"
#include "workloads/record/mpi_launch.hpp"

#include <filesystem>
#include <string>

namespace starscope::workloads {

// How mpirun ended, the rank that ended first while the others still ran (the one killed or
// failed), and each rank's trace in the run folder: kept, cut short (where) or missing.
std::string describeLostJob(const std::filesystem::path& runFolder, int ranks, const MpirunEnd& end);

} // namespace starscope::workloads
