#include "viewer/core/comparison/rank_comparison.hpp"

#include <algorithm>
#include <set>

namespace starscope::viewer {

namespace run = tracer::run;

namespace {

std::uint64_t ranksOf(const RunFigures& f) {
    return f.ranks.value ? static_cast<std::uint64_t>(*f.ranks.value) : std::uint64_t{1};
}

tracer::TraceResult<run::Comparison> compare(const std::vector<const RunFigures*>& figures) {
    std::vector<run::CompareInput> inputs;
    for (const RunFigures* f : figures) {
        inputs.push_back({*f, true});
    }
    run::CompareOptions options;
    options.allowMixed = true;
    return run::compareRuns(std::move(inputs), options);
}

} // namespace

RankComparison compareRankCounts(const std::vector<RunFigures>& figures) {
    RankComparison out;
    std::vector<const RunFigures*> all;
    std::set<std::uint64_t> counts;
    for (const auto& f : figures) {
        all.push_back(&f);
        counts.insert(ranksOf(f));
    }
    auto whole = compare(all);
    if (!whole) {
        out.problem = whole.error().message;
        return out;
    }
    out.scaling = whole->scaling;
    out.warnings = whole->warnings;
    if (whole->scaling) {
        for (const auto* g : run::scalingOrder(*whole)) {
            out.scalingRows.push_back({*g, false});
        }
    }
    for (const std::uint64_t count : counts) {
        std::vector<const RunFigures*> mine;
        std::copy_if(all.begin(), all.end(), std::back_inserter(mine),
                     [count](const RunFigures* f) { return ranksOf(*f) == count; });
        auto within = compare(mine);
        if (!within) {
            out.problem = within.error().message;
            continue;
        }
        for (const auto& g : within->groups) {
            out.strategyRows.push_back({g, g.name == within->baseline});
        }
    }
    return out;
}

} // namespace starscope::viewer
