#pragma once
// Deterministic traces with the shape of a batched training loop, for render tests (exact,
// known positions) and for benchmarks (millions of spans) without recording a run. Test and
// benchmark support (the starscope_synthetic library, built with tests and benchmarks only):
// no shipped library carries it. Its names stay in the viewer's namespace, whose tests and
// benchmarks are its users.
//
// Batch b starts at b * period(). The main thread submits for submitNs, then waits for all
// tasks; workers sleep until the submission ends, then run their share of the batch's tasks,
// each preceded by overheadNs of Scheduling, and sleep once they are out of work. The batch
// ends when the last worker finishes; the main thread then spends the rest of the period in
// "Waiting task" (the arena reset), which is the barrier at every batch transition. A task's
// jitter is drawn from a hash of where it is (seed, batch, worker, position): both functions
// collect what SyntheticJob (synthetic_job.hpp) streams, which writes a job of any size into a
// native file without holding it.

#include "tracer/model/trace.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace starscope::viewer {

struct SyntheticOptions {
    int cpuWorkers = 4;
    int epochs = 1;
    int batchesPerEpoch = 4;
    int tasksPerWorker = 8;              // per batch
    tracer::TimeNs taskNs = 50'000;
    tracer::TimeNs overheadNs = 5'000;   // Scheduling before each task
    tracer::TimeNs submitNs = 20'000;
    tracer::TimeNs barrierNs = 400'000;  // from the batch end to the next batch start
    double jitter = 0.0;                 // task durations vary by up to +-jitter * taskNs
    // Each task waits for the one before it on its worker (the previous batch's last for the
    // first of a batch): a task graph of one chain per worker, as benchmarks of the critical path
    // and of a real job's size want. Off by default: tests' traces have none.
    bool dependencies = false;
    std::uint64_t seed = 1;
    std::vector<std::string> codelets{"conv_fwd", "conv_bwd", "dense_fwd", "dense_bwd"};

    tracer::TimeNs busyNs() const { return tasksPerWorker * (overheadNs + taskNs); }
    // Batch length without jitter: submission + the busiest worker + the barrier.
    tracer::TimeNs period() const;
};

tracer::Trace makeSyntheticTrace(const SyntheticOptions& options);

// A StarPU-MPI job of `ranks` processes (1 to 4) on one clock: rank r is makeSyntheticTrace
// with tasks r/4 longer (and a shorter barrier, so every rank's batch b still starts at
// b * period()), its lanes, markers and tasks carrying rank r (job ids (r << 48) + k, the base the
// FxT reader gives each rank's file, so that no two ranks share one at any size), plus
// an MPI communication thread lane. After each batch every rank r > 0 sends to rank 0 from its
// batch end for kSyntheticMessageNs, and rank 0 answers kSyntheticReplyDelayNs after that send
// began, for as long; the MPI lanes are "Progressing" while a message of theirs is in flight.
inline constexpr tracer::TimeNs kSyntheticMessageNs = 40'000;
inline constexpr tracer::TimeNs kSyntheticReplyDelayNs = 60'000;
tracer::Trace makeSyntheticRanksTrace(const SyntheticOptions& options, int ranks);

} // namespace starscope::viewer
