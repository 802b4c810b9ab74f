#pragma once
// How a rank hears that its launcher is ending the job. Open MPI 4.1's mpirun ends a job (on a
// SIGINT or SIGTERM of its own, or when a rank failed or died) by sending every rank SIGCONT at
// once, SIGTERM one odls_base_sigkill_timeout later (record sets 10 s) and SIGKILL one more
// timeout later (measured on this machine). The SIGCONT is the only prompt word a rank gets, so
// while a watch lives, a SIGCONT from the rank's parent counts as the SIGTERM to come: the rank
// stops at the next batch boundary instead of 10 s later. A SIGCONT that resumes a rank after a
// SIGTSTP (mpirun passes both on to its ranks) is only that.

namespace starscope::workloads {

class LauncherStopWatch {
public:
    // `stop` is the handler of the stop signals; it is given SIGTERM.
    explicit LauncherStopWatch(void (*stop)(int));
    ~LauncherStopWatch();
    LauncherStopWatch(const LauncherStopWatch&) = delete;
    LauncherStopWatch& operator=(const LauncherStopWatch&) = delete;
};

} // namespace starscope::workloads
