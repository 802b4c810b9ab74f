#include "tracer/run/run_comparison.hpp"

#include "tracer/run_folder/run_folder.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

namespace starscope::tracer::run {

namespace fs = std::filesystem;

std::vector<std::pair<std::string, std::string>> workloadParameters(const RunRecord& r) {
    std::vector<std::pair<std::string, std::string>> out;
    const auto add = [&out](const char* name, const auto& value) {
        if (value) {
            out.emplace_back(name, std::to_string(*value));
        }
    };
    // A command's runs are one workload when they run the same program; its arguments and
    // StarPU variables, like the CNN's strategy, name the columns compared (RunRecord::label).
    out.emplace_back("workload", std::string(workloadKindName(r.workload)));
    if (r.program) {
        const auto& p = *r.program;
        out.emplace_back("program",
                         !p.executable.empty() || p.argv.empty() ? p.executable : p.argv.front());
    }
    if (r.dataset) {
        out.emplace_back("dataset", r.dataset->dir);
        out.emplace_back("image size", std::to_string(r.dataset->rows) + "x" + std::to_string(r.dataset->cols));
    }
    add("epochs", r.epochs);
    add("batches", r.batchesPerEpoch);
    add("batch size", r.batchSize);
    add("chunk", r.chunk);
    if (r.dataset) {
        out.emplace_back("train images", std::to_string(r.dataset->trainImagesUsed));
    }
    if (r.test && r.test->accuracy) {
        out.emplace_back("test images", std::to_string(r.test->images));
    }
    return out;
}

std::vector<std::string> parameterDifferences(const RunRecord& run, const RunRecord& reference,
                                              const std::string& referenceName) {
    // A parameter one of them does not record (an older file, a run interrupted before its
    // evaluation) is not a difference: only what both say is compared.
    const auto mine = workloadParameters(run);
    const auto theirs = workloadParameters(reference);
    std::vector<std::string> out;
    for (const auto& [name, value] : mine) {
        const auto it = std::find_if(theirs.begin(), theirs.end(), [&](const auto& p) { return p.first == name; });
        if (it != theirs.end() && it->second != value) {
            out.push_back(name + " " + value + " (" + it->second + " in " + referenceName + ")");
        }
    }
    return out;
}

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

std::optional<double> delta(double value, double baseline) {
    if (baseline == 0.0) {
        return std::nullopt;
    }
    return (value - baseline) / std::fabs(baseline);
}

namespace {

TraceError invalid(std::string message) { return TraceError{ErrorCode::InvalidArgument, std::move(message), {}, {}}; }

// "single+naive (2 ranks) [batches 10, epochs 2]": the short form of the differences for a
// column name; the rank count only when the compared runs differ by it.
std::string groupName(const std::string& strategy, std::optional<std::uint64_t> ranks,
                      const std::vector<std::string>& differences) {
    const std::string base =
        ranks ? strategy + " (" + std::to_string(*ranks) + (*ranks == 1 ? " rank)" : " ranks)") : strategy;
    if (differences.empty()) {
        return base;
    }
    std::string out = base + " [";
    for (std::size_t i = 0; i < differences.size(); ++i) {
        const auto& d = differences[i];
        out += (i ? ", " : "") + d.substr(0, d.find(" ("));
    }
    return out + "]";
}

std::uint64_t ranksOf(const RunFigures& f) {
    return f.ranks.value ? static_cast<std::uint64_t>(*f.ranks.value) : std::uint64_t{1};
}

} // namespace

bool fillScaling(const std::vector<RunFigures*>& runs) {
    if (std::all_of(runs.begin(), runs.end(), [&](const RunFigures* r) { return ranksOf(*r) == ranksOf(*runs.front()); })) {
        return false;
    }
    for (RunFigures* r : runs) {
        bool reference = false;
        std::vector<double> times;
        for (const RunFigures* one : runs) {
            if (ranksOf(*one) != 1 || one->strategy != r->strategy
                || (one->record && r->record && !parameterDifferences(*r->record, *one->record, {}).empty())) {
                continue;
            }
            reference = true;
            if (one->record && one->record->trainTimeS && *one->record->trainTimeS > 0) {
                times.push_back(*one->record->trainTimeS);
            }
        }
        if (!reference) {
            continue; // measureRun's reason, kNoScalingReference, stays
        }
        const auto mine = r->record ? r->record->trainTimeS : std::nullopt;
        if (times.empty() || !mine || *mine <= 0) {
            const std::string why = times.empty() ? "the 1-rank runs of this strategy have no train time in run.json"
                                                  : "run.json has no train time";
            r->speedup = RunFigure::unavailable(why);
            r->scalingEfficiency = RunFigure::unavailable(why);
            continue;
        }
        const double speedup = aggregate(times).median / *mine;
        r->speedup = RunFigure::known(speedup);
        r->scalingEfficiency = RunFigure::known(speedup / static_cast<double>(ranksOf(*r)));
    }
    return true;
}

std::vector<const CompareGroup*> scalingOrder(const Comparison& c) {
    std::vector<const CompareGroup*> out;
    for (const auto& g : c.groups) {
        out.push_back(&g);
    }
    std::stable_sort(out.begin(), out.end(), [&](const auto* a, const auto* b) {
        const auto first = [&](const std::string& s) {
            return std::find_if(c.groups.begin(), c.groups.end(), [&](const auto& g) { return g.strategy == s; }) - c.groups.begin();
        };
        return std::make_pair(first(a->strategy), a->ranks) < std::make_pair(first(b->strategy), b->ranks);
    });
    return out;
}

std::vector<NaReason> naReasons(const Comparison& comparison) {
    std::vector<NaReason> out;
    for (const auto& m : metrics()) {
        // This metric's reasons, each with the groups it holds for.
        std::map<std::string, std::vector<std::string>> groupsOf;
        std::vector<std::string> reasons;   // in the order of the groups
        for (const auto& g : comparison.groups) {
            if (const auto r = g.reasons.find(m.key); r != g.reasons.end()) {
                auto& groups = groupsOf[r->second];
                if (groups.empty()) {
                    reasons.push_back(r->second);
                }
                groups.push_back(g.name);
            }
        }
        for (const auto& reason : reasons) {
            const auto& groups = groupsOf[reason];
            const auto earlier = std::find_if(out.begin(), out.end(), [&](const NaReason& n) {
                return n.reason == reason && n.groups == groups;
            });
            if (earlier == out.end()) {
                out.push_back(NaReason{reason, groups, {std::string(m.label)}});
            } else {
                earlier->metrics.push_back(std::string(m.label));
            }
        }
    }
    return out;
}

TraceResult<Comparison> compareRuns(std::vector<CompareInput> inputs, const CompareOptions& options) {
    Comparison out;
    // The same run named twice (or a run named and found in a sweep) counts once.
    std::set<fs::path> seen;
    std::vector<CompareInput> runs;
    for (auto& input : inputs) {
        const auto identity = RunFolder(input.figures.source).identity();
        if (!seen.insert(identity).second) {
            out.warnings.push_back(input.figures.source + ": given more than once, counted once");
            continue;
        }
        const auto copy = std::find_if(runs.begin(), runs.end(), [&](const CompareInput& r) {
            return sameRecording(RunFolder(r.figures.source), RunFolder(input.figures.source));
        });
        if (copy != runs.end()) {
            out.warnings.push_back(input.figures.source + ": a copy of " + copy->figures.source
                                   + " (the same prof files and run.json, byte for byte), counted once");
            continue;
        }
        if (!input.figures.missingRanks.empty()) {
            // Its figures are those of part of the job: beside whole runs they would pass for the run's.
            if (!input.named) {
                out.warnings.push_back("skipping " + input.figures.source + ": " + input.figures.missingRanks);
                continue;
            }
            return fail(invalid(input.figures.source + ": " + input.figures.missingRanks
                                + ": a run missing ranks is not compared with whole runs"));
        }
        if (!input.figures.record) {
            out.warnings.push_back(input.figures.source + ": " + input.figures.recordProblem
                                   + "; compared on its trace only, never the default baseline");
        } else if (input.figures.record->status != RunStatus::Completed) {
            const std::string status(statusName(input.figures.record->status));
            if (!input.named) {
                // An unfinished run of a sweep would skew its strategy's medians.
                out.warnings.push_back("skipping " + input.figures.source + ": its run is " + status);
                continue;
            }
            out.warnings.push_back("warning: " + input.figures.source + ": its run is " + status
                                   + "; its figures cover only what was recorded");
        }
        runs.push_back(std::move(input));
    }
    if (runs.empty()) {
        return fail(invalid("no completed run to compare"));
    }
    // Strategies in sweep.json's order, then as given, each by rank count; runs without a
    // record last.
    const auto rank = [&](const CompareInput& in) {
        const auto& order = options.preferredOrder;
        const auto at = std::find(order.begin(), order.end(), in.figures.strategy) - order.begin();
        return std::make_tuple(in.figures.record ? 0 : 1, at, ranksOf(in.figures));
    };
    std::stable_sort(runs.begin(), runs.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    if (!options.baseline.empty()
        && std::none_of(runs.begin(), runs.end(), [&](const auto& r) { return r.figures.strategy == options.baseline; })) {
        return fail(invalid("--baseline " + options.baseline + ": no run has this strategy"));
    }
    // The reference workload: the baseline's first run with a record.
    const CompareInput* reference = nullptr;
    for (const auto& r : runs) {
        if (r.figures.record && (options.baseline.empty() || r.figures.strategy == options.baseline)) {
            reference = &r;
            break;
        }
    }
    std::vector<RunFigures*> all;
    for (auto& r : runs) {
        all.push_back(&r.figures);
    }
    out.scaling = fillScaling(all);
    for (const auto& r : runs) {
        std::vector<std::string> differences;
        if (reference && r.figures.record) {
            differences = parameterDifferences(*r.figures.record, *reference->figures.record, reference->figures.source);
        }
        if (!differences.empty() && !options.allowMixed) {
            std::string list;
            for (const auto& d : differences) {
                list += (list.empty() ? "" : ", ") + d;
            }
            return fail(invalid("runs of different workloads cannot be compared: " + r.figures.source + " has " + list
                                + " (--allow-mixed compares them anyway, each column naming what differs)"));
        }
        const std::uint64_t ranks = ranksOf(r.figures);
        const std::string name = groupName(r.figures.strategy, out.scaling ? std::optional(ranks) : std::nullopt, differences);
        auto group = std::find_if(out.groups.begin(), out.groups.end(), [&](const auto& g) { return g.name == name; });
        if (group == out.groups.end()) {
            out.groups.push_back({name, r.figures.strategy, ranks, {}, differences, {}, {}, {}});
            group = out.groups.end() - 1;
        }
        group->runs.push_back(r.figures);
    }
    out.baseline = out.groups.front().name;
    if (!options.baseline.empty()) {
        out.baseline = std::find_if(out.groups.begin(), out.groups.end(), [&](const auto& g) {
                           return g.strategy == options.baseline;
                       })->name;
    }
    for (auto& g : out.groups) {
        for (const auto& m : metrics()) {
            std::vector<double> values;
            for (const auto& r : g.runs) {
                const auto& f = r.*(m.figure);
                if (f.value) {
                    values.push_back(*f.value);
                } else if (!g.reasons.contains(m.key)) {
                    g.reasons.emplace(std::string(m.key), f.reason.empty() ? "not measured" : f.reason);
                }
            }
            if (!values.empty()) {
                g.aggregates.emplace(std::string(m.key), aggregate(std::move(values)));
                g.reasons.erase(std::string(m.key));
            }
        }
    }
    const auto& base = *std::find_if(out.groups.begin(), out.groups.end(), [&](const auto& g) { return g.name == out.baseline; });
    for (auto& g : out.groups) {
        for (const auto& [key, a] : g.aggregates) {
            if (const auto b = base.aggregates.find(key); b != base.aggregates.end()) {
                if (const auto d = delta(a.median, b->second.median)) {
                    g.deltas.emplace(key, *d);
                }
            }
        }
    }
    return out;
}

} // namespace starscope::tracer::run
