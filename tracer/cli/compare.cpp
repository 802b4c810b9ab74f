// `starscope compare RUN...`: one row per strategy over run folders (or sweep folders holding
// them), medians with min-max over repetitions, deltas against a baseline. Figures a run does
// not have (no hardware counters on this machine, no run.json) are "n/a" with the reason.

#include "common/input_file.hpp"
#include "tracer/cli/detail.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/readers/run_json_fields.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <map>
#include <memory>

namespace starscope::tracer::cli::detail {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct CompareArgs {
    std::vector<std::string> inputs;
    std::string baseline;
    bool json = false;
    double thresholdUs = 100.0;
};

struct Metric {
    std::string key;
    std::string label;
    bool lowerIsBetter = true;
    std::string unit;   // "ns", "ratio", "count", "bytes", "J", ""
};

const std::vector<Metric>& metrics() {
    static const std::vector<Metric> kMetrics = {
        {"makespan_ns", "makespan", true, "ns"},
        {"idleness", "idleness", true, "ratio"},
        {"barrier_count", "barriers", true, "count"},
        {"barrier_total_ns", "barrier total", true, "ns"},
        {"barrier_max_ns", "barrier max", true, "ns"},
        {"mean_transition_stall_ns", "stall/transition", true, "ns"},
        {"parallel_efficiency", "parallel eff.", false, ""},
        {"area_bound_ratio", "area bound/makespan", false, ""},
        {"ipc", "IPC", false, ""},
        {"llc_load_miss_ratio", "LLC load miss", true, "ratio"},
        {"llc_store_miss_ratio", "LLC store miss", true, "ratio"},
        {"energy_j", "energy", true, "J"},
        {"peak_memory_bytes", "peak memory", true, "bytes"},
    };
    return kMetrics;
}

struct RunFigures {
    std::string folder;
    std::string strategy;
    std::string status;   // run.json's, "" when it has none
    std::map<std::string, double> values;
    std::map<std::string, std::string> missing;   // metric -> reason
};

bool isRunFolder(const fs::path& p) { return !findProfFiles(p).empty(); }

// Finds a number under any of the given keys, anywhere in the document.
std::optional<double> findNumber(const json& doc, const std::vector<std::string>& keys) {
    if (doc.is_object()) {
        for (const auto& key : keys) {
            if (const auto it = doc.find(key); it != doc.end() && it->is_number()) {
                return it->get<double>();
            }
        }
        for (const auto& [k, v] : doc.items()) {
            if (auto found = findNumber(v, keys)) {
                return found;
            }
        }
    }
    return std::nullopt;
}

// run.json (workloads/record/run_json.cpp): counters.papi {available, reason, events: [{name,
// available, total}], ipc: number | {available: false, reason}}, counters.energy {available,
// reason | joules}. Older or hand-written files may put plain numbers anywhere under counters.
void readCounters(const json& run, const std::string& runJsonProblem, RunFigures& r) {
    const json empty = json::object();
    const auto it = run.find("counters");
    const json& counters = it != run.end() && it->is_object() ? *it : empty;
    const std::string none = runJsonProblem.empty() ? "run.json has no counters" : runJsonProblem;
    const json& papi = counters.contains("papi") && counters["papi"].is_object() ? counters["papi"] : empty;
    const std::string papiReason = reasonOf(papi, counters.contains("papi") ? "PAPI counter not recorded" : none);
    const auto set = [&](const std::string& key, std::optional<double> value, const std::string& reason) {
        if (value) {
            r.values[key] = *value;
        } else {
            r.missing[key] = reason;
        }
    };
    // IPC: recorded ratio, else from the two events, else a plain number somewhere.
    std::optional<double> ipc;
    std::string ipcReason = papiReason;
    if (const auto i = papi.find("ipc"); i != papi.end()) {
        if (i->is_number()) {
            ipc = i->get<double>();
        } else {
            ipcReason = reasonOf(*i, papiReason);
        }
    }
    if (!ipc) {
        const auto ins = papiEventTotal(papi, "PAPI_TOT_INS");
        const auto cyc = papiEventTotal(papi, "PAPI_TOT_CYC");
        if (ins && cyc && *cyc > 0) {
            ipc = *ins / *cyc;
        }
    }
    if (!ipc) {
        ipc = findNumber(counters, {"ipc", "IPC"});
    }
    set("ipc", ipc, ipcReason);
    const auto ratio = [&](const std::string& key, const char* misses, const char* accesses) {
        const auto m = papiEventTotal(papi, misses);
        const auto a = papiEventTotal(papi, accesses);
        std::optional<double> value;
        if (m && a && *a > 0) {
            value = *m / *a;
        } else {
            value = findNumber(counters, {key});
        }
        set(key, value, papiReason);
    };
    ratio("llc_load_miss_ratio", "perf::LLC-load-misses", "perf::LLC-loads");
    ratio("llc_store_miss_ratio", "perf::LLC-store-misses", "perf::LLC-stores");
    const json& energy = counters.contains("energy") && counters["energy"].is_object() ? counters["energy"] : empty;
    std::optional<double> joules;
    if (const auto j = energy.find("joules"); j != energy.end() && j->is_number()) {
        joules = j->get<double>();
    } else {
        joules = findNumber(counters, {"energy_j", "joules"});
    }
    set("energy_j", joules, reasonOf(energy, counters.contains("energy") ? "energy not recorded" : none));
}

std::optional<RunFigures> measure(const fs::path& folder, const CompareArgs& args, const Io& io) {
    const auto trace = load("compare", folder, io);
    if (!trace) {
        return std::nullopt;
    }
    BarrierOptions options;
    options.threshold = static_cast<TimeNs>(args.thresholdUs * 1e3 + 0.5);
    const auto s = summarize(*trace, options);
    RunFigures r;
    r.folder = folder.string();
    json run = json::object();
    std::string runJsonProblem;
    if (const auto why = files::notRegularFile(folder / "run.json")) {
        runJsonProblem = "run.json " + *why;
        *io.err << "starscope compare: warning: " << (folder / "run.json").string() << ": " << *why << "\n";
    } else if (std::ifstream in(folder / "run.json"); in) {
        run = json::parse(in, nullptr, false);
        if (run.is_discarded() || !run.is_object()) {
            runJsonProblem = "run.json is not valid JSON";
            *io.err << "starscope compare: warning: " << (folder / "run.json").string() << ": not valid JSON\n";
            run = json::object();
        }
    } else {
        runJsonProblem = "no run.json in the run folder";
    }
    r.strategy = strategyOf(run, folder);
    if (const auto status = run.find("status"); status != run.end() && status->is_string()) {
        r.status = status->get<std::string>();
    }
    r.values["makespan_ns"] = static_cast<double>(s.makespan);
    r.values["idleness"] = s.idleness;
    r.values["barrier_count"] = static_cast<double>(s.barrierCount);
    r.values["barrier_total_ns"] = static_cast<double>(s.barrierTotal);
    r.values["barrier_max_ns"] = static_cast<double>(s.barrierMax);
    if (s.meanTransitionStall.value) {
        r.values["mean_transition_stall_ns"] = static_cast<double>(*s.meanTransitionStall.value);
    } else {
        r.missing["mean_transition_stall_ns"] = s.meanTransitionStall.reason;
    }
    r.values["parallel_efficiency"] = s.efficiencies.parallel;
    if (s.makespan > 0) {
        r.values["area_bound_ratio"] = static_cast<double>(s.areaBound) / static_cast<double>(s.makespan);
    } else {
        r.missing["area_bound_ratio"] = "no executed task";
    }
    readCounters(run, runJsonProblem, r);
    // Peak memory: the arenas' peaks summed (they can all be live at once), or one number.
    if (const auto sum = peakArenaBytes(run)) {
        r.values["peak_memory_bytes"] = *sum;
    } else if (const auto number = findNumber(run, {"peak_arena_bytes", "peak_memory_bytes", "peak_bytes"})) {
        r.values["peak_memory_bytes"] = *number;
    } else {
        r.missing["peak_memory_bytes"] = runJsonProblem.empty() ? "run.json has no peak memory" : runJsonProblem;
    }
    return r;
}

std::string formatValue(double v, const std::string& unit) {
    char buffer[48];
    if (unit == "ns") {
        return formatDuration(static_cast<TimeNs>(std::llround(v)));
    }
    if (unit == "ratio") {
        std::snprintf(buffer, sizeof buffer, "%.1f%%", v * 100.0);
    } else if (unit == "count") {
        std::snprintf(buffer, sizeof buffer, "%.0f", v);
    } else if (unit == "bytes") {
        std::snprintf(buffer, sizeof buffer, "%.1f MiB", v / (1024.0 * 1024.0));
    } else if (unit == "J") {
        std::snprintf(buffer, sizeof buffer, "%.2f J", v);
    } else {
        std::snprintf(buffer, sizeof buffer, "%.3f", v);
    }
    return buffer;
}

struct Aggregate {
    double median = 0, min = 0, max = 0;
    std::size_t n = 0;
};

Aggregate aggregate(std::vector<double> v) {
    Aggregate a;
    a.n = v.size();
    if (v.empty()) {
        return a;
    }
    std::sort(v.begin(), v.end());
    a.min = v.front();
    a.max = v.back();
    a.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    return a;
}

struct RunInput {
    fs::path folder;
    bool inSweep = false;   // found inside a sweep folder rather than named by the user
};

// The strategies of a sweep in the order it recorded them (sweep.json, workloads/sweep), so
// the table reads as the sweep was asked for and its first strategy is the default baseline.
std::vector<std::string> sweepStrategies(const fs::path& folder) {
    if (files::notRegularFile(folder / "sweep.json")) {
        return {};
    }
    std::ifstream in(folder / "sweep.json");
    const json doc = in ? json::parse(in, nullptr, false) : json();
    std::vector<std::string> names;
    if (doc.is_object() && doc.contains("strategies") && doc["strategies"].is_array()) {
        for (const auto& name : doc["strategies"]) {
            if (name.is_string()) {
                names.push_back(name.get<std::string>());
            }
        }
    }
    return names;
}

int runCompare(const CompareArgs& args, const Io& io) {
    std::vector<RunInput> runs;
    std::vector<std::string> preferredOrder;
    for (const auto& input : args.inputs) {
        std::error_code ec;
        if (!fs::is_directory(input, ec)) {
            *io.err << "starscope compare: " << input << ": not a folder (give run folders or a sweep folder)\n";
            return 2;
        }
        if (isRunFolder(input)) {
            runs.push_back({input, false});
            continue;
        }
        std::vector<fs::path> inside;
        for (const auto& entry : fs::directory_iterator(input, ec)) {
            if (entry.is_directory() && isRunFolder(entry.path())) {
                inside.push_back(entry.path());
            }
        }
        if (inside.empty()) {
            *io.err << "starscope compare: " << input << ": neither a run folder (prof_file_*) nor a sweep folder\n";
            return 2;
        }
        std::sort(inside.begin(), inside.end());
        for (auto& folder : inside) {
            runs.push_back({std::move(folder), true});
        }
        const auto strategies = sweepStrategies(input);
        preferredOrder.insert(preferredOrder.end(), strategies.begin(), strategies.end());
    }
    std::vector<std::string> order;
    std::map<std::string, std::vector<RunFigures>> byStrategy;
    for (const auto& run : runs) {
        auto figures = measure(run.folder, args, io);
        if (!figures) {
            return 1;
        }
        // An interrupted or failed run of a sweep would skew its strategy's medians; a run the
        // user names is kept, with a word that it is partial.
        if (!figures->status.empty() && figures->status != "completed") {
            *io.err << "starscope compare: " << (run.inSweep ? "skipping " : "warning: ") << run.folder.string()
                    << ": its run is " << figures->status
                    << (run.inSweep ? "" : "; its figures cover only what was recorded") << "\n";
            if (run.inSweep) {
                continue;
            }
        }
        if (!byStrategy.contains(figures->strategy)) {
            order.push_back(figures->strategy);
        }
        byStrategy[figures->strategy].push_back(std::move(*figures));
    }
    if (order.empty()) {
        *io.err << "starscope compare: no completed run to compare\n";
        return 1;
    }
    const auto rank = [&preferredOrder](const std::string& strategy) {
        return std::find(preferredOrder.begin(), preferredOrder.end(), strategy) - preferredOrder.begin();
    };
    std::stable_sort(order.begin(), order.end(),
                     [&rank](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
    const std::string baseline = args.baseline.empty() ? order.front() : args.baseline;
    if (!byStrategy.contains(baseline)) {
        *io.err << "starscope compare: --baseline " << baseline << ": no run has this strategy\n";
        return 2;
    }
    // metric -> strategy -> aggregate (absent when no run measured it)
    std::map<std::string, std::map<std::string, Aggregate>> table;
    std::map<std::string, std::map<std::string, std::string>> reasons;
    for (const auto& [strategy, list] : byStrategy) {
        for (const auto& m : metrics()) {
            std::vector<double> values;
            for (const auto& r : list) {
                if (const auto it = r.values.find(m.key); it != r.values.end()) {
                    values.push_back(it->second);
                } else {
                    reasons[m.key][strategy] = r.missing.count(m.key) ? r.missing.at(m.key) : "not measured";
                }
            }
            if (!values.empty()) {
                table[m.key][strategy] = aggregate(values);
            }
        }
    }
    const auto delta = [&](const std::string& key, const std::string& strategy) -> std::optional<double> {
        const auto& row = table[key];
        if (!row.contains(strategy) || !row.contains(baseline) || row.at(baseline).median == 0) {
            return std::nullopt;
        }
        return (row.at(strategy).median - row.at(baseline).median) / std::fabs(row.at(baseline).median);
    };
    if (args.json) {
        json out = {{"baseline", baseline}, {"threshold_ns", static_cast<TimeNs>(args.thresholdUs * 1e3 + 0.5)}};
        json strategies = json::array();
        for (const auto& strategy : order) {
            json entry = {{"strategy", strategy}, {"runs", json::array()}};
            for (const auto& r : byStrategy[strategy]) {
                entry["runs"].push_back(r.folder);
            }
            json ms = json::object();
            for (const auto& m : metrics()) {
                if (table[m.key].contains(strategy)) {
                    const auto& a = table[m.key][strategy];
                    ms[m.key] = {{"value", a.median}, {"median", a.median}, {"min", a.min}, {"max", a.max}, {"n", a.n}};
                    if (const auto d = delta(m.key, strategy)) {
                        ms[m.key]["delta_vs_baseline"] = *d;
                    }
                } else {
                    ms[m.key] = unavailableJson(reasons[m.key][strategy]);
                }
            }
            entry["metrics"] = ms;
            strategies.push_back(entry);
        }
        out["strategies"] = strategies;
        *io.out << out.dump(2) << "\n";
        return 0;
    }
    auto& out = *io.out;
    out << "baseline: " << baseline << "; median [min-max] over repetitions, delta vs baseline\n";
    out << std::left << std::setw(22) << "metric";
    for (const auto& strategy : order) {
        out << std::setw(40) << (strategy + " (" + std::to_string(byStrategy[strategy].size()) + " runs)");
    }
    out << "\n";
    for (const auto& m : metrics()) {
        out << std::left << std::setw(22) << m.label;
        for (const auto& strategy : order) {
            std::string cell = "n/a";
            if (table[m.key].contains(strategy)) {
                const auto& a = table[m.key][strategy];
                cell = formatValue(a.median, m.unit);
                if (a.n > 1) {
                    cell += " [" + formatValue(a.min, m.unit) + "-" + formatValue(a.max, m.unit) + "]";
                }
                if (strategy != baseline) {
                    if (const auto d = delta(m.key, strategy)) {
                        char buffer[24];
                        std::snprintf(buffer, sizeof buffer, " %+.0f%%", *d * 100.0);
                        cell += buffer;
                    }
                }
            }
            out << std::setw(40) << cell;
        }
        out << "\n";
    }
    // The table's cells are too narrow for reasons: every n/a is explained under it.
    for (const auto& m : metrics()) {
        for (const auto& strategy : order) {
            if (!table[m.key].contains(strategy)) {
                out << m.label << " n/a for " << strategy << ": " << reasons[m.key][strategy] << "\n";
            }
        }
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
    sub->add_option("--threshold-us", args->thresholdUs, "Shortest barrier, in microseconds")
        ->check(thresholdUsRange());
    onRun(sub, [args, io] { return runCompare(*args, io); });
}

} // namespace starscope::tracer::cli::detail
