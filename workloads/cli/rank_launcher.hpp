#pragma once
// `starscope record --ranks N` outside an MPI launcher: runs `mpirun -np N` of this same
// program with the same arguments on this machine (oversubscribed when N exceeds the cores),
// and waits for it. On a cluster, users run `mpirun -np N --hostfile H starscope record ...`
// themselves and this is not used.

#include <filesystem>
#include <iosfwd>

namespace starscope::workloads::cli {

// mpirun's exit code, or 128 + the signal that ended it; 2 when it cannot be started. A
// SIGINT, SIGTERM or SIGHUP received meanwhile is passed on to mpirun as SIGTERM (the only stop
// signal Open MPI forwards), which it sends to every rank; the ranks then stop at the next
// batch and write their traces. The signal the user sent is what the job reports: run.json in
// runFolder says it interrupted the run, and the exit code is 128 + its number.
int launchRanks(int ranks, const std::filesystem::path& runFolder, std::ostream& err);

} // namespace starscope::workloads::cli
