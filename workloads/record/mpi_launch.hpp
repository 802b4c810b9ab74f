#pragma once
// How record starts StarPU-MPI ranks on this machine, for the CNN (`record --ranks N`, which
// starts itself under mpirun) and for a user's program (`record --ranks N -- PROGRAM`, which
// starts the program under mpirun): one mpirun command line and one set of Open MPI settings.

#include <string>
#include <vector>

namespace starscope::workloads {

// `mpirun -np N --oversubscribe --bind-to none PROGRAM ARGS...`: more ranks than cores on one
// machine, no rank pinned to a core (they share them).
std::vector<std::string> mpirunCommand(int ranks, const std::vector<std::string>& program);

// Open MPI's documented settings for ranks on one machine, set in this process's environment
// (which mpirun passes on) only where the user set nothing: running as root, a SIGTERM
// forwarded with time for the ranks to write their traces, StarPU's workers unbound.
void setMpirunDefaults();

} // namespace starscope::workloads
