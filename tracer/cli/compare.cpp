// `starscope compare RUN...`: one column per strategy over run folders (or sweep folders holding
// them), medians with min-max over repetitions, deltas against a baseline. The figures, their
// n/a reasons, the pooling and the comparability check are the run model's (tracer/run/); this
// file only presents them as a table or JSON.

#include "common/json_text.hpp"
#include "tracer/cli/detail.hpp"
#include "tracer/run/run_comparison.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <memory>

namespace starscope::tracer::cli::detail {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string listed(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) {
        out += (out.empty() ? "" : ", ") + item;
    }
    return out;
}

struct CompareArgs {
    std::vector<std::string> inputs;
    std::string baseline;
    bool json = false;
    bool allowMixed = false;
    double thresholdUs = defaultThresholdUs();
};

std::string deltaText(double d) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, " %+.0f%%", d * 100.0);
    return buffer;
}

void printScaling(const run::Comparison& c, const Io& io) {
    auto& out = *io.out;
    out << "\nscaling (speedup against the strategy's 1-rank runs, on train time; medians)\n";
    out << std::left << std::setw(40) << "column" << std::setw(8) << "ranks";
    for (const auto key : run::kScalingMetrics) {
        out << std::setw(16) << run::findMetric(key)->label;
    }
    out << "\n";
    for (const auto* g : run::scalingOrder(c)) {
        out << std::left << std::setw(40) << g->name << std::setw(8) << g->ranks;
        for (const auto key : run::kScalingMetrics) {
            const auto a = g->aggregates.find(key);
            out << std::setw(16) << (a != g->aggregates.end() ? run::formatFigure(a->second.median, run::findMetric(key)->unit) : "n/a");
        }
        out << "\n";
    }
}

void printJson(const run::Comparison& c, TimeNs thresholdNs, const Io& io) {
    json out = {{"baseline", c.baseline}, {"threshold_ns", thresholdNs}};
    json groups = json::array();
    for (const auto& g : c.groups) {
        json entry = {{"strategy", g.name}, {"ranks", g.ranks}, {"runs", json::array()}};
        for (const auto& r : g.runs) {
            entry["runs"].push_back(r.source);
        }
        if (!g.differences.empty()) {
            entry["differs"] = g.differences;
        }
        json ms = json::object();
        for (const auto& m : run::metrics()) {
            const std::string key(m.key);
            if (const auto a = g.aggregates.find(key); a != g.aggregates.end()) {
                const auto& v = a->second;
                ms[key] = {{"value", v.median}, {"median", v.median}, {"min", v.min}, {"max", v.max}, {"n", v.n}};
                if (const auto d = g.deltas.find(key); d != g.deltas.end()) {
                    ms[key]["delta_vs_baseline"] = d->second;
                }
            } else {
                ms[key] = unavailableJson(g.reasons.at(key));
            }
        }
        entry["metrics"] = ms;
        groups.push_back(entry);
    }
    out["strategies"] = groups;
    if (c.scaling) {
        json rows = json::array();
        for (const auto& g : run::scalingOrder(c)) {
            json row = {{"strategy", g->strategy}, {"ranks", g->ranks}, {"column", g->name}};
            for (const auto key : run::kScalingMetrics) {
                const auto a = g->aggregates.find(key);
                row[std::string(key)] = a != g->aggregates.end() ? json(a->second.median) : unavailableJson(g->reasons.find(key)->second);
            }
            rows.push_back(row);
        }
        out["scaling"] = {{"time", "train_time_s"}, {"rows", rows}};
    }
    *io.out << jsonText(out, 2) << "\n";
}

void printTable(const run::Comparison& c, const Io& io) {
    auto& out = *io.out;
    out << "baseline: " << c.baseline << "; median [min-max] over repetitions, delta vs baseline\n";
    out << std::left << std::setw(22) << "metric";
    for (const auto& g : c.groups) {
        out << std::setw(40) << (g.name + " (" + std::to_string(g.runs.size()) + " runs)");
    }
    out << "\n";
    for (const auto& m : run::metrics()) {
        out << std::left << std::setw(22) << m.label;
        for (const auto& g : c.groups) {
            std::string cell = "n/a";
            if (const auto a = g.aggregates.find(m.key); a != g.aggregates.end()) {
                cell = run::formatFigure(a->second.median, m.unit);
                if (a->second.n > 1) {
                    cell += " [" + run::formatFigure(a->second.min, m.unit) + "-" + run::formatFigure(a->second.max, m.unit) + "]";
                }
                if (const auto d = g.deltas.find(m.key); d != g.deltas.end() && g.name != c.baseline) {
                    cell += deltaText(d->second);
                }
            }
            out << std::setw(40) << cell;
        }
        out << "\n";
    }
    // The cells are too narrow for reasons and differences: they are explained under the table.
    for (const auto& g : c.groups) {
        for (const auto& d : g.differences) {
            out << g.name << " differs: " << d << "\n";
        }
    }
    for (const auto& line : run::naReasons(c)) {
        out << listed(line.metrics) << " n/a for " << listed(line.groups) << ": " << line.reason << "\n";
    }
    if (c.scaling) {
        printScaling(c, io);
    }
}

int runCompare(const CompareArgs& args, const Io& io) {
    std::vector<std::pair<fs::path, bool>> folders; // (run folder, named by the user)
    run::CompareOptions options;
    options.baseline = args.baseline;
    options.allowMixed = args.allowMixed;
    for (const auto& input : args.inputs) {
        std::error_code ec;
        if (!fs::is_directory(input, ec)) {
            *io.err << "starscope compare: " << input << ": not a folder (give run folders or a sweep folder)\n";
            return 2;
        }
        // A folder with a run.json is a run even without a trace (record --no-trace): reading it
        // says so, where "neither a run folder nor a sweep folder" misled.
        if (run::RunFolder::isRunFolder(input) || fs::exists(run::RunFolder(input).runJson(), ec)) {
            folders.emplace_back(input, true);
            continue;
        }
        const auto inside = run::RunFolder::runsInside(input);
        if (inside.empty()) {
            *io.err << "starscope compare: " << input << ": neither a run folder (prof_file_*) nor a sweep folder\n";
            return 2;
        }
        for (const auto& folder : inside) {
            folders.emplace_back(folder.path(), false);
        }
        const auto strategies = run::sweepStrategies(input);
        options.preferredOrder.insert(options.preferredOrder.end(), strategies.begin(), strategies.end());
    }
    const auto thresholdNs = static_cast<TimeNs>(args.thresholdUs * 1e3 + 0.5);
    std::vector<run::CompareInput> inputs;
    for (const auto& [folder, named] : folders) {
        const auto trace = load("compare", folder, io);
        if (!trace) {
            return 1;
        }
        inputs.push_back({run::measureRun(*trace, folder, thresholdNs), named});
    }
    auto comparison = run::compareRuns(std::move(inputs), options);
    if (!comparison) {
        *io.err << "starscope compare: " << comparison.error().message << "\n";
        return comparison.error().message.starts_with("--baseline") ? 2 : 1;
    }
    for (const auto& w : comparison->warnings) {
        *io.err << "starscope compare: " << w << "\n";
    }
    if (args.json) {
        printJson(*comparison, thresholdNs, io);
    } else {
        printTable(*comparison, io);
    }
    return 0;
}

} // namespace

void addCompareCommand(CLI::App& app, const Io& io) {
    auto args = std::make_shared<CompareArgs>();
    auto* sub = app.add_subcommand("compare", "Compare strategies over run folders or a sweep folder");
    sub->add_option("runs", args->inputs, "Run folders or sweep folders")->required();
    sub->add_option("--baseline", args->baseline,
                    "Strategy the deltas refer to (default: the first; a sweep's first strategy)");
    sub->add_flag("--json", args->json, "Print JSON (with the reason of every n/a)");
    sub->add_flag("--allow-mixed", args->allowMixed,
                  "Compare runs of different workloads (batches, epochs, ...); each column names what differs");
    sub->add_option("--threshold-us", args->thresholdUs, "Shortest barrier, in microseconds")
        ->check(thresholdUsRange());
    onRun(sub, [args, io] { return runCompare(*args, io); });
}

} // namespace starscope::tracer::cli::detail
