#include "workloads/record/mpi_presence.hpp"

#include <cstdlib>
#include <initializer_list>

namespace starscope::workloads {

bool startedByMpiLauncher() {
    // Open MPI's mpirun, then PMI and PMIx launchers (MPICH's mpiexec, Slurm's srun).
    for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
        if (std::getenv(variable) != nullptr) {
            return true;
        }
    }
    return false;
}

} // namespace starscope::workloads
