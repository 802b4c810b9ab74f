#pragma once
// What any recording asks of MPI before it starts: whether this process is one rank of a job
// an MPI launcher started. Asks the environment only, so it links no MPI.

namespace starscope::workloads {

// Whether this process was started by an MPI launcher (mpirun, srun): then it is one rank of
// a job even when --ranks was not given.
bool startedByMpiLauncher();

} // namespace starscope::workloads
