#include "tracer/run_folder/sweep_summary_record.hpp"

#include "common/file_writer.hpp"
#include "common/json_text.hpp"
#include "tracer/run_folder/run_folder_names.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace starscope::tracer::run {

using nlohmann::json;

namespace {

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

void addNote(std::string& note, const std::string& more) {
    note += (note.empty() ? "" : "; ") + more;
}

// The row's figure for column i: an unmeasured row has none (null, no reason).
SummaryFigure figureAt(const SweepSummaryRow& row, std::size_t i) {
    return i < row.figures.size() ? row.figures[i] : SummaryFigure{};
}

TraceResult<Done> writeText(const std::filesystem::path& path, const std::string& text) {
    if (auto written = files::writeFile(path, text); !written) {
        return fail(fileError(ErrorCode::Io, path, written.error().message));
    }
    return Done{};
}

} // namespace

std::string sweepSummaryCsv(const SweepSummary& summary) {
    std::ostringstream csv;
    csv << "order,run,arenas,loader,repetition,status,action";
    for (const auto& key : summary.figureKeys) {
        csv << "," << key;
    }
    csv << ",note\n";
    for (const auto& r : summary.rows) {
        csv << r.order << "," << csvField(r.run) << "," << csvField(r.arenas) << ","
            << csvField(r.loader) << "," << r.repetition << "," << statusName(r.status) << ","
            << r.action;
        std::string note = r.note;
        for (std::size_t i = 0; i < summary.figureKeys.size(); ++i) {
            const auto figure = figureAt(r, i);
            if (i < r.figures.size() && !figure.value) {
                addNote(note, summary.figureKeys[i] + " n/a: " + figure.reason);
            }
            csv << "," << csvNumber(figure.value);
        }
        csv << "," << csvField(note) << "\n";
    }
    return csv.str();
}

std::string sweepSummaryJson(const SweepSummary& summary) {
    json runs = json::array();
    for (const auto& r : summary.rows) {
        const std::string status(statusName(r.status));
        json entry{{"order", r.order},           {"run", r.run},
                   {"arenas", r.arenas},         {"loader", r.loader},
                   {"repetition", r.repetition}, {"status", status},
                   {"action", r.action}};
        // A figure is a number, or null with its reason under "na".
        json na = json::object();
        for (std::size_t i = 0; i < summary.figureKeys.size(); ++i) {
            const auto figure = figureAt(r, i);
            if (i < r.figures.size() && !figure.value) {
                na[summary.figureKeys[i]] = figure.reason;
            }
            entry[summary.figureKeys[i]] = figure.value ? json(*figure.value) : json(nullptr);
        }
        if (!na.empty()) {
            entry["na"] = na;
        }
        if (!r.note.empty()) {
            entry["note"] = r.note;
        }
        runs.push_back(std::move(entry));
    }
    const json doc{
        {"format", kSweepSummaryFormat}, {"version", kSweepSummaryVersion}, {"runs", runs}};
    return jsonText(doc, 2) + "\n";
}

TraceResult<Done> writeSweepSummary(const std::filesystem::path& sweepFolder,
                                    const SweepSummary& summary) {
    if (auto written = writeText(sweepFolder / kSummaryCsvName, sweepSummaryCsv(summary));
        !written) {
        return written;
    }
    return writeText(sweepFolder / kSummaryJsonName, sweepSummaryJson(summary));
}

} // namespace starscope::tracer::run
