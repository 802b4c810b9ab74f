#include "workloads/record/mpi_launch.hpp"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <signal.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace starscope::workloads {

namespace {

void setDefault(const char* name, const char* value) {
    ::setenv(name, value, 0);
}

// How often waitForMpirun looks at its signals and at mpirun: a stop reaches the ranks within
// this (a batch of the CNN takes 40 ms or more).
constexpr auto kPollInterval = std::chrono::milliseconds(10);

// Sends a signal to a rank the way mpirun does: to its process group when it leads one (a
// program's own children get it too), else to the process.
void signalRank(pid_t rank, int signal) {
    if (::getpgid(rank) == rank) {
        ::kill(-rank, signal);
    } else {
        ::kill(rank, signal);
    }
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
    // When mpirun ends a job (a signal of its own, a rank that failed), it sends SIGTERM one
    // timeout after SIGCONT and SIGKILL one more timeout later; the default of one second is too
    // soon for a rank to finish its batch and write its trace. mpirun also waits this long
    // whenever a rank exits non-zero, so it stays short.
    setDefault("OMPI_MCA_odls_base_sigkill_timeout", "10");
    // Ranks on one machine share its cores: StarPU must not pin every rank's workers to the
    // same first cores.
    setDefault("STARPU_WORKERS_NOBIND", "1");
}

std::vector<pid_t> ranksStartedBy(pid_t mpirun) {
    std::vector<pid_t> ranks;
    std::error_code ec;
    const std::filesystem::path tasks = "/proc/" + std::to_string(mpirun) + "/task";
    // Any of mpirun's threads may have started a rank: each lists its own children.
    for (const auto& task : std::filesystem::directory_iterator(tasks, ec)) {
        std::ifstream in(task.path() / "children");
        for (pid_t pid = 0; in >> pid;) {
            ranks.push_back(pid);
        }
    }
    return ranks;
}

int waitForMpirun(pid_t mpirun, const StopSignals& stops, PassOn passOn) {
    int passedOn = 0;
    while (true) {
        int status = 0;
        const pid_t ended = ::waitpid(mpirun, &status, WNOHANG);
        if (ended == mpirun || (ended < 0 && errno != EINTR)) {
            return status;
        }
        // Until mpirun is reaped its pid is not reused: its children are the job's ranks.
        for (const int count = stops.count.load(); passedOn < count; ++passedOn) {
            const int signal = passOn == PassOn::AsSigterm ? SIGTERM : stops.last.load();
            const auto ranks = ranksStartedBy(mpirun);
            if (ranks.empty()) {
                ::kill(mpirun, signal);
            }
            for (const pid_t rank : ranks) {
                signalRank(rank, signal);
            }
        }
        std::this_thread::sleep_for(kPollInterval);
    }
}

} // namespace starscope::workloads
