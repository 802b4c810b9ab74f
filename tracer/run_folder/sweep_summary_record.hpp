#pragma once
// A sweep's summary.csv and summary.json, typed: one row per run of the sweep with the run's
// figures (a number, or n/a with its reason). Written here only; sweep fills the rows from the
// run model's figures. Both files list the same rows and figures: the CSV for a spreadsheet, the
// JSON ("starscope-sweep-summary") for a program.

#include "tracer/model/error.hpp"
#include "tracer/run_folder/run_status.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace starscope::tracer::run {

inline constexpr int kSweepSummaryVersion = 2;
inline constexpr const char* kSweepSummaryFormat = "starscope-sweep-summary";

// One figure of a run: its value, or nullopt and why it is n/a.
struct SummaryFigure {
    std::optional<double> value;
    std::string reason;

    bool operator==(const SummaryFigure&) const = default;
};

struct SweepSummaryRow {
    std::size_t order = 0; // the sweep's order of the run
    std::string run;       // the run folder's name
    std::string arenas;
    std::string loader;
    std::size_t repetition = 0;
    RunStatus status = RunStatus::NotRun;
    std::string action; // what the sweep did with the run ("recorded", "skipped", ...)
    // One per SweepSummary::figureKeys, in that order; empty when the run was not measured (its
    // figures are then null without a reason: note says why).
    std::vector<SummaryFigure> figures;
    std::string note; // why the run failed or has no figures

    bool operator==(const SweepSummaryRow&) const = default;
};

struct SweepSummary {
    std::vector<std::string> figureKeys; // the columns after the run's own, e.g. "makespan_ms"
    std::vector<SweepSummaryRow> rows;

    bool operator==(const SweepSummary&) const = default;
};

// summary.csv's text: a header, then one line per row; a figure's n/a reason joins the note.
std::string sweepSummaryCsv(const SweepSummary& summary);

// summary.json's text (2-space indented, newline-terminated); text that is not UTF-8 replaced.
std::string sweepSummaryJson(const SweepSummary& summary);

// Writes summary.csv and summary.json into sweepFolder, each atomically through the project's
// one writer (common/file_writer.hpp); the CSV first.
TraceResult<Done> writeSweepSummary(const std::filesystem::path& sweepFolder,
                                    const SweepSummary& summary);

} // namespace starscope::tracer::run
