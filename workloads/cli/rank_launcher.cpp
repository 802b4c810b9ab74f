#include "workloads/cli/rank_launcher.hpp"

#include "tracer/readers/read_trace.hpp"
#include "tracer/run_folder/run_folder.hpp"
#include "tracer/run_folder/run_record.hpp"
#include "workloads/record/lost_job.hpp"
#include "workloads/record/mpi_launch.hpp"
#include "workloads/sigint_handler.hpp"
#include "workloads/train_record/run_json.hpp"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <optional>
#include <ostream>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace starscope::workloads::cli {

namespace {

StopSignals g_stops;

// The ranks count the signals as `record` does (the first stops at a batch boundary, the third
// ends at once); this process says so once for all of them, and waitForMpirun passes each on.
extern "C" void onLauncherSignal(int signal) {
    const int count = g_stops.note(signal);
    if (count == 1) {
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
}

// The job's end as rank 0 recorded it, as an exit code; nullopt without a readable run.json
// written since `launched` (an earlier run's stays when rank 0 refused the folder).
std::optional<int> exitCodeOfRecord(const std::filesystem::path& runJson,
                                    std::filesystem::file_time_type launched, std::ostream& err) {
    std::error_code ec;
    if (const auto written = std::filesystem::last_write_time(runJson, ec); ec || written < launched) {
        return std::nullopt;
    }
    const auto record = tracer::run::readRunRecord(runJson);
    if (!record) {
        err << "starscope record: " << record.error().describe() << "\n";
        return std::nullopt;
    }
    switch (record->status) {
    case tracer::run::RunStatus::Completed: return 0;
    case tracer::run::RunStatus::Interrupted: {
        const int signal = stopSignalNumber(record->interruptedBy);
        return exitCodeForSignal(signal != 0 ? signal : SIGINT);
    }
    case tracer::run::RunStatus::Failed:
    case tracer::run::RunStatus::NotRun: break;
    }
    return 1;
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

int launchRanks(int ranks, const RecordPlan& plan, std::ostream& err) {
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
    // Its own process group: a Ctrl-C at the terminal reaches this process only, which passes it
    // on to the ranks; mpirun would otherwise get it too and end the job on its own schedule
    // (SIGTERM to the ranks 10 s later, SIGKILL 10 s after that).
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    // Outside the terminal's foreground group, reading the terminal would stop mpirun.
    posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);

    g_stops.reset();
    const ScopedStopSignals signals(onLauncherSignal);
    const auto launched = std::filesystem::file_time_type::clock::now();
    const auto startedAt = utcNow();
    const auto start = std::chrono::steady_clock::now();
    adoptOrphanedRanks();
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, "mpirun", &files, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attributes);
    if (spawned != 0) {
        err << "starscope record: --ranks " << ranks << ": cannot start mpirun: "
            << std::strerror(spawned) << " (install Open MPI: apt-get install openmpi-bin)\n";
        return 2;
    }
    const auto end = waitForMpirun(pid, g_stops, PassOn::TheSignal);
    const auto runJson = tracer::run::RunFolder(plan.outDir).runJson();
    if (const auto code = exitCodeOfRecord(runJson, launched, err)) {
        return *code;
    }
    // The ranks refused their options or the folder, or StarPU did not start: they said why.
    if (!WIFSIGNALED(end.status) && WEXITSTATUS(end.status) == 2) {
        return 2;
    }
    const bool traced = std::filesystem::exists(plan.outDir) && !tracer::run::findProfFiles(plan.outDir).empty();
    // Stopped before any rank recorded anything.
    if (const int signal = g_stops.first.load(); signal != 0 && !traced) {
        return exitCodeForSignal(signal);
    }
    const auto what = describeLostJob(plan.outDir, ranks, end);
    err << "starscope record: " << what << "\n";
    if (!std::filesystem::is_directory(plan.outDir)) {
        return 1;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (auto written = recordLostJob(plan, ranks, what, startedAt, seconds); !written) {
        err << "starscope record: " << written.error().describe() << "\n";
    } else {
        err << "starscope record: run.json marks the run failed: " << runJson.string() << "\n";
    }
    return 1;
}

} // namespace starscope::workloads::cli
