#pragma once
// Comparing runs: which may be compared (the workload must be the same; the strategy, the
// scheduler, the worker count and the StarPU-MPI rank count are what is being compared), how repetitions pool (median,
// min, max) and the deltas against a baseline. `starscope compare` and the viewer present it.

#include "tracer/run/run_figures.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starscope::tracer::run {

// The workload parameters that must match for runs to be compared, as (name, value) in a fixed
// order: the workload (cnn or command), a command's program, then the CNN's dataset, model,
// epochs, batches, batch size, chunk, train images, test images.
// Strategy, scheduler, workers and ranks may differ (--batch-size is the global batch, the
// same whatever the rank count). Empty when the record names none of them.
std::vector<std::pair<std::string, std::string>> workloadParameters(const RunRecord& record);

// "batches 10 (2 in <reference>)", one entry per parameter that differs.
std::vector<std::string> parameterDifferences(const RunRecord& run, const RunRecord& reference,
                                              const std::string& referenceName);

struct Aggregate {
    double median = 0.0;
    double min = 0.0;
    double max = 0.0;
    std::size_t n = 0;
    bool operator==(const Aggregate&) const = default;
};

// Median (mean of the middle two for an even count), min and max; n = 0 for no value.
Aggregate aggregate(std::vector<double> values);

// (value - baseline) / |baseline|; nullopt for a zero baseline.
std::optional<double> delta(double value, double baseline);

// When the runs differ by rank count: fills every run's speedup and scaling efficiency against
// the median train time of the 1-rank runs of its strategy and workload among them (train
// time, not wall time: the wall time includes the evaluation, which only rank 0 does), and
// returns true. Leaves them as they are (n/a, kNoScalingReference) and returns false when
// every run has the same rank count. compareRuns and sweep's summary both fill through it.
bool fillScaling(const std::vector<RunFigures*>& runs);

struct CompareInput {
    RunFigures figures;
    bool named = true; // named by the user, rather than found inside a sweep folder
};

struct CompareOptions {
    std::string baseline;                 // a strategy; empty: the first
    std::vector<std::string> preferredOrder; // sweep.json's strategy order
    bool allowMixed = false;
};

// One column: the runs of a strategy and rank count (and, with allowMixed, of one set of
// parameters).
struct CompareGroup {
    std::string name;     // the strategy, with "(2 ranks)" when the rank counts differ and
                          // "[batches 10]" when its parameters differ
    std::string strategy;
    std::uint64_t ranks = 1;
    std::vector<RunFigures> runs;
    std::vector<std::string> differences; // from the reference parameters; empty when none
    std::map<std::string, Aggregate, std::less<>> aggregates; // metric key -> over runs with a value
    std::map<std::string, std::string, std::less<>> reasons;  // metric key -> why n/a
    std::map<std::string, double, std::less<>> deltas;        // metric key -> vs the baseline
};

struct Comparison {
    std::string baseline; // a group name
    std::vector<CompareGroup> groups;
    std::vector<std::string> warnings; // duplicates, skipped and partial runs, unreadable run.json
    // The runs differ by rank count: every run's speedup and scaling efficiency are filled
    // against the 1-rank runs of its strategy (and parameters), where there are some.
    bool scaling = false;
};

// The scaling table's figures (metric keys of run_figures.hpp), in its column order.
inline constexpr std::array<std::string_view, 4> kScalingMetrics{"speedup", "scaling_efficiency",
                                                                 "communication_share", "barrier_share"};

// The scaling table's rows: the comparison's groups by strategy (in the groups' order), then
// rank count. `compare` prints them and the viewer's comparison shows them.
std::vector<const CompareGroup*> scalingOrder(const Comparison& comparison);

// Why figures are n/a, and where: one reason (no PMU, no RAPL) usually explains several
// metrics of every group, so each reason comes once per set of groups it holds for, with its
// metrics' labels (groups in the comparison's order, metrics in metrics() order).
struct NaReason {
    std::string reason;
    std::vector<std::string> groups;
    std::vector<std::string> metrics;

    bool operator==(const NaReason&) const = default;
};
std::vector<NaReason> naReasons(const Comparison& comparison);

// Groups, aggregates and compares. Fails (InvalidArgument) when the runs' workloads differ and
// allowMixed is off, naming the difference and the two runs; when no run is left; and when
// options.baseline names no strategy; and when a run named by the user misses ranks (its
// missingRanks; one found in a sweep is skipped with a warning). A run given twice, or a copy
// of a run (sameRecording), counts once; a run without a readable run.json is compared on its trace
// figures but never chosen as the default baseline.
TraceResult<Comparison> compareRuns(std::vector<CompareInput> inputs, const CompareOptions& options);

} // namespace starscope::tracer::run
