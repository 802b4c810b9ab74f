#pragma once
// `starscope sweep --out DIR [--repeat N] [--vary NAME=a,b,c] -- PROGRAM [ARGS...]`: the runs
// of a sweep over a user's program. Each is `starscope record --out RUN --force -- PROGRAM
// ARGS`, its folder `<program>-r<k>` (`<program>-<value>-r<k>` when varying), interleaved as the
// CNN's strategies are (repetition 0 of every value, then repetition 1, ...).

#include "workloads/sweep/sweep.hpp"

namespace starscope::workloads {

// Checks the program and --vary and fills plan.runs and plan.configuration's program and vary
// (what a resume must repeat, with the environment planSweep adds). plan.dir is set. Writes
// nothing.
WorkloadResult<Done> planProgramRuns(const SweepOptions& options, SweepPlan& plan);

} // namespace starscope::workloads
