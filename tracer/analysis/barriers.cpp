#include "tracer/analysis/barriers.hpp"

#include "common/gallop.hpp"
#include "tracer/analysis/idle_gaps.hpp"
#include "tracer/analysis/parallel.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/analysis/trace_flushes.hpp"
#include "tracer/model/names.hpp"
#include "tracer/model/starpu_states.hpp"
#include "tracer/model/starpu_tasks.hpp"
#include "tracer/model/time_unit.hpp"
#include "tracer/report/duration_format.hpp"

#include <algorithm>
#include <functional>
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

// What the main thread did during [from, to). Called for barriers in time order: `at`, the first
// span ending after the previous barrier's start, is where the search for this one's starts
// (galloping outward; it is updated): a bisection of the whole lane per barrier missed the cache
// at every step (367 k rank barriers of a 100 M-span job). overlap: the caller's, reused from one
// barrier to the next (a barrier sees a few states: a hash map of them was allocations per barrier).
std::string mainStateDuring(const Trace& trace, const Lane* lane, TimeNs from, TimeNs to, std::size_t& at,
                            std::vector<std::pair<std::uint32_t, TimeNs>>& overlap) {
    if (lane == nullptr) {
        return {};
    }
    const auto& spans = lane->spans();
    // Base-level spans do not overlap, so their ends are sorted too.
    at = gallopPast(spans.size(), std::min(at, spans.size()), from, [&spans](std::size_t i) { return TimeNs{spans[i].end}; });
    auto it = spans.begin() + static_cast<std::ptrdiff_t>(at);
    overlap.clear();
    TimeNs covered = 0;
    for (; it != spans.end() && it->start < to; ++it) {
        const TimeNs d = std::min(to, TimeNs{it->end}) - std::max(from, TimeNs{it->start});
        const std::uint32_t state = it->state;
        if (d > 0 && state < trace.states.size()) {
            const auto seen = std::find_if(overlap.begin(), overlap.end(), [state](const auto& o) { return o.first == state; });
            if (seen != overlap.end()) {
                seen->second += d;
            } else {
                overlap.emplace_back(state, d);
            }
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
                + (x.job != 0 ? ", for " + jobName(trace, x.job) : std::string()) + ")";
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

namespace {

// The states whose time counts as covered: executing, and time where profiling was stopped
// (nobody knows what happened there, so it is never part of a barrier).
std::vector<std::uint8_t> coveringStates(const Trace& trace) {
    std::vector<std::uint8_t> covers(trace.states.size());
    for (std::size_t st = 0; st < covers.size(); ++st) {
        const StateClass cls = trace.states[st].cls;
        covers[st] = cls == StateClass::Executing || cls == StateClass::NotProfiled ? 1 : 0;
    }
    return covers;
}

// Each worker lane's gaps longer than the threshold (idle_gaps.hpp), of the lanes in scope;
// lanes out of scope and other lanes keep an empty list. One read of each lane, lanes spread
// over the cores.
std::vector<std::vector<IdleGap>> workerGaps(const Trace& trace, TimeNs threshold, const std::optional<std::int32_t>& scope) {
    const auto covers = coveringStates(trace);
    std::vector<std::size_t> lanes;
    std::size_t spans = 0;
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        const auto& lane = trace.lanes[l];
        if (lane.isWorker() && inScope(lane.rank, scope) && !lane.levels.empty()) {
            lanes.push_back(l);
            spans += lane.levels.front().size();
        }
    }
    std::vector<std::vector<IdleGap>> gaps(trace.lanes.size());
    // StarPU's own tasks are no work of the program's: a worker running one is idle for it.
    const StarpuTasks starpu(trace);
    forEachInParallel(lanes.size(), threadsFor(spans, kSpansPerThread), [&](std::size_t i) {
        const auto& lane = trace.lanes[lanes[i]];
        const auto& level = lane.levels.front();
        LaneTaskCursor tasks(trace, lane);
        std::function<bool(const Span&)> starpus;
        if (starpu.any()) {
            starpus = [&](const Span& span) {
                const TaskIndex task = tasks.taskOf(span);
                return task < trace.tasks.size() && starpu.contains(trace.tasks[task]);
            };
        }
        gaps[lanes[i]] = laneIdleGaps(level, covers, threshold, starpus);
        level.releaseResident();   // read once here
    });
    return gaps;
}

// The barriers of the scope: the gaps its worker lanes share, between the first covering span
// and the last, longer than the threshold. Not attributed yet.
std::vector<Barrier> sharedBarriers(const Trace& trace, const std::vector<std::vector<IdleGap>>& gaps, TimeNs threshold,
                                    const std::optional<std::int32_t>& scope) {
    std::vector<const std::vector<IdleGap>*> lists;
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        if (!gaps[l].empty() && inScope(trace.lanes[l].rank, scope)) {
            lists.push_back(&gaps[l]);
        }
    }
    std::vector<Barrier> barriers;
    for (const IdleGap& gap : sharedIdleGaps(lists)) {
        if (gap.bounded() && gap.to - gap.from > threshold) {
            Barrier b;
            b.start = gap.from;
            b.end = gap.to;
            b.rank = scope.value_or(-1);
            barriers.push_back(std::move(b));
        }
    }
    return barriers;
}

void attributeAll(const Trace& trace, const std::vector<BatchTransition>& transitions, const BarrierOptions& options,
                  std::vector<Barrier>& barriers) {
    const Lane* main = mainLane(trace, options.rank);
    const auto resets = resetWaits(trace, options.rank);
    const FlushTimeline written(findTraceFlushes(trace, options.rank));
    const auto flushes = flushEvents(trace, options.rank);
    const auto arrivals = messageArrivals(trace, options.rank);
    const auto copies = transferArrivals(trace, options.rank);
    std::size_t mainAt = 0;
    std::vector<std::pair<std::uint32_t, TimeNs>> mainOverlap;
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
        b.mainThreadState = mainStateDuring(trace, main, b.start, b.end, mainAt, mainOverlap);
        attribute(trace, b, resets, written, flushes, arrivals, copies);
    }
}

} // namespace

std::vector<Barrier> findBarriers(const Trace& trace, const std::vector<BatchTransition>& transitions,
                                  const BarrierOptions& options) {
    // The threshold is real time; the spans are in the trace's ticks.
    const TimeNs threshold = ticksFromNs(options.threshold, ticksPerSecond(trace));
    auto barriers = sharedBarriers(trace, workerGaps(trace, threshold, options.rank), threshold, options.rank);
    attributeAll(trace, transitions, options, barriers);
    return barriers;
}

std::vector<Barrier> findJobAndRankBarriers(const Trace& trace, BarrierOptions options) {
    return findJobAndRankBarriers(trace, findTransitions(trace), options);
}

std::vector<Barrier> findJobAndRankBarriers(const Trace& trace, const std::vector<BatchTransition>& jobTransitions,
                                            BarrierOptions options) {
    // Every worker's gaps are read once and serve the job and each of its ranks.
    const TimeNs threshold = ticksFromNs(options.threshold, ticksPerSecond(trace));
    const auto gaps = workerGaps(trace, threshold, std::nullopt);
    options.rank.reset();
    auto all = sharedBarriers(trace, gaps, threshold, std::nullopt);
    attributeAll(trace, jobTransitions, options, all);
    for (const auto& r : trace.ranks) {
        options.rank = r.rank;
        auto mine = sharedBarriers(trace, gaps, threshold, r.rank);
        attributeAll(trace, findTransitions(trace, r.rank), options, mine);
        all.insert(all.end(), std::make_move_iterator(mine.begin()), std::make_move_iterator(mine.end()));
    }
    return all;
}

} // namespace starscope::tracer
