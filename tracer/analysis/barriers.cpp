#include "tracer/analysis/barriers.hpp"
#include "tracer/model/time_unit.hpp"

#include <algorithm>
#include <queue>
#include <unordered_map>

namespace starscope::tracer {

namespace {

std::string transitionLabel(const BatchTransition& t) {
    std::string label = "epoch " + std::to_string(t.fromEpoch) + " batch " + std::to_string(t.fromBatch) + "->";
    if (t.toEpoch < 0) {
        return label + "end";
    }
    if (t.toEpoch != t.fromEpoch) {
        label += "epoch " + std::to_string(t.toEpoch) + " batch ";
    }
    return label + std::to_string(t.toBatch);
}

// A barrier is time in which no worker executes. Where profiling was stopped nobody knows,
// so such time is never part of a barrier: it counts as covered, like executing.
bool coversTime(const Trace& trace, const Span& span) {
    const StateClass cls = trace.stateOf(span).cls;   // a span of no valid state covers nothing
    return cls == StateClass::Executing || cls == StateClass::NotProfiled;
}

const Lane* mainLane(const Trace& trace) {
    for (const auto& lane : trace.lanes) {
        if (lane.kind == LaneKind::MainThread) {
            return &lane;
        }
    }
    return nullptr;
}

std::string mainStateDuring(const Trace& trace, const Lane* lane, TimeNs from, TimeNs to) {
    if (lane == nullptr) {
        return {};
    }
    const auto& spans = lane->spans();
    // Base-level spans do not overlap, so their ends are sorted too.
    auto it = std::upper_bound(spans.begin(), spans.end(), from,
                               [](TimeNs t, const Span& s) { return t < s.end; });
    std::unordered_map<std::uint32_t, TimeNs> overlap;
    TimeNs covered = 0;
    for (; it != spans.end() && it->start < to; ++it) {
        const TimeNs d = std::min(to, it->end) - std::max(from, it->start);
        if (d > 0 && it->state < trace.states.size()) {
            overlap[it->state] += d;
            covered += d;
        }
    }
    std::string best = "Application code";
    TimeNs bestTime = (to - from) - covered;
    for (const auto& [state, time] : overlap) {
        if (time > bestTime || (time == bestTime && trace.states[state].name < best)) {
            best = trace.states[state].name;
            bestTime = time;
        }
    }
    return best;
}

} // namespace

std::optional<std::string> transitionsUnavailable(const Trace& trace, const std::vector<BatchTransition>& transitions) {
    if (!transitions.empty()) {
        return std::nullopt;
    }
    const bool anyMarker =
        std::any_of(trace.markers.begin(), trace.markers.end(), [](const MarkerEvent& m) { return m.parsed; });
    return anyMarker ? "no batch_end marker in the trace (no batch completed)" : "no starscope markers in the trace";
}

std::vector<BatchTransition> findTransitions(const Trace& trace) {
    std::vector<BatchTransition> out;
    const auto& ms = trace.markers;
    for (std::size_t i = 0; i < ms.size(); ++i) {
        if (!ms[i].parsed || ms[i].marker.kind != markers::Kind::BatchEnd) {
            continue;
        }
        BatchTransition t;
        t.start = ms[i].time;
        t.end = trace.end;
        t.fromEpoch = ms[i].marker.epoch;
        t.fromBatch = ms[i].marker.batch;
        for (std::size_t j = i + 1; j < ms.size(); ++j) {
            if (!ms[j].parsed) {
                continue;
            }
            if (ms[j].marker.kind == markers::Kind::BatchBegin) {
                t.end = ms[j].time;
                t.toEpoch = ms[j].marker.epoch;
                t.toBatch = ms[j].marker.batch;
                break;
            }
            if (ms[j].marker.kind == markers::Kind::BatchEnd) {
                break;   // two ends in a row: this one has no successor batch
            }
        }
        t.label = transitionLabel(t);
        out.push_back(std::move(t));
    }
    return out;
}

std::vector<Barrier> findBarriers(const Trace& trace, const BarrierOptions& options) {
    return findBarriers(trace, findTransitions(trace), options);
}

std::vector<Barrier> findBarriers(const Trace& trace, const std::vector<BatchTransition>& transitions,
                                  const BarrierOptions& options) {
    // k-way merge of the workers' executing spans (each lane is sorted): O(n log k), no copy.
    struct Cursor {
        TimeNs start;
        std::size_t lane;
        std::size_t index;
        bool operator>(const Cursor& o) const { return start > o.start; }
    };
    std::priority_queue<Cursor, std::vector<Cursor>, std::greater<>> heap;
    const auto advance = [&](std::size_t lane, std::size_t index) {
        const auto& spans = trace.lanes[lane].spans();
        while (index < spans.size() && !coversTime(trace, spans[index])) {
            ++index;
        }
        if (index < spans.size()) {
            heap.push(Cursor{spans[index].start, lane, index});
        }
    };
    for (std::size_t lane = 0; lane < trace.lanes.size(); ++lane) {
        if (trace.lanes[lane].isWorker()) {
            advance(lane, 0);
        }
    }
    std::vector<Barrier> barriers;
    bool started = false;
    TimeNs coverEnd = 0;
    // The threshold is real time; the spans are in the trace's ticks.
    const TimeNs threshold = ticksFromNs(options.threshold, ticksPerSecond(trace));
    while (!heap.empty()) {
        const Cursor c = heap.top();
        heap.pop();
        const Span& span = trace.lanes[c.lane].spans()[c.index];
        if (started && span.start > coverEnd && span.start - coverEnd > threshold) {
            barriers.push_back(Barrier{coverEnd, span.start, -1, {}, {}});
        }
        coverEnd = started ? std::max(coverEnd, span.end) : span.end;
        started = true;
        advance(c.lane, c.index + 1);
    }
    const Lane* main = mainLane(trace);
    for (auto& b : barriers) {
        // Transitions are in time order and do not overlap: only the ones starting before the
        // barrier ends can overlap it.
        const auto last = std::lower_bound(transitions.begin(), transitions.end(), b.end,
                                           [](const BatchTransition& t, TimeNs end) { return t.start < end; });
        TimeNs best = 0;
        for (auto it = last; it != transitions.begin();) {
            --it;
            if (it->end <= b.start) {
                break;   // ends are sorted too: no earlier transition reaches the barrier
            }
            const TimeNs overlap = std::min(b.end, it->end) - std::max(b.start, it->start);
            if (overlap > best) {
                best = overlap;
                b.transition = static_cast<std::int32_t>(it - transitions.begin());
            }
        }
        if (b.transition >= 0) {
            b.transitionLabel = transitions[static_cast<std::size_t>(b.transition)].label;
        }
        b.mainThreadState = mainStateDuring(trace, main, b.start, b.end);
    }
    return barriers;
}

} // namespace starscope::tracer
