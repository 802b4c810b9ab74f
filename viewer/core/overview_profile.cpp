#include "viewer/core/overview_profile.hpp"

#include "viewer/core/span_folding.hpp"

#include <algorithm>
#include <cmath>

namespace starscope::viewer {

using tracer::Span;
using tracer::TimeNs;

namespace {

// Time of each state in the lane before t: the prefix of the spans ending by t, plus the part
// of the span running at t.
void timeBefore(const std::vector<Span>& spans, const LaneIndex& index, TimeNs t, TimeNs* perState) {
    const std::size_t k = firstEndingAfter(spans, static_cast<double>(t));
    index.prefixAt(spans, k, perState);
    if (k < spans.size() && spans[k].start < t) {
        perState[spans[k].state] += t - spans[k].start;
    }
}

} // namespace

OverviewProfile laneProfile(const TraceDocument& document, double startNs, double endNs, std::size_t columns,
                            std::span<const std::int32_t> lanes) {
    OverviewProfile profile;
    profile.startNs = startNs;
    profile.endNs = endNs;
    profile.columns = endNs > startNs ? columns : 0;
    profile.states = document.trace.states.size();
    profile.times.assign(profile.columns * profile.states, 0);
    profile.extents.assign(profile.columns, 0);
    if (profile.columns == 0) {
        return profile;
    }
    std::vector<TimeNs> boundaries(profile.columns + 1);
    for (std::size_t c = 0; c <= profile.columns; ++c) {
        const double t = startNs + (endNs - startNs) * static_cast<double>(c) / static_cast<double>(profile.columns);
        boundaries[c] = static_cast<TimeNs>(std::floor(t));
    }
    std::vector<TimeNs> before(profile.states);
    std::vector<TimeNs> after(profile.states);
    std::size_t counted = 0;
    for (const std::int32_t laneIndex : lanes) {
        const auto lane = static_cast<std::size_t>(laneIndex);
        if (laneIndex < 0 || lane >= document.trace.lanes.size() || document.trace.lanes[lane].levels.empty()) {
            continue;
        }
        ++counted;
        const auto& spans = document.trace.lanes[lane].levels[0];
        const LaneIndex& index = document.laneIndex[lane][0];
        timeBefore(spans, index, boundaries[0], before.data());
        for (std::size_t c = 0; c < profile.columns; ++c) {
            timeBefore(spans, index, boundaries[c + 1], after.data());
            TimeNs* out = profile.times.data() + c * profile.states;
            for (std::size_t s = 0; s < profile.states; ++s) {
                out[s] += after[s] - before[s];
            }
            std::swap(before, after);
        }
    }
    for (std::size_t c = 0; c < profile.columns; ++c) {
        profile.extents[c] = static_cast<TimeNs>(counted) * (boundaries[c + 1] - boundaries[c]);
    }
    return profile;
}

OverviewProfile workerProfile(const TraceDocument& document, double startNs, double endNs, std::size_t columns) {
    std::vector<std::int32_t> workers;
    for (std::size_t lane = 0; lane < document.trace.lanes.size(); ++lane) {
        if (document.trace.lanes[lane].isWorker()) {
            workers.push_back(static_cast<std::int32_t>(lane));
        }
    }
    return laneProfile(document, startNs, endNs, columns, workers);
}

std::pair<double, double> fitAllWindow(const TraceDocument& document) {
    const auto begin = static_cast<double>(document.activityBegin);
    const auto end = static_cast<double>(document.activityEnd);
    const double margin = kFitMarginShare * std::max(end - begin, kMinWindowNs);
    return {begin - margin, end + margin};
}

} // namespace starscope::viewer
