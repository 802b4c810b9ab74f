#include "tracer/analysis/barriers.hpp"

#include "tracer/analysis/stats.hpp"
#include "tracer/analysis/trace_flushes.hpp"
#include "tracer/model/starpu_states.hpp"
#include "tracer/model/time_unit.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <utility>
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

// In scope: every lane / marker across the job, or those of one rank.
bool inScope(std::int32_t rank, const std::optional<std::int32_t>& scope) { return !scope || rank == *scope; }

const Lane* mainLane(const Trace& trace, const std::optional<std::int32_t>& scope) {
    for (const auto& lane : trace.lanes) {
        if (lane.kind == LaneKind::MainThread && inScope(lane.rank, scope)) {
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

// The main thread's arena reset waits: reset_wait_begin up to the next reset_wait_end of the
// same rank.
struct ResetWait {
    TimeNs start;
    TimeNs end;
    std::string arena;
};

// In begin order, with the latest end so far of each prefix: the
// first wait overlapping a barrier is found by two binary searches instead of a scan of every
// wait per barrier (5,016 barriers and about 9,000 waits in a 10-epoch CNN trace: two thirds
// of findBarriers).
struct ResetWaits {
    std::vector<ResetWait> waits;
    std::vector<TimeNs> endsSoFar;   // endsSoFar[i]: the latest end of waits[0..i]

    const ResetWait* firstOverlapping(TimeNs start, TimeNs end) const {
        // Waits beginning before `end` are a prefix; the first of them ending after `start` is
        // where the latest end so far first passes it.
        const auto begun = std::lower_bound(waits.begin(), waits.end(), end,
                                            [](const ResetWait& r, TimeNs t) { return r.start < t; });
        const auto reach = std::upper_bound(endsSoFar.begin(), endsSoFar.end(), start);
        return reach - endsSoFar.begin() < begun - waits.begin() ? &waits[static_cast<std::size_t>(reach - endsSoFar.begin())]
                                                                 : nullptr;
    }
};

ResetWaits resetWaits(const Trace& trace, const std::optional<std::int32_t>& scope) {
    std::vector<ResetWait> out;
    std::unordered_map<std::int32_t, std::size_t> open;   // rank -> index in out
    for (const auto& m : trace.markers) {
        if (!m.parsed || !inScope(m.rank, scope)) {
            continue;
        }
        if (m.kind == markers::Kind::ResetWaitBegin) {
            open[m.rank] = out.size();
            out.push_back(ResetWait{m.time, trace.end, std::string(trace.arenaOf(m))});
        } else if (m.kind == markers::Kind::ResetWaitEnd) {
            if (const auto it = open.find(m.rank); it != open.end()) {
                out[it->second].end = m.time;
                open.erase(it);
            }
        }
    }
    // Already in order unless a trace was built with its markers out of time order.
    std::stable_sort(out.begin(), out.end(), [](const ResetWait& a, const ResetWait& b) { return a.start < b.start; });
    ResetWaits waits{std::move(out), {}};
    waits.endsSoFar.reserve(waits.waits.size());
    for (const auto& w : waits.waits) {
        waits.endsSoFar.push_back(waits.endsSoFar.empty() ? w.end : std::max(waits.endsSoFar.back(), w.end));
    }
    return waits;
}

// The messages into the scope from another rank (or the transfers between its memory nodes), by
// arrival (end) then index: the last one to arrive during a barrier is found by a binary search
// instead of a scan of every message that left before the barrier ended (92 k barriers x 552 k
// messages on a 100 M-span job was 45 % of `stats`).
struct Arrivals {
    std::vector<std::pair<TimeNs, std::int32_t>> arrivals;   // (end, message or transfer index), sorted

    // The last one (latest end, then highest index) arriving in [start, end]; -1 if none.
    std::int32_t lastDuring(TimeNs start, TimeNs end) const {
        const auto after = std::upper_bound(arrivals.begin(), arrivals.end(),
                                            std::pair(end, std::numeric_limits<std::int32_t>::max()));
        if (after == arrivals.begin() || std::prev(after)->first < start) {
            return -1;
        }
        return std::prev(after)->second;
    }
};

Arrivals messageArrivals(const Trace& trace, const std::optional<std::int32_t>& scope) {
    Arrivals out;
    for (std::size_t i = 0; i < trace.messages.size(); ++i) {
        const auto& m = trace.messages[i];
        if (inScope(m.toRank, scope) && m.fromRank != m.toRank) {
            out.arrivals.emplace_back(m.end, static_cast<std::int32_t>(i));
        }
    }
    std::sort(out.arrivals.begin(), out.arrivals.end());
    return out;
}

Arrivals transferArrivals(const Trace& trace, const std::optional<std::int32_t>& scope) {
    Arrivals out;
    for (std::size_t i = 0; i < trace.transfers.size(); ++i) {
        if (inScope(trace.transfers[i].rank, scope)) {
            out.arrivals.emplace_back(trace.transfers[i].end, static_cast<std::int32_t>(i));
        }
    }
    std::sort(out.arrivals.begin(), out.arrivals.end());
    return out;
}

// Times of StarPU's "fxt flush" events in scope, sorted (markers are): the evidence of a flush in
// a trace that does not show the flushes themselves (a Paje trace of starpu_fxt_tool).
std::vector<TimeNs> flushEvents(const Trace& trace, const std::optional<std::int32_t>& scope) {
    std::vector<TimeNs> out;
    // A user event that is not a marker keeps its text interned: compared by id.
    const NameId flush = trace.names.find(kFxtFlushEvent);
    if (flush == kNoName) {
        return out;
    }
    for (const auto& m : trace.markers) {
        if (!m.parsed && inScope(m.rank, scope) && m.rawText == flush) {
            out.push_back(m.time);
        }
    }
    return out;
}

void attribute(const Trace& trace, Barrier& b, const ResetWaits& resets, const FlushTimeline& written,
               const std::vector<TimeNs>& flushes, const Arrivals& arrivals, const Arrivals& copies) {
    // A thread wrote the trace during it, or a flush ends inside it: the workers waited for the
    // thread writing the trace (when that is the main thread, nothing new was submitted
    // meanwhile), or that thread was a worker.
    if (const auto f = std::lower_bound(flushes.begin(), flushes.end(), b.start);
        written.within(b.start, b.end) > 0 || (f != flushes.end() && *f <= b.end)) {
        b.cause = BarrierCause::TraceFlush;
        return;
    }
    // Data from another rank: the last message into the scope to arrive during the barrier.
    if (const auto message = arrivals.lastDuring(b.start, b.end); message >= 0) {
        b.message = message;
        b.fromRank = trace.messages[static_cast<std::size_t>(message)].fromRank;
    }
    if (b.message >= 0) {
        b.cause = BarrierCause::DataFromRank;
        return;
    }
    // A copy between memory nodes: the last one in the scope to end during the barrier.
    b.transfer = copies.lastDuring(b.start, b.end);
    if (b.transfer >= 0) {
        b.cause = BarrierCause::DataTransfer;
        return;
    }
    if (const auto* r = resets.firstOverlapping(b.start, b.end)) {
        b.cause = BarrierCause::ArenaReset;
        b.arena = r->arena;
        return;
    }
    if (b.transition >= 0) {
        b.cause = BarrierCause::EndOfBatch;
    }
}

} // namespace

std::string_view causeName(BarrierCause cause) {
    switch (cause) {
    case BarrierCause::Unattributed: return "unattributed";
    case BarrierCause::ArenaReset: return "arena reset";
    case BarrierCause::DataFromRank: return "data from rank";
    case BarrierCause::EndOfBatch: return "end of batch";
    case BarrierCause::TraceFlush: return "trace flush";
    case BarrierCause::DataTransfer: return "data transfer";
    }
    return "unattributed";
}

std::string describeCause(const Trace& trace, const Barrier& b) {
    std::string text(causeName(b.cause));
    if (b.cause == BarrierCause::DataFromRank && b.message >= 0
        && static_cast<std::size_t>(b.message) < trace.messages.size()) {
        const auto& m = trace.messages[static_cast<std::size_t>(b.message)];
        text += " " + std::to_string(b.fromRank) + " (message " + std::to_string(b.message) + ": tag "
                + std::to_string(m.tag) + ", " + std::to_string(m.size) + " B, "
                + formatDuration(m.duration(), ticksPerSecond(trace)) + ")";
    } else if (b.cause == BarrierCause::DataTransfer && b.transfer >= 0
               && static_cast<std::size_t>(b.transfer) < trace.transfers.size()) {
        const auto& x = trace.transfers[static_cast<std::size_t>(b.transfer)];
        const std::string rank = x.rank >= 0 ? std::to_string(x.rank) + "_" : std::string();
        text += " (node " + rank + std::to_string(x.fromNode) + " -> " + rank + std::to_string(x.toNode) + ", "
                + std::to_string(x.size) + " B, " + formatDuration(x.duration(), ticksPerSecond(trace))
                + (x.job != 0 ? ", for job " + std::to_string(x.job) : std::string()) + ")";
    } else if (b.cause == BarrierCause::ArenaReset && !b.arena.empty()) {
        text += " (" + b.arena + ")";
    }
    return text;
}

std::optional<std::string> transitionsUnavailable(const Trace& trace, const std::vector<BatchTransition>& transitions) {
    if (!transitions.empty()) {
        return std::nullopt;
    }
    const bool anyMarker =
        std::any_of(trace.markers.begin(), trace.markers.end(), [](const MarkerEvent& m) { return m.parsed; });
    return anyMarker ? "no batch_end marker in the trace (no batch completed)" : "no starscope markers in the trace";
}

std::vector<BatchTransition> findTransitions(const Trace& trace, std::optional<std::int32_t> rank) {
    std::vector<BatchTransition> out;
    const auto& ms = trace.markers;
    if (!rank) {
        // Each rank marks its own batches: the lowest one's stand for the job's.
        for (const auto& m : ms) {
            if (m.parsed && m.rank >= 0 && (!rank || m.rank < *rank)) {
                rank = m.rank;
            }
        }
    }
    const auto mine = [&](const MarkerEvent& m) { return m.parsed && inScope(m.rank, rank); };
    for (std::size_t i = 0; i < ms.size(); ++i) {
        if (!mine(ms[i]) || ms[i].kind != markers::Kind::BatchEnd) {
            continue;
        }
        BatchTransition t;
        t.start = ms[i].time;
        t.end = trace.end;
        t.fromEpoch = ms[i].epoch;
        t.fromBatch = ms[i].batch;
        for (std::size_t j = i + 1; j < ms.size(); ++j) {
            if (!mine(ms[j])) {
                continue;
            }
            if (ms[j].kind == markers::Kind::BatchBegin) {
                t.end = ms[j].time;
                t.toEpoch = ms[j].epoch;
                t.toBatch = ms[j].batch;
                break;
            }
            if (ms[j].kind == markers::Kind::BatchEnd) {
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
    // Merge of the workers' covering spans (each lane is sorted), no copy. Whether a state
    // covers time is looked up in a table by state id, and the next span is the earliest of the
    // lanes' cursors: found by a scan up to kScannedLanes lanes (two out-of-line calls and a heap
    // push and pop per span made findBarriers 3 to 6 % of `stats` on a 390 MB CNN trace with 2
    // workers), through a heap above, where a scan per span would grow with the lanes (a node
    // of 64 cores, several ranks of it).
    // A barrier is time in which no worker executes. Where profiling was stopped nobody knows,
    // so such time is never part of a barrier: it counts as covered, like executing.
    std::vector<std::uint8_t> covers(trace.states.size());
    for (std::size_t st = 0; st < covers.size(); ++st) {
        const StateClass cls = trace.states[st].cls;
        covers[st] = cls == StateClass::Executing || cls == StateClass::NotProfiled ? 1 : 0;
    }
    // A span of no valid state covers nothing.
    const auto covering = [&](const Span& span) { return span.state < covers.size() && covers[span.state] != 0; };
    struct Cursor {
        const Span* at;
        const Span* end;
    };
    std::vector<Cursor> cursors;
    const auto skip = [&](Cursor& c) {
        while (c.at != c.end && !covering(*c.at)) {
            ++c.at;
        }
        return c.at != c.end;
    };
    for (const auto& lane : trace.lanes) {
        if (lane.isWorker() && inScope(lane.rank, options.rank) && !lane.levels.empty()) {
            const auto& spans = lane.levels.front();
            Cursor c{spans.data(), spans.data() + spans.size()};
            if (skip(c)) {
                cursors.push_back(c);
            }
        }
    }
    std::vector<Barrier> barriers;
    bool started = false;
    TimeNs coverEnd = 0;
    // The threshold is real time; the spans are in the trace's ticks.
    const TimeNs threshold = ticksFromNs(options.threshold, ticksPerSecond(trace));
    constexpr std::size_t kScannedLanes = 8;
    const bool heap = cursors.size() > kScannedLanes;
    const auto later = [](const Cursor& a, const Cursor& b) { return a.at->start > b.at->start; };
    if (heap) {
        std::make_heap(cursors.begin(), cursors.end(), later);
    }
    // The earliest cursor, first in the heap, sinks to its place once advanced: one sift down
    // instead of a pop and a push per span (the heap was a quarter of the viewer's first frame
    // of a 4-rank job of 64 workers, perf). Spans starting together may come in another order;
    // the barriers do not depend on it.
    const auto sink = [&cursors] {
        const std::size_t n = cursors.size();
        const Cursor moving = cursors[0];
        std::size_t i = 0;
        for (std::size_t child = 1; child < n; child = 2 * i + 1) {
            if (child + 1 < n && cursors[child + 1].at->start < cursors[child].at->start) {
                ++child;
            }
            if (!(cursors[child].at->start < moving.at->start)) {
                break;
            }
            cursors[i] = cursors[child];
            i = child;
        }
        cursors[i] = moving;
    };
    while (!cursors.empty()) {
        std::size_t next = 0;
        for (std::size_t i = 1; !heap && i < cursors.size(); ++i) {
            if (cursors[i].at->start < cursors[next].at->start) {
                next = i;
            }
        }
        const Span& span = *cursors[next].at;
        if (started && span.start > coverEnd && span.start - coverEnd > threshold) {
            Barrier b;
            b.start = coverEnd;
            b.end = span.start;
            b.rank = options.rank.value_or(-1);
            barriers.push_back(std::move(b));
        }
        coverEnd = started ? std::max(coverEnd, span.end) : span.end;
        started = true;
        ++cursors[next].at;
        const bool more = skip(cursors[next]);
        if (heap) {
            if (more) {
                sink();
            } else {
                std::pop_heap(cursors.begin(), cursors.end(), later);
                cursors.pop_back();
            }
        } else if (!more) {
            cursors.erase(cursors.begin() + static_cast<std::ptrdiff_t>(next));
        }
    }
    const Lane* main = mainLane(trace, options.rank);
    const auto resets = resetWaits(trace, options.rank);
    const FlushTimeline written(findTraceFlushes(trace, options.rank));
    const auto flushes = flushEvents(trace, options.rank);
    const auto arrivals = messageArrivals(trace, options.rank);
    const auto copies = transferArrivals(trace, options.rank);
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
        attribute(trace, b, resets, written, flushes, arrivals, copies);
    }
    return barriers;
}

std::vector<Barrier> findJobAndRankBarriers(const Trace& trace, BarrierOptions options) {
    options.rank.reset();
    auto all = findBarriers(trace, findTransitions(trace), options);
    for (const auto& r : trace.ranks) {
        options.rank = r.rank;
        auto mine = findBarriers(trace, findTransitions(trace, r.rank), options);
        all.insert(all.end(), std::make_move_iterator(mine.begin()), std::make_move_iterator(mine.end()));
    }
    return all;
}

} // namespace starscope::tracer
