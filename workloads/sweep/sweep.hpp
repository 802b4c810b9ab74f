#pragma once
// `starscope sweep`: records every arena x loader strategy on every rank count (--ranks),
// --repeat times, into one folder.
// planSweep() checks every option (each run goes through planRecord) and writes nothing;
// executeSweep() records the runs in interleaved order (repetition 0 of every strategy, then
// repetition 1, ...) so that machine drift spreads over all strategies, skips runs that an
// earlier sweep completed, and writes summary.csv and summary.json.
//
// Each run is `starscope record` in a child process of the same executable: a fresh process
// per run gives every strategy the same cold start (StarPU, FxT buffer, allocator), and a
// crashing run cannot take the sweep down.

#include "tracer/run/run_figures.hpp"
#include "tracer/run_folder/sweep_record.hpp"
#include "workloads/error.hpp"
#include "workloads/train_record/record_plan.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starscope::workloads {

struct SweepOptions {
    RecordOptions record; // passed to every run; its arenas, loader, out and force are unused
    std::string out;
    std::size_t repeat = 1;
    std::string arenas = "single,double";
    std::string loaders = "naive,prefetch,advanced,double-prefetch";
    std::string ranks = "1";          // StarPU-MPI rank counts, each run `record --ranks N`
    std::filesystem::path executable; // empty: this process's own executable
    // A user's program instead of the CNN (after `--`): every run is `record -- PROGRAM ARGS`,
    // --repeat times, once per value of `vary` ("NAME=a,b,c": the environment variable NAME set
    // to each value in turn; empty: no variable varied). The CNN's options are unused.
    std::vector<std::string> program;
    std::string vary;
};

struct SweepRun {
    std::string name; // runName()
    std::string arenas;
    std::string loader;
    std::size_t repetition = 0;
    std::filesystem::path dir;
    std::vector<std::string> args; // argv of the child, argv[0] included
    std::uint64_t ranks = 1;
    // Set in the child's environment (a program sweep's --vary).
    std::vector<std::pair<std::string, std::string>> environment;
};

struct SweepPlan {
    std::filesystem::path dir; // absolute
    std::filesystem::path executable;
    tracer::run::SweepConfiguration configuration; // what every run shares (sweep.json)
    std::vector<SweepRun> runs;                    // in recording order
    std::vector<std::uint64_t> ranks;              // the rank counts asked for, in order
};

// What this invocation did with a run, as the summary says it.
enum class SweepAction {
    Recorded, // recorded now
    Skipped,  // completed by an earlier invocation, left as it was
    NotRun,   // the sweep stopped before it
    Kept,     // a run of an earlier invocation that this one did not ask for
};
std::string_view actionName(SweepAction action);

// One line of the summary: the run model's figures of the run (tracer/run/), absent when the
// run has no readable trace; every n/a figure carries its reason.
struct SweepRow {
    std::size_t order = 0;
    std::string run;
    std::string arenas;
    std::string loader;
    std::size_t repetition = 0;
    tracer::run::RunStatus status = tracer::run::RunStatus::NotRun;
    SweepAction action = SweepAction::NotRun;
    std::optional<tracer::run::RunFigures> figures;
    std::string note; // why the run failed or has no figures
};

struct SweepOutcome {
    std::vector<SweepRow> rows;
    std::size_t recorded = 0;
    std::size_t skipped = 0;
    std::size_t failed = 0;
    bool interrupted = false;
    int stopSignal = 0; // the signal that stopped the sweep (SIGINT, SIGTERM, SIGHUP), if any
};

// "a,b,c" -> {"a","b","c"}; empty items and repeated items are errors naming flag.
WorkloadResult<std::vector<std::string>> parseList(const std::string& text,
                                                   const std::string& flag);

// "<arenas>-<loader>-r<k>" on one rank (the name sweeps had before ranks were a dimension, so
// that they resume), "<arenas>-<loader>-<N>ranks-r<k>" on N > 1.
std::string runName(const std::string& arenas, const std::string& loader, std::uint64_t ranks,
                    std::size_t repetition);

WorkloadResult<SweepPlan> planSweep(const SweepOptions& options);

// Progress lines ("[3/16] record single-advanced-r0", "[4/16] skip ... (completed)") go to log.
// Ctrl-C stops after the current run; a second Ctrl-C interrupts that run too (at its next
// batch boundary); SIGTERM and SIGHUP are passed on to the run at once. The run never outlives
// the sweep. Errors returned here are about the sweep folder itself.
WorkloadResult<SweepOutcome> executeSweep(const SweepPlan& plan, std::ostream& log);

} // namespace starscope::workloads
