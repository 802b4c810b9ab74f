#pragma once
// Runs of several StarPU-MPI rank counts in the comparison window: the scaling table and the
// strategy comparison within each rank count, both as the run model computes them
// (tracer::run::compareRuns, the same groups, medians, deltas, speedups and n/a reasons that
// `starscope compare` prints); this file only picks the rows. Widget-free, tested without Qt.

#include "tracer/run/run_comparison.hpp"
#include "viewer/core/comparison/comparison.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace starscope::viewer {

// One row of a table over comparison groups: a strategy at a rank count.
struct GroupRow {
    tracer::run::CompareGroup group;
    bool baseline = false;   // the group the others' deltas are against
};

struct RankComparison {
    // Why there is no comparison (compareRuns's message); empty when there is.
    std::string problem;
    // The runs differ by rank count: scalingRows holds the scaling table.
    bool scaling = false;
    // Every strategy at every rank count (scalingOrder), speedup and scaling efficiency
    // against the strategy's 1-rank runs.
    std::vector<GroupRow> scalingRows;
    // For each rank count, ascending, its strategies compared with each other (deltas against
    // the first strategy at that rank count, the baseline, listed first).
    std::vector<GroupRow> strategyRows;
    std::vector<std::string> warnings;   // compareRuns's (runs given twice, unfinished runs, ...)
};

// Compares runs as `starscope compare --allow-mixed` would: loadComparison has already refused
// what `compare` refuses unless --allow-mixed was given, and a column whose workload differs is
// named with the difference.
RankComparison compareRankCounts(const std::vector<RunFigures>& figures);

} // namespace starscope::viewer
