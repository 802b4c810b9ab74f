#include "workloads/sweep/sweep_summary.hpp"

#include "tracer/analysis/stats.hpp"
#include "tracer/run/run_figures.hpp"
#include "tracer/run_folder/run_folder.hpp"
#include "tracer/run_folder/run_record.hpp"

#include <array>

namespace starscope::workloads {

namespace fs = std::filesystem;

namespace {

using tracer::run::RunStatus;

void addNote(std::string& note, const std::string& more) { note += (note.empty() ? "" : "; ") + more; }

} // namespace

std::string_view actionName(SweepAction action) {
    // A run the sweep never started has that status too: one word for both.
    static constexpr std::array<std::pair<SweepAction, std::string_view>, 4> kNames{{
        {SweepAction::Recorded, "recorded"},
        {SweepAction::Skipped, "skipped"},
        {SweepAction::NotRun, tracer::run::statusName(RunStatus::NotRun)},
        {SweepAction::Kept, "kept"},
    }};
    for (const auto& [value, name] : kNames) {
        if (value == action) {
            return name;
        }
    }
    return "unknown";
}

SweepRow summarizeRun(const SweepRun& run, std::size_t order, SweepAction action) {
    SweepRow row;
    row.order = order;
    row.run = run.name;
    row.arenas = run.arenas;
    row.loader = run.loader;
    row.repetition = run.repetition;
    row.action = action;
    std::error_code ec;
    const tracer::run::RunFolder folder(run.dir);
    if (!fs::exists(folder.runJson(), ec)) {
        if (action != SweepAction::NotRun) {
            row.status = RunStatus::Failed;
            row.note = std::string("no ") + tracer::run::kRunJsonName;
        }
        return row;
    }
    const auto record = tracer::run::readRunRecord(folder.runJson());
    row.status = record ? record->status : RunStatus::Failed;
    row.note = record ? record->error : record.error().describe();
    if (!tracer::run::RunFolder::isRunFolder(run.dir)) {
        addNote(row.note, "no trace");
        return row;
    }
    // The same figures, threshold and n/a reasons as `starscope compare` and the viewer.
    auto figures = tracer::run::measureRun(run.dir, tracer::BarrierOptions{}.threshold);
    if (!figures) {
        addNote(row.note, figures.error().describe());
        return row;
    }
    row.figures = std::move(*figures);
    return row;
}

tracer::run::SweepSummary sweepSummary(const std::vector<SweepRow>& rows) {
    tracer::run::SweepSummary summary;
    for (const auto& m : tracer::run::metrics()) {
        summary.figureKeys.emplace_back(m.key);
    }
    for (const auto& r : rows) {
        tracer::run::SweepSummaryRow row{r.order,  r.run,    r.arenas, r.loader, r.repetition,
                                         r.status, std::string(actionName(r.action)), {}, r.note};
        if (r.figures) {
            for (const auto& m : tracer::run::metrics()) {
                const auto& f = (*r.figures).*(m.figure);
                row.figures.push_back({f.value, f.value ? std::string() : f.reason});
            }
        }
        summary.rows.push_back(std::move(row));
    }
    return summary;
}

WorkloadResult<Done> writeSummary(const fs::path& dir, const std::vector<SweepRow>& rows) {
    if (auto written = tracer::run::writeSweepSummary(dir, sweepSummary(rows)); !written) {
        return workloadError(ErrorCode::Io, written.error().message, written.error().file);
    }
    return Done{};
}

} // namespace starscope::workloads
