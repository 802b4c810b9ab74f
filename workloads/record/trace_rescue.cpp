#include "workloads/record/trace_rescue.hpp"

#include "tracer/run_folder/run_folder.hpp"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <csignal>
#include <semaphore.h>
#include <sys/prctl.h>
#include <string>
#include <thread>
#include <unistd.h>

extern "C" {
#include <fxt/fut.h>
}

namespace starscope::workloads {

namespace {

// One rescue per process: the handler reaches it through these (lock-free, async-signal-safe).
sem_t g_wake;
std::atomic<bool> g_armed{false};
std::atomic<bool> g_requested{false};
std::atomic<int> g_exitCode{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "the signal handler needs lock-free atomics");

} // namespace

namespace {

std::thread g_thread;

void rescue(const std::filesystem::path& file, int rank) {
    while (::sem_wait(&g_wake) != 0) {
    }
    if (!g_requested.load() || !g_armed.exchange(false)) {
        return; // woken to stop
    }
    std::fprintf(stderr,
                 "starscope record: rank %d: mpirun is ending the job or is gone, and this rank "
                 "cannot stop at a batch boundary; writing its trace so far to %s\n",
                 rank, file.c_str());
    const auto written = fut_endup(file.c_str());
    if (static_cast<std::int64_t>(written) < 0) {
        std::fprintf(stderr, "starscope record: rank %d: FxT could not write %s\n", rank, file.c_str());
    }
    std::fflush(stderr);
    ::_exit(g_exitCode.load());
}

// Not one Open MPI's mpirun passes on to its ranks (SIGTSTP, SIGUSR1, SIGUSR2, SIGABRT,
// SIGALRM, SIGCONT), nor one StarPU or Open MPI use.
int launcherGoneSignal() { return SIGRTMIN + 3; }

std::atomic<pid_t> g_launcher{0};
struct sigaction g_previousGone {};

extern "C" void onLauncherGone(int) {
    // Only when the parent is really gone (the kernel also sends it when mpirun's spawning
    // thread ends, which is its main thread here; a stray signal must not end the rank).
    if (::getppid() != g_launcher.load()) {
        TraceRescue::requestFromHandler(1);
    }
}

} // namespace

TraceRescue::TraceRescue(std::filesystem::path profFile, int rank) {
    ::sem_init(&g_wake, 0, 0);
    g_requested.store(false);
    g_armed.store(true);
    g_thread = std::thread(rescue, std::move(profFile), rank);
    g_launcher.store(::getppid());
    struct sigaction action {};
    sigemptyset(&action.sa_mask);
    action.sa_handler = onLauncherGone;
    ::sigaction(launcherGoneSignal(), &action, &g_previousGone);
    ::prctl(PR_SET_PDEATHSIG, launcherGoneSignal());
    // Gone already, before the request: the kernel sends nothing then.
    if (::getppid() != g_launcher.load()) {
        requestFromHandler(1);
    }
}

TraceRescue::~TraceRescue() {
    ::prctl(PR_SET_PDEATHSIG, 0);
    ::sigaction(launcherGoneSignal(), &g_previousGone, nullptr);
    disarm();
    ::sem_post(&g_wake);
    g_thread.join();
    ::sem_destroy(&g_wake);
}

void TraceRescue::disarm() { g_armed.store(false); }

bool TraceRescue::requestFromHandler(int exitCode) {
    if (!g_armed.load()) {
        return false;
    }
    g_exitCode.store(exitCode);
    g_requested.store(true);
    ::sem_post(&g_wake);
    return true;
}

std::filesystem::path rankProfFile(const std::filesystem::path& folder, int rank) {
    const char* user = std::getenv("USER");
    return folder / tracer::run::profFileName(user != nullptr ? user : "", static_cast<std::uint64_t>(rank));
}

} // namespace starscope::workloads
