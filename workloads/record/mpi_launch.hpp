#pragma once
// How record starts StarPU-MPI ranks on this machine, for the CNN (`record --ranks N`, which
// starts itself under mpirun) and for a user's program (`record --ranks N -- PROGRAM`, which
// starts the program under mpirun): one mpirun command line, one set of Open MPI settings, and
// one way of passing a stop signal on to the ranks.

#include "workloads/sigint_handler.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace starscope::workloads {

// `mpirun -np N --oversubscribe --bind-to none PROGRAM ARGS...`: more ranks than cores on one
// machine, no rank pinned to a core (they share them).
std::vector<std::string> mpirunCommand(int ranks, const std::vector<std::string>& program);

// Open MPI's documented settings for ranks on one machine, set in this process's environment
// (which mpirun passes on) only where the user set nothing: running as root, time for the ranks
// to write their traces when mpirun ends a job, StarPU's workers unbound.
void setMpirunDefaults();

// The processes mpirun started on this machine: its children (Open MPI 4.1 starts its local
// ranks itself, each in a process group of its own). Empty before it started them and after
// they ended.
std::vector<pid_t> ranksStartedBy(pid_t mpirun);

// What the ranks get when record gets a stop signal: the signal itself (record's own CNN ranks,
// which stop at a batch boundary on any of the three and report which one), or SIGTERM, the one
// signal Open MPI's mpirun sends its ranks (a user's program, written for mpirun; StarPU-MPI
// 1.3.10's own SIGINT handler, which writes the trace, hung both ranks of
// starpu_mpi_example_stencil5 in 2 tries out of 3 here).
enum class PassOn { TheSignal, AsSigterm };

// A rank's process as record saw it end: its rank (OMPI_COMM_WORLD_RANK; -1 unknown), and when,
// counted from the start of the wait.
struct RankEnd {
    int rank = -1;
    pid_t pid = 0;
    double endedAfterSeconds = 0.0;
};

// How a job ended: mpirun's wait status, and its ranks in the order their processes ended.
struct MpirunEnd {
    int status = 0;
    std::vector<RankEnd> ranks;
    // mpirun outlived every rank by more than mpirunGraceAfterRanks() and was killed (SIGKILL):
    // how long after the last rank's end, in seconds. Open MPI once left a SIGKILLed rank
    // unreaped and its mpirun waiting on a futex forever, long after the job.
    std::optional<double> mpirunKilledAfterSeconds;
};

// How long mpirun may outlive its last rank before record ends it. mpirun's own way of ending a
// job sleeps one odls_base_sigkill_timeout after its SIGCONT and one more after its SIGTERM
// before it sends SIGKILL and exits, even when every rank has already ended (a rank that exits
// non-zero because record's SIGTERM ended its peer starts that: mpirun exited 20 s after the
// ranks here). So twice that timeout (record's 10 s, or the user's
// OMPI_MCA_odls_base_sigkill_timeout) and a few seconds more.
std::chrono::seconds mpirunGraceAfterRanks();

// "mpirun had not ended N s after its last rank: record killed it (SIGKILL)", or empty.
std::string describeMpirunKill(const MpirunEnd& end);

// The rank whose process ended well before the others (killed, or failed), when one did: the
// one to name when a job ends early. mpirun ends the other ranks of such a job 10 s later; Open
// MPI ends the ranks of a killed mpirun all at once.
std::optional<RankEnd> rankThatEndedFirst(const MpirunEnd& end);

// Waits for mpirun (a child of this process) and its ranks, passing every stop signal counted in
// `stops` on to the ranks as it comes. Open MPI 4.1's mpirun would pass a SIGINT or SIGTERM on
// only after odls_base_sigkill_timeout (it sends SIGCONT at once, SIGTERM a timeout later, SIGKILL
// one more timeout later; measured: 10 s, 20 s), so record signals every rank itself, within a
// few milliseconds; each rank's process group gets it, as mpirun would send it. A signal that
// comes before mpirun started any rank goes to mpirun, which then ends the job before anything
// was recorded. Ranks that outlive mpirun (killed) become this process's children (it is their
// subreaper) and are waited for, a minute at most, so that what they write is there when this
// returns. An mpirun that outlives every rank it started by mpirunGraceAfterRanks() is killed,
// and its ranks left unreaped are reaped here: this never waits forever.
MpirunEnd waitForMpirun(pid_t mpirun, const StopSignals& stops, PassOn passOn);

// Makes this process the one that inherits its descendants when their parent dies: the ranks of
// an mpirun that was killed. Call before starting mpirun.
void adoptOrphanedRanks();

} // namespace starscope::workloads
