#include "workloads/cli/rank_launcher.hpp"

#include "tracer/run/run_record.hpp"
#include "workloads/record/mpi_launch.hpp"
#include "workloads/sigint_handler.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <ostream>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace starscope::workloads::cli {

namespace {

std::atomic<pid_t> g_launcher{0};
std::atomic<int> g_signals{0};
std::atomic<int> g_firstSignal{0};

// The ranks count the signals as `record` does (the first stops at a batch boundary, the third
// ends at once); this process says so once for all of them.
extern "C" void forwardStop(int signal) {
    const int count = g_signals.fetch_add(1) + 1;
    if (count == 1) {
        g_firstSignal.store(signal);
        writeFromHandler("\nstarscope record: ");
        writeFromHandler(stopSignalName(signal));
        writeFromHandler(": every rank stops after the batch in progress; StarPU then shuts down "
                         "and writes the traces, and run.json marks the run interrupted. A second "
                         "signal changes nothing; a third ends at once and loses the traces.\n");
    } else if (count == 2) {
        writeFromHandler("starscope record: still stopping: the ranks wait for the tasks already "
                         "submitted, then write their traces; one more signal ends at once and "
                         "loses the traces\n");
    }
    if (const pid_t pid = g_launcher.load(); pid > 0) {
        ::kill(pid, SIGTERM);
    }
}

// Rank 0 wrote run.json with the SIGTERM mpirun passed on: the run was interrupted by the
// user's signal, which is what the record keeps. Nothing to do when the ranks wrote no record
// or finished the run anyway.
bool markInterruptedBy(const std::filesystem::path& runJson, int signal, std::ostream& err) {
    if (!std::filesystem::exists(runJson)) {
        return false;
    }
    auto record = tracer::run::readRunRecord(runJson);
    if (!record) {
        err << "starscope record: " << record.error().describe() << "\n";
        return false;
    }
    if (record->status != tracer::run::RunStatus::Interrupted) {
        return false;
    }
    record->interruptedBy = stopSignalName(signal);
    if (auto written = tracer::run::writeRunRecord(runJson, *record); !written) {
        err << "starscope record: " << written.error().describe() << "\n";
    }
    return true;
}

// This process's own arguments, as the kernel holds them.
std::vector<std::string> ownArguments() {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::vector<std::string> args;
    for (std::string arg; std::getline(in, arg, '\0');) {
        args.push_back(arg);
    }
    return args;
}

} // namespace

int launchRanks(int ranks, const std::filesystem::path& runFolder, std::ostream& err) {
    auto args = ownArguments();
    if (args.empty()) {
        err << "starscope record: --ranks: cannot read this program's arguments from /proc/self/cmdline\n";
        return 2;
    }
    // This very binary, whatever PATH says.
    char self[4096] = {};
    const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
    std::vector<std::string> program{
        length > 0 ? std::string(self, static_cast<std::size_t>(length)) : args[0]};
    program.insert(program.end(), args.begin() + 1, args.end());
    auto command = mpirunCommand(ranks, program);
    setMpirunDefaults();
    ::setenv(kLaunchedRanksVariable, "1", 1);

    std::vector<char*> argv;
    for (auto& arg : command) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    // Its own process group: a Ctrl-C at the terminal reaches this process only, which passes
    // one SIGTERM on; mpirun would otherwise get it too and the ranks count two signals.
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    // Outside the terminal's foreground group, reading the terminal would stop mpirun.
    posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);

    const ScopedStopSignals signals(forwardStop);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, "mpirun", &files, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attributes);
    if (spawned != 0) {
        err << "starscope record: --ranks " << ranks << ": cannot start mpirun: "
            << std::strerror(spawned) << " (install Open MPI: apt-get install openmpi-bin)\n";
        return 2;
    }
    g_launcher.store(pid);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            g_launcher.store(0);
            err << "starscope record: waiting for mpirun failed: " << std::strerror(errno) << "\n";
            return 2;
        }
    }
    g_launcher.store(0);
    if (const int signal = g_firstSignal.load();
        signal != 0 && markInterruptedBy(runFolder / "run.json", signal, err)) {
        return exitCodeForSignal(signal);
    }
    if (WIFSIGNALED(status)) {
        return exitCodeForSignal(WTERMSIG(status));
    }
    return WEXITSTATUS(status);
}

} // namespace starscope::workloads::cli
