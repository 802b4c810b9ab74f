#pragma once
// What a rank keeps when its job is ended under it. FxT holds a rank's trace in memory until
// StarPU shuts down, and a rank whose peer died can never shut down cleanly: it waits in the
// ranks' stop agreement or for a message that will not come. When mpirun ends such a job (a rank
// killed, or one that failed) it sends the others SIGCONT, then SIGTERM a timeout later, then
// SIGKILL one more timeout later (10 s each with record's settings). A rank that gets that SIGTERM
// before it began shutting StarPU down writes what FxT holds into its prof file (libfxt's
// fut_endup, as StarPU's own SIGINT handler does) and exits, instead of losing everything to the
// SIGKILL. The same when mpirun itself is gone (killed): Open MPI ends its ranks with _exit one
// second later (measured), so a rank asks the kernel for a signal when its parent dies
// (PR_SET_PDEATHSIG) and writes its trace then. The trace so far reads like any other: up to the
// moment it was written.

#include <filesystem>

namespace starscope::workloads {

class TraceRescue {
public:
    // profFile: the file StarPU writes this rank's trace to; rank: for the message.
    TraceRescue(std::filesystem::path profFile, int rank);
    // Disarms and stops the rescuing thread.
    ~TraceRescue();
    TraceRescue(const TraceRescue&) = delete;
    TraceRescue& operator=(const TraceRescue&) = delete;

    // StarPU's shutdown is about to write the trace: from now on there is nothing to rescue.
    void disarm();

    // From a signal handler: writes the trace and ends the process with `exitCode`, on a thread
    // of its own (libfxt's writer is not async-signal-safe). False when no rescue is armed.
    static bool requestFromHandler(int exitCode);
};

// The prof file StarPU writes for `rank` into `folder`: prof_file_$USER_RANK (STARPU_FXT_SUFFIX,
// which would rename it, is refused by record).
std::filesystem::path rankProfFile(const std::filesystem::path& folder, int rank);

} // namespace starscope::workloads
