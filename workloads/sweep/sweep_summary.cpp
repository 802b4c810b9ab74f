#include "workloads/sweep/sweep_summary.hpp"

#include "common/json_text.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/run/run_folder.hpp"
#include "workloads/record/run_json.hpp"

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace starscope::workloads {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using tracer::run::RunStatus;

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) {
        return text;
    }
    std::string out = "\"";
    for (const char c : text) {
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return out + "\"";
}

std::string csvNumber(const std::optional<double>& v) {
    if (!v) {
        return {};
    }
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.9g", *v);
    return buffer;
}

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

SweepRow measureRun(const SweepRun& run, std::size_t order, SweepAction action) {
    SweepRow row;
    row.order = order;
    row.run = run.name;
    row.arenas = run.arenas;
    row.loader = run.loader;
    row.repetition = run.repetition;
    row.action = action;
    std::error_code ec;
    if (!fs::exists(run.dir / tracer::run::kRunJsonName, ec)) {
        if (action != SweepAction::NotRun) {
            row.status = RunStatus::Failed;
            row.note = "no run.json";
        }
        return row;
    }
    const auto record = tracer::run::readRunRecord(run.dir / tracer::run::kRunJsonName);
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

WorkloadResult<Done> writeSummary(const fs::path& dir, const std::vector<SweepRow>& rows) {
    std::ostringstream csv;
    csv << "order,run,arenas,loader,repetition,status,action";
    for (const auto& m : tracer::run::metrics()) {
        csv << "," << m.key;
    }
    csv << ",note\n";
    json runs = json::array();
    for (const auto& r : rows) {
        const std::string status(tracer::run::statusName(r.status));
        csv << r.order << "," << csvField(r.run) << "," << csvField(r.arenas) << ","
            << csvField(r.loader) << "," << r.repetition << "," << status << "," << actionName(r.action);
        json entry{{"order", r.order},           {"run", r.run},
                   {"arenas", r.arenas},         {"loader", r.loader},
                   {"repetition", r.repetition}, {"status", status},
                   {"action", actionName(r.action)}};
        // A figure is a number, or null with its reason under "na" (and in the CSV's note).
        json na = json::object();
        std::string note = r.note;
        for (const auto& m : tracer::run::metrics()) {
            const std::string key(m.key);
            std::optional<double> value;
            if (r.figures) {
                const auto& f = (*r.figures).*(m.figure);
                value = f.value;
                if (!f.value) {
                    na[key] = f.reason;
                    addNote(note, key + " n/a: " + f.reason);
                }
            }
            csv << "," << csvNumber(value);
            entry[key] = value ? json(*value) : json(nullptr);
        }
        csv << "," << csvField(note) << "\n";
        if (!na.empty()) {
            entry["na"] = na;
        }
        if (!r.note.empty()) {
            entry["note"] = r.note;
        }
        runs.push_back(std::move(entry));
    }
    if (auto written = writeTextFile(dir / "summary.csv", csv.str()); !written) {
        return written;
    }
    const json doc{{"format", "starscope-sweep-summary"}, {"version", 2}, {"runs", runs}};
    return writeTextFile(dir / "summary.json", jsonText(doc, 2) + "\n");
}

} // namespace starscope::workloads
