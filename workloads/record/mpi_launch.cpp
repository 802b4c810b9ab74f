#include "workloads/record/mpi_launch.hpp"

#include <cstdlib>
#include <unistd.h>

namespace starscope::workloads {

namespace {

void setDefault(const char* name, const char* value) {
    ::setenv(name, value, 0);
}

} // namespace

std::vector<std::string> mpirunCommand(int ranks, const std::vector<std::string>& program) {
    std::vector<std::string> command{"mpirun", "-np", std::to_string(ranks),
                                     // more ranks than cores on one machine
                                     "--oversubscribe",
                                     // the ranks share the cores: no rank pinned to one
                                     "--bind-to", "none"};
    command.insert(command.end(), program.begin(), program.end());
    return command;
}

void setMpirunDefaults() {
    if (::geteuid() == 0) {
        // Open MPI refuses to run as root without both.
        setDefault("OMPI_ALLOW_RUN_AS_ROOT", "1");
        setDefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
    // After forwarding a SIGTERM, mpirun kills the ranks one second later by default: too
    // soon for them to finish their batch and write their traces. mpirun also waits this long
    // whenever a rank exits non-zero (even when every rank has exited), so it stays short.
    setDefault("OMPI_MCA_odls_base_sigkill_timeout", "10");
    // Ranks on one machine share its cores: StarPU must not pin every rank's workers to the
    // same first cores.
    setDefault("STARPU_WORKERS_NOBIND", "1");
}

} // namespace starscope::workloads
