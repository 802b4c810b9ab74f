#pragma once
// Comparing runs: per-run figures (from the trace and the run folder's run.json) and the
// time alignment of several traces onto one shared axis. Widget-free, so the arithmetic is
// tested without Qt; the comparison window and its headless render draw what this computes.

#include "tracer/run/run_figures.hpp"
#include "viewer/core/error.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::viewer {

enum class AlignMode { Start, Marker, Normalized };

struct Alignment {
    AlignMode mode = AlignMode::Start;
    // For AlignMode::Marker: which batch_begin marker, counted from 0 in time order as the batch
    // numbers the chart (e0 b0, e0 b1, ...), the barrier list and `starscope barriers` show, on
    // the command line (--align marker:K) and in the comparison window alike.
    std::size_t marker = 0;

    bool operator==(const Alignment&) const = default;
};

// "start", "marker:K" or "normalized".
ViewerResult<Alignment> parseAlignment(std::string_view text, std::string_view flag);
// What the aligned axis's 0 is, its label; given a run, its marker is named by its batch too
// ("time since batch marker 3 (epoch 0 batch 3)"), as the chart's marker line labels it.
std::string describeAlignment(const Alignment& alignment, const TraceDocument* run = nullptr);

// A run's figures and their n/a reasons are the run model's (tracer/run/): the window and
// its charts present the same numbers as `starscope compare` and the sweep's summary.
using Figure = tracer::run::RunFigure;
using RunFigures = tracer::run::RunFigures;

// The run model's figures of an opened document (tracer::run::measureRun: trace figures with
// barriers over thresholdNs, as `starscope stats`, the rest from runFolder's run.json when it
// is a run folder), named by the document's source as its panel is.
RunFigures runFiguresOf(const TraceDocument& document, const std::filesystem::path& runFolder,
                        tracer::TimeNs thresholdNs);

struct ComparedRun {
    std::shared_ptr<const TraceDocument> document;
    std::shared_ptr<const Barriers> barriers;
    std::shared_ptr<const Barriers> rankBarriers;   // each rank's own; null or empty for one process
};

// The runs' traces moved (and for Normalized scaled) so that their origins coincide at one
// tick, each document's time.zeroTick, which reads as time 0: Start's origin is each run's
// first task of the program (its execution window, StarPU's start-up tasks left out), Marker's
// the k-th batch_begin, and Normalized maps each execution window, whose length is the
// makespan, onto [0, kNormalizedSpanNs] ticks past it. Each document's time.nsPerTick keeps
// its durations real. All aligned traces share one [begin, end], so one view fits every panel,
// and one CodeletShades of all their codelets, so a codelet has one colour in every panel.
inline constexpr double kNormalizedSpanNs = 1e9;
ViewerResult<std::vector<ComparedRun>> alignRuns(const std::vector<ComparedRun>& runs, const Alignment& alignment);

// Each run's name under its bars in the metric charts: its strategy, with its rank count when
// the runs differ by it ("single+naive, 2 ranks"; a 1-rank and a 2-rank run of one strategy
// were named alike), and its place in the list ("#2") when two would still read the same.
std::vector<std::string> chartRunLabels(const std::vector<RunFigures>& runs);

struct LoadedComparison {
    std::vector<ComparedRun> runs;       // unaligned, barriers over the threshold
    std::vector<RunFigures> figures;
};

// Reads every input (run folders, or any trace readTrace knows) and measures it; fails on the
// first unreadable one with the reader's message, and on runs `starscope compare` refuses, with
// its message (the run model's compareRuns: runs of different workloads unless allowMixed, as
// `compare --allow-mixed`; a run missing ranks).
ViewerResult<LoadedComparison> loadComparison(const std::vector<std::filesystem::path>& inputs,
                                              tracer::TimeNs thresholdNs, bool allowMixed = false);

} // namespace starscope::viewer
