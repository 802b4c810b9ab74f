#include "workloads/sweep/sweep_summary.hpp"

#include "tracer/analysis/stats.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/readers/run_json_fields.hpp"
#include "workloads/record/run_json.hpp"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace starscope::workloads {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::optional<double> number(const json& doc, const char* key) {
    if (const auto it = doc.find(key); it != doc.end() && it->is_number()) {
        return it->get<double>();
    }
    return std::nullopt;
}

struct Column {
    const char* name;
    std::optional<double> SweepRow::*field;
};

const std::vector<Column>& numericColumns() {
    static const std::vector<Column> kColumns = {
        {"wall_time_s", &SweepRow::wallSeconds},
        {"total_time_s", &SweepRow::totalSeconds},
        {"makespan_ns", &SweepRow::makespanNs},
        {"idleness", &SweepRow::idleness},
        {"barrier_count", &SweepRow::barrierCount},
        {"barrier_total_ns", &SweepRow::barrierTotalNs},
        {"barrier_max_ns", &SweepRow::barrierMaxNs},
        {"mean_transition_stall_ns", &SweepRow::meanTransitionStallNs},
        {"tasks", &SweepRow::tasks},
        {"peak_memory_bytes", &SweepRow::peakMemoryBytes},
    };
    return kColumns;
}

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

} // namespace

SweepRow measureRun(const SweepRun& run, std::size_t order, const std::string& action) {
    SweepRow row;
    row.order = order;
    row.run = run.name;
    row.arenas = run.arenas;
    row.loader = run.loader;
    row.repetition = run.repetition;
    row.action = action;
    row.status = "not run";
    std::ifstream in(run.dir / "run.json");
    if (!in) {
        row.note = action == "not run" ? "" : "no run.json";
        if (action != "not run") {
            row.status = "failed";
        }
        return row;
    }
    const json doc = json::parse(in, nullptr, false);
    if (!doc.is_object()) {
        row.status = "failed";
        row.note = "run.json is not valid JSON";
        return row;
    }
    row.status = doc.value("status", std::string("failed"));
    row.note = doc.value("error", std::string());
    row.wallSeconds = number(doc, "wall_time_s");
    row.totalSeconds = number(doc, "total_time_s");
    // As `starscope compare` counts it.
    if (const auto sum = tracer::peakArenaBytes(doc)) {
        row.peakMemoryBytes = *sum;
    }
    if (tracer::findProfFiles(run.dir).empty()) {
        row.note += (row.note.empty() ? "" : "; ") + std::string("no trace");
        return row;
    }
    const auto trace = tracer::readTrace(run.dir);
    if (!trace) {
        row.note += (row.note.empty() ? "" : "; ") + trace.error().describe();
        return row;
    }
    const auto s = tracer::summarize(*trace);
    row.makespanNs = static_cast<double>(s.makespan);
    row.idleness = s.idleness;
    row.barrierCount = static_cast<double>(s.barrierCount);
    row.barrierTotalNs = static_cast<double>(s.barrierTotal);
    row.barrierMaxNs = static_cast<double>(s.barrierMax);
    if (s.meanTransitionStall.value) {
        row.meanTransitionStallNs = static_cast<double>(*s.meanTransitionStall.value);
    } else {
        row.note += (row.note.empty() ? "" : "; ") + std::string("stall n/a: ") + s.meanTransitionStall.reason;
    }
    row.tasks = static_cast<double>(s.tasks);
    return row;
}

WorkloadResult<Done> writeSummary(const fs::path& dir, const std::vector<SweepRow>& rows) {
    std::ostringstream csv;
    csv << "order,run,arenas,loader,repetition,status,action";
    for (const auto& c : numericColumns()) {
        csv << "," << c.name;
    }
    csv << ",note\n";
    json runs = json::array();
    for (const auto& r : rows) {
        csv << r.order << "," << csvField(r.run) << "," << csvField(r.arenas) << ","
            << csvField(r.loader) << "," << r.repetition << "," << r.status << "," << r.action;
        json entry{{"order", r.order},           {"run", r.run},
                   {"arenas", r.arenas},         {"loader", r.loader},
                   {"repetition", r.repetition}, {"status", r.status},
                   {"action", r.action}};
        for (const auto& c : numericColumns()) {
            const auto& v = r.*(c.field);
            csv << "," << csvNumber(v);
            entry[c.name] = v ? json(*v) : json(nullptr);
        }
        csv << "," << csvField(r.note) << "\n";
        if (!r.note.empty()) {
            entry["note"] = r.note;
        }
        runs.push_back(std::move(entry));
    }
    if (auto written = writeTextFile(dir / "summary.csv", csv.str()); !written) {
        return written;
    }
    const json doc{{"format", "starscope-sweep-summary"}, {"version", 1}, {"runs", runs}};
    return writeTextFile(dir / "summary.json", doc.dump(2) + "\n");
}

} // namespace starscope::workloads
