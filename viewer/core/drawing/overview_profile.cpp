#include "viewer/core/drawing/overview_profile.hpp"

#include "tracer/analysis/parallel.hpp"
#include "viewer/core/drawing/span_folding.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <span>

namespace starscope::viewer {

using tracer::Span;
using tracer::TimeNs;

namespace {

// Time of each state in the lane before t: the prefix of the spans ending by t, plus the part
// of the span running at t. Times come in increasing order: the search starts at the span the
// previous time found (k, updated).
void timeBefore(std::span<const Span> spans, const LaneIndex& index, TimeNs t, std::size_t& k, TimeNs* perState) {
    k = firstEndingAfter(spans, index, k, static_cast<double>(t));
    index.prefixAt(spans, k, perState);
    if (k < spans.size() && spans[k].start < t) {
        perState[spans[k].state] += t - spans[k].start;
    }
}

bool hasSpans(const TraceDocument& document, std::int32_t lane) {
    return lane >= 0 && static_cast<std::size_t>(lane) < document.trace.lanes.size()
           && !document.trace.lanes[static_cast<std::size_t>(lane)].levels.empty();
}

} // namespace

LaneColumns::LaneColumns(const TraceDocument& document, double startNs, double endNs, std::size_t columns,
                         std::span<const std::int32_t> lanes)
    : m_startNs(startNs), m_endNs(endNs), m_columns(endNs > startNs ? columns : 0),
      m_states(document.trace.states.size()) {
    for (const std::int32_t lane : lanes) {
        if (hasSpans(document, lane) && std::find(m_lanes.begin(), m_lanes.end(), lane) == m_lanes.end()) {
            m_lanes.push_back(lane);
        }
    }
    if (m_columns == 0) {
        return;
    }
    m_boundaries.resize(m_columns + 1);
    for (std::size_t c = 0; c <= m_columns; ++c) {
        const double t = startNs + (endNs - startNs) * static_cast<double>(c) / static_cast<double>(m_columns);
        m_boundaries[c] = static_cast<TimeNs>(std::floor(t));
    }
    m_times.resize(m_lanes.size());
    // A column costs a search over the spans it covers (a few cache misses when they are many):
    // lanes are spread over the cores when the window holds millions of spans (the spans taken
    // as spread evenly over the trace), as at fit-all; a window of a scroll is drawn on the
    // drawing thread alone, which a helper thread made wait on a busy machine.
    const auto& trace = document.trace;
    std::size_t spanTotal = 0;
    for (const std::int32_t lane : m_lanes) {
        spanTotal += trace.lanes[static_cast<std::size_t>(lane)].levels[0].size();
    }
    const double share = trace.end > trace.begin ? (endNs - startNs) / static_cast<double>(trace.end - trace.begin) : 1.0;
    constexpr std::size_t kSpansInViewPerThread = 4'000'000;
    const auto inView = static_cast<std::size_t>(static_cast<double>(spanTotal) * std::clamp(share, 0.0, 1.0));
    tracer::forEachInParallel(m_lanes.size(), tracer::threadsFor(inView, kSpansInViewPerThread), [&](std::size_t i) {
        const auto lane = static_cast<std::size_t>(m_lanes[i]);
        const auto& spans = document.trace.lanes[lane].levels[0];
        const LaneIndex& index = document.laneIndex[lane][0];
        auto& times = m_times[i];
        times.assign(m_columns * m_states, 0);
        std::vector<TimeNs> before(m_states);
        std::vector<TimeNs> after(m_states);
        std::size_t k = 0;
        timeBefore(spans, index, m_boundaries[0], k, before.data());
        for (std::size_t c = 0; c < m_columns; ++c) {
            timeBefore(spans, index, m_boundaries[c + 1], k, after.data());
            TimeNs* out = times.data() + c * m_states;
            for (std::size_t s = 0; s < m_states; ++s) {
                out[s] = after[s] - before[s];
            }
            std::swap(before, after);
        }
    });
}

OverviewProfile LaneColumns::profile(const TraceDocument& document, std::span<const std::int32_t> lanes) const {
    OverviewProfile profile;
    profile.startNs = m_startNs;
    profile.endNs = m_endNs;
    profile.columns = m_columns;
    profile.states = m_states;
    profile.times.assign(profile.columns * profile.states, 0);
    profile.extents.assign(profile.columns, 0);
    if (profile.columns == 0) {
        return profile;
    }
    std::size_t counted = 0;
    for (const std::int32_t lane : lanes) {
        if (!hasSpans(document, lane)) {
            continue;
        }
        const auto at = std::find(m_lanes.begin(), m_lanes.end(), lane);
        assert(at != m_lanes.end() && "a lane the columns were not computed for");
        if (at == m_lanes.end()) {
            continue;
        }
        ++counted;
        const auto& times = m_times[static_cast<std::size_t>(at - m_lanes.begin())];
        for (std::size_t v = 0; v < times.size(); ++v) {
            profile.times[v] += times[v];
        }
    }
    for (std::size_t c = 0; c < profile.columns; ++c) {
        profile.extents[c] = static_cast<TimeNs>(counted) * (m_boundaries[c + 1] - m_boundaries[c]);
    }
    return profile;
}

OverviewProfile laneProfile(const TraceDocument& document, double startNs, double endNs, std::size_t columns,
                            std::span<const std::int32_t> lanes) {
    return LaneColumns(document, startNs, endNs, columns, lanes).profile(document, lanes);
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
