#include "workloads/record/launcher_stop_watch.hpp"

#include <atomic>
#include <csignal>
#include <unistd.h>

namespace starscope::workloads {

namespace {

std::atomic<void (*)(int)> g_stop{nullptr};
std::atomic<bool> g_suspended{false};
static_assert(std::atomic<void (*)(int)>::is_always_lock_free && std::atomic<bool>::is_always_lock_free,
              "the signal handlers need lock-free atomics");
struct sigaction g_previousContinue {};
struct sigaction g_previousSuspend {};

// SIGTSTP's own action is to stop the process: done here too, after noting it, so that the
// SIGCONT that follows is known for a resumption.
extern "C" void onSuspend(int) {
    g_suspended.store(true);
    ::raise(SIGSTOP);
}

extern "C" void onContinue(int, siginfo_t* info, void*) {
    if (g_suspended.exchange(false)) {
        return;
    }
    const auto stop = g_stop.load();
    if (stop != nullptr && info != nullptr && info->si_code == SI_USER && info->si_pid == ::getppid()) {
        stop(SIGTERM);
    }
}

} // namespace

LauncherStopWatch::LauncherStopWatch(void (*stop)(int)) {
    g_suspended.store(false);
    g_stop.store(stop);
    struct sigaction action {};
    sigemptyset(&action.sa_mask);
    // Not while the stop handler runs: it counts the signals and must see each once.
    for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
        sigaddset(&action.sa_mask, signal);
    }
    action.sa_sigaction = onContinue;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    ::sigaction(SIGCONT, &action, &g_previousContinue);
    action.sa_handler = onSuspend;
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGTSTP, &action, &g_previousSuspend);
}

LauncherStopWatch::~LauncherStopWatch() {
    ::sigaction(SIGCONT, &g_previousContinue, nullptr);
    ::sigaction(SIGTSTP, &g_previousSuspend, nullptr);
    g_stop.store(nullptr);
}

} // namespace starscope::workloads
