#include "viewer/core/document/run_panel.hpp"

#include "tracer/run_folder/run_folder.hpp"
#include "tracer/run_folder/run_record.hpp"
#include "tracer/run_folder/run_status.hpp"

#include <cstdio>
#include <system_error>

namespace starscope::viewer {

namespace {

namespace fs = std::filesystem;

std::string optionalCount(const std::optional<std::uint64_t>& value) {
    return value ? std::to_string(*value) : "not recorded";
}

std::string fixed(double value, int decimals, const char* unit) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f%s", decimals, value, unit);
    return text;
}

std::string orNotRecorded(const std::string& value) { return value.empty() ? "not recorded" : value; }

} // namespace

OpenedRun readOpenedRun(const std::vector<fs::path>& inputs) {
    if (inputs.empty()) {
        return {std::nullopt, "nothing opened"};
    }
    const fs::path& input = inputs.front();
    std::error_code error;
    // A prof file of a run folder still belongs to that run: its folder holds the run.json.
    const fs::path folder = fs::is_directory(input, error) ? input : input.parent_path();
    const fs::path file = tracer::run::RunFolder(folder).runJson();
    if (!fs::exists(file, error)) {
        return {std::nullopt, "none in " + (folder.empty() ? std::string(".") : folder.string())
                                  + ": open a folder written by `starscope record` to see its run"};
    }
    auto record = tracer::run::readRunRecord(file);
    if (!record) {
        return {std::nullopt, record.error().describe()};
    }
    return {std::move(*record), {}};
}

std::vector<RunPanelRow> runPanelRows(const OpenedRun& opened) {
    if (!opened.record) {
        return {{tracer::run::kRunJsonName, opened.problem}};
    }
    const tracer::run::RunRecord& run = *opened.record;
    std::vector<RunPanelRow> rows;
    if (run.workload == tracer::run::WorkloadKind::Command) {
        rows.push_back({"Command", run.label()});
    } else {
        rows.push_back({"Strategy", orNotRecorded(run.strategy.name())});
    }
    rows.push_back({"Scheduler", orNotRecorded(run.scheduler)});
    rows.push_back({"Workers", optionalCount(run.workers)});
    if (run.ranks > 1) {
        rows.push_back({"Ranks", std::to_string(run.ranks)});
    }
    rows.push_back({"StarPU", orNotRecorded(run.starpuVersion)});
    std::string status(tracer::run::statusName(run.status));
    if (!run.error.empty()) {
        status += ": " + run.error;
    }
    if (!run.interruptedBy.empty()) {
        status += " by " + run.interruptedBy;
    }
    rows.push_back({"Status", status});
    if (!run.startedAt.empty()) {
        rows.push_back({"Started", run.startedAt});
    }
    rows.push_back({"Wall time", run.wallTimeS ? fixed(*run.wallTimeS, 3, " s") : "not recorded"});
    rows.push_back({"Tasks", "executed " + optionalCount(run.tasks.executed) + ", submitted "
                                 + optionalCount(run.tasks.submitted)});
    // Counters: a value, or the recorder's reason (no PMU, no RAPL), never a zero.
    const auto& papi = run.papi;
    if (!papi.availability.recorded) {
        rows.push_back({"Counters", "not recorded"});
    } else if (!papi.availability.available) {
        rows.push_back({"Counters", "n/a (" + papi.availability.reason + ")"});
    } else {
        rows.push_back({"IPC", papi.ipc ? fixed(*papi.ipc, 3, "") : "n/a (" + papi.ipcReason + ")"});
        for (const auto& event : papi.events) {
            rows.push_back({event.name, event.available ? std::to_string(event.total) : "n/a (" + event.reason + ")"});
        }
    }
    const auto& energy = run.energy;
    if (!energy.availability.recorded) {
        rows.push_back({"Energy", "not recorded"});
    } else if (!energy.availability.available || !energy.joules) {
        rows.push_back({"Energy", "n/a (" + energy.availability.reason + ")"});
    } else {
        rows.push_back({"Energy", fixed(*energy.joules, 2, " J")});
    }
    return rows;
}

} // namespace starscope::viewer
