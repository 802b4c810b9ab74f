#pragma once
// `starscope record --ranks N` outside an MPI launcher: runs `mpirun -np N` of this same
// program with the same arguments on this machine (oversubscribed when N exceeds the cores),
// and waits for it. On a cluster, users run `mpirun -np N --hostfile H starscope record ...`
// themselves and this is not used.

#include "workloads/train_record/record_plan.hpp"

#include <iosfwd>

namespace starscope::workloads::cli {

// What the job's run.json in the plan's run folder says as an exit code (0 completed, 128 + the
// signal that interrupted it, 1 failed); 2 when mpirun cannot be started. A SIGINT, SIGTERM or
// SIGHUP received meanwhile is passed on to every rank at once (waitForMpirun); the ranks then
// stop at the next batch boundary, write their traces, and run.json says which signal
// interrupted the run. A job that ended without rank 0's run.json (a rank or mpirun killed) is
// said in words and recorded as failed (lost_job.hpp): exit 1.
int launchRanks(int ranks, const RecordPlan& plan, std::ostream& err);

} // namespace starscope::workloads::cli
