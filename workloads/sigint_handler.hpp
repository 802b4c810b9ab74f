#pragma once
// The signals that ask record and sweep to stop (Ctrl-C, SIGTERM from a service manager or
// `kill`, SIGHUP when the terminal goes away): one handler for all three for a scope, the
// previous ones put back afterwards, so neither command leaves its handler behind for the code
// that follows. record stops at a batch boundary, sweep after the current run. A signal the
// caller ignores (`nohup` ignores SIGHUP, a shell's `&` SIGINT) stays ignored: no handler is
// installed for it, and the programs record starts inherit it ignored.

#include <atomic>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>
#include <unistd.h>

namespace starscope::workloads {

inline constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

// "SIGINT", "SIGTERM", "SIGHUP" (async-signal-safe: a literal).
inline const char* stopSignalName(int signal) {
    switch (signal) {
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    case SIGHUP:
        return "SIGHUP";
    default:
        return "a signal";
    }
}

// "SIGINT" -> SIGINT, and so on for the three; 0 for any other name.
inline int stopSignalNumber(std::string_view name) {
    for (const int signal : kStopSignals) {
        if (name == stopSignalName(signal)) {
            return signal;
        }
    }
    return 0;
}

// The stop signals a launcher got, as its signal handler counts them (lock-free atomics only),
// for the code that passes them on outside the handler.
struct StopSignals {
    std::atomic<int> count{0};
    std::atomic<int> first{0};
    std::atomic<int> last{0};
    static_assert(std::atomic<int>::is_always_lock_free, "signal handlers need lock-free atomics");

    // From the handler: returns how many came, this one included.
    int note(int signal) {
        last.store(signal);
        int none = 0;
        first.compare_exchange_strong(none, signal);
        return count.fetch_add(1) + 1;
    }
    void reset() {
        count.store(0);
        first.store(0);
        last.store(0);
    }
};

// Set by `record --ranks N` for the ranks it starts: it tells the user about the stop signals
// itself, once, so the ranks keep quiet about the signal it passes on to them, and it reports the
// job's end (from run.json), so an interrupted rank exits 0 rather than make mpirun end the job.
inline constexpr const char* kLaunchedRanksVariable = "STARSCOPE_LAUNCHED_RANKS";

// Any signal's name: "SIGKILL" for 9.
inline std::string signalName(int signal) {
    const char* abbreviation = ::sigabbrev_np(signal);
    return abbreviation != nullptr ? std::string("SIG") + abbreviation
                                   : "signal " + std::to_string(signal);
}

// What a shell reports for a process ended by that signal: 130, 143, 129.
inline int exitCodeForSignal(int signal) {
    return 128 + signal;
}

// Writes text to stderr from a signal handler (write(2) is async-signal-safe, streams are not).
inline void writeFromHandler(const char* text) {
    [[maybe_unused]] const auto written = ::write(STDERR_FILENO, text, std::strlen(text));
}

// Once a run is written (trace and run.json), a stop signal has nothing left to stop: the
// process is only exiting, which LeakSanitizer's scan or a slow MPI_Finalize can make last. It
// must not then end "by SIGINT" while run.json says how the run ended, so the first is let go;
// a second still ends the process at once, as a second Ctrl-C does anywhere.
extern "C" inline void onSignalAfterTheRun(int signal) {
    static std::atomic<int> count{0};
    if (count.fetch_add(1) > 0) {
        std::signal(signal, SIG_DFL);
        std::raise(signal);
    }
}

class ScopedStopSignals {
public:
    explicit ScopedStopSignals(void (*handler)(int)) {
        struct sigaction action {};
        action.sa_handler = handler;
        install(action);
    }
    // A handler that needs to know who sent the signal (si_code SI_KERNEL: the terminal, which
    // signals its whole foreground process group; SI_USER: kill(2) to this process alone).
    explicit ScopedStopSignals(void (*handler)(int, siginfo_t*, void*)) {
        struct sigaction action {};
        action.sa_sigaction = handler;
        action.sa_flags = SA_SIGINFO;
        install(action);
    }
    ~ScopedStopSignals() {
        for (std::size_t i = 0; i < std::size(kStopSignals); ++i) {
            if (m_after != nullptr && !ignored(m_previous[i])) {
                struct sigaction after {};
                after.sa_handler = m_after;
                blockStopSignalsIn(after);
                ::sigaction(kStopSignals[i], &after, nullptr);
            } else {
                ::sigaction(kStopSignals[i], &m_previous[i], nullptr);
            }
        }
        ::sigaction(SIGPIPE, &m_previousPipe, nullptr);
    }
    ScopedStopSignals(const ScopedStopSignals&) = delete;
    ScopedStopSignals& operator=(const ScopedStopSignals&) = delete;

    // On leaving the scope, installs handler instead of putting the previous ones back, with no
    // moment in between: for work that is done (a run whose trace and run.json are written), a
    // signal that comes while the process exits must not end it as if it had been stopped.
    void leaveBehind(void (*handler)(int)) { m_after = handler; }

    // Whether the caller ignored `signal` (a stop signal or SIGPIPE) when the scope began: a
    // program started from here must get it ignored too, not reset to its default action.
    bool callerIgnores(int signal) const {
        if (signal == SIGPIPE) {
            return ignored(m_previousPipe);
        }
        for (std::size_t i = 0; i < std::size(kStopSignals); ++i) {
            if (kStopSignals[i] == signal) {
                return ignored(m_previous[i]);
            }
        }
        return false;
    }

private:
    static bool ignored(const struct sigaction& action) {
        return (action.sa_flags & SA_SIGINFO) == 0 && action.sa_handler == SIG_IGN;
    }
    static void blockStopSignalsIn(struct sigaction& action) {
        sigemptyset(&action.sa_mask);
        // One handler at a time: the count of signals it keeps stays exact.
        for (const int signal : kStopSignals) {
            sigaddset(&action.sa_mask, signal);
        }
    }
    void install(struct sigaction& action) {
        blockStopSignalsIn(action);
        for (std::size_t i = 0; i < std::size(kStopSignals); ++i) {
            ::sigaction(kStopSignals[i], nullptr, &m_previous[i]);
            if (!ignored(m_previous[i])) {
                ::sigaction(kStopSignals[i], &action, nullptr);
            }
        }
        // With stderr on a pipe whose reader died (a closed terminal's `| tee`), a progress line
        // would raise SIGPIPE and end the process before the trace is written.
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        sigemptyset(&ignore.sa_mask);
        ::sigaction(SIGPIPE, &ignore, &m_previousPipe);
    }

    struct sigaction m_previous[std::size(kStopSignals)]{};
    struct sigaction m_previousPipe {};
    void (*m_after)(int) = nullptr;
};

} // namespace starscope::workloads
