#include "tracer/analysis/stats.hpp"

#include "tracer/analysis/idleness.hpp"
#include "tracer/analysis/parallel.hpp"
#include "tracer/analysis/trace_flushes.hpp"
#include "tracer/model/starpu_tasks.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <future>
#include <limits>
#include <map>
#include <span>
#include <unordered_map>

namespace starscope::tracer {

namespace {

// Times summed over lanes. Each lane's own times fit (its spans are disjoint within the
// trace), but a damaged trace whose times reach centuries would overflow their sum over
// lanes: such a sum stays at the largest time instead.
void addTime(TimeNs& sum, TimeNs d) {
    if (__builtin_add_overflow(sum, d, &sum)) {
        sum = d > 0 ? std::numeric_limits<TimeNs>::max() : std::numeric_limits<TimeNs>::min();
    }
}

} // namespace

ClassTimes& ClassTimes::operator+=(const ClassTimes& other) {
    addTime(executing, other.executing);
    addTime(sleeping, other.sleeping);
    addTime(overhead, other.overhead);
    addTime(user, other.user);
    addTime(notProfiled, other.notProfiled);
    addTime(tracing, other.tracing);
    addTime(idle, other.idle);
    return *this;
}

ClassTimes& ClassTimes::operator-=(const ClassTimes& other) {
    addTime(executing, -other.executing);
    addTime(sleeping, -other.sleeping);
    addTime(overhead, -other.overhead);
    addTime(user, -other.user);
    addTime(notProfiled, -other.notProfiled);
    addTime(tracing, -other.tracing);
    addTime(idle, -other.idle);
    return *this;
}

namespace {

void addClass(ClassTimes& times, StateClass cls, TimeNs d) {
    switch (cls) {
    case StateClass::Executing: times.executing += d; break;
    case StateClass::Sleeping: times.sleeping += d; break;
    case StateClass::Overhead: times.overhead += d; break;
    case StateClass::User: times.user += d; break;
    case StateClass::NotProfiled: times.notProfiled += d; break;
    case StateClass::Tracing: times.tracing += d; break;
    }
}

bool starpuTaskAt(const Trace& trace, const StarpuTasks& starpu, LaneTaskCursor& tasks, const Span& span) {
    const TaskIndex task = tasks.taskOf(span);
    return task < trace.tasks.size() && starpu.contains(trace.tasks[task]);
}

} // namespace

RangeStats computeRangeStats(const Trace& trace, TimeNs from, TimeNs to) {
    // StarPU's own tasks are its runtime's work, not the program's: their time is overhead.
    const StarpuTasks starpu(trace);
    RangeStats out;
    out.from = from;
    out.to = std::max(from, to);
    out.lanes.resize(trace.lanes.size());
    // Each lane's figures are its own: lanes are read on several cores, then summed in order,
    // when the range holds spans enough (the spans taken as spread evenly over the trace: a
    // trace flush's range, one of thousands, is no reason to start a thread).
    std::size_t spanTotal = 0;
    for (const auto& lane : trace.lanes) {
        spanTotal += lane.spans().size();
    }
    const double share = trace.end > trace.begin ? static_cast<double>(out.to - out.from) / static_cast<double>(trace.end - trace.begin) : 1.0;
    const auto inRange = static_cast<std::size_t>(static_cast<double>(spanTotal) * std::clamp(share, 0.0, 1.0));
    forEachInParallel(trace.lanes.size(), threadsFor(inRange, kSpansPerThread), [&](std::size_t i) {
        const auto& lane = trace.lanes[i];
        LaneStats& stats = out.lanes[i];
        stats.lane = static_cast<std::int32_t>(i);
        stats.perState.assign(trace.states.size(), 0);
        // The class each state's time counts as on this lane, looked up once per state instead
        // of per span. The main thread's time is its own whatever StarPU names the state, unless
        // it was not recorded at all or spent writing the trace. A memory node's states are its
        // manager's work (copies, allocations): overhead.
        const bool allOwn = lane.isWorker() || lane.kind == LaneKind::MemoryNode;
        std::vector<StateClass> classOf(trace.states.size());
        for (std::size_t st = 0; st < classOf.size(); ++st) {
            const StateClass cls = trace.states[st].cls;
            const bool own = allOwn || cls == StateClass::NotProfiled || cls == StateClass::Tracing;
            classOf[st] = own ? cls : StateClass::User;
        }
        std::array<TimeNs, static_cast<std::size_t>(kLastStateClass) + 1> byClass{};
        const auto& spans = lane.spans();
        const auto first = std::upper_bound(spans.begin(), spans.end(), from,
                                            [](TimeNs t, const Span& s) { return t < s.end; });
        LaneTaskCursor tasks(trace, lane);
        auto it = first;
        TimeNs covered = 0;
        TimeNs coveredTo = from;
        for (; it != spans.end() && it->start < out.to; ++it) {
            // Readers hand out only valid state ids and disjoint sorted spans; a trace built
            // otherwise is a bug, which must still not read out of bounds or count time twice.
            const Span span = *it;
            assert(span.state < trace.states.size());
            const TimeNs d = std::min(out.to, TimeNs{span.end}) - std::max(coveredTo, TimeNs{span.start});
            if (d <= 0 || span.state >= classOf.size()) {
                continue;
            }
            coveredTo = std::min(out.to, TimeNs{span.end});
            covered += d;
            stats.perState[span.state] += d;
            const bool starpus = starpu.any() && span.runsTask != 0 && starpuTaskAt(trace, starpu, tasks, span);
            byClass[static_cast<std::size_t>(starpus ? StateClass::Overhead : classOf[span.state])] += d;
            if (span.runsTask != 0 && span.start >= from) {
                ++stats.tasks;
            }
        }
        for (std::size_t c = 0; c < byClass.size(); ++c) {
            addClass(stats.classes, static_cast<StateClass>(c), byClass[c]);
        }
        stats.classes.idle = (out.to - from) - covered;
        spans.releaseResident(static_cast<std::size_t>(first - spans.begin()), static_cast<std::size_t>(it - spans.begin()));
    });
    for (std::size_t i = 0; i < trace.lanes.size(); ++i) {
        if (trace.lanes[i].isWorker()) {
            out.workers += out.lanes[i].classes;
        }
    }
    return out;
}

RangeStats computeStats(const Trace& trace) { return computeRangeStats(trace, trace.begin, trace.end); }

std::optional<std::string> dependenciesUnavailable(const Trace& trace) {
    if (trace.metadata.contains(std::string(kDependenciesMetadata))) {
        return std::nullopt;
    }
    const auto format = trace.metadata.find("format");
    if (format != trace.metadata.end() && format->second == "paje") {
        return "no task dependencies in a Paje trace";
    }
    if (format != trace.metadata.end() && format->second == "fxt") {
        return "no task dependencies in the FxT trace (recorded without task events?)";
    }
    return "no task dependencies in the trace";
}

namespace {

std::vector<RankAreaBound> rankAreaBounds(const Trace& trace, const RangeStats& stats) {
    if (trace.ranks.empty()) {
        return {};
    }
    std::map<std::int32_t, RankAreaBound> byRank;
    for (const auto& lane : stats.lanes) {
        const auto& l = trace.lanes[static_cast<std::size_t>(lane.lane)];
        if (l.isWorker()) {
            auto& r = byRank[l.rank];
            r.rank = l.rank;
            ++r.workers;
            addTime(r.bound, lane.classes.executing);   // the sum first, divided below
        }
    }
    std::vector<RankAreaBound> out;
    for (auto& [rank, r] : byRank) {
        r.bound /= static_cast<TimeNs>(r.workers);
        out.push_back(r);
    }
    return out;
}

// What summarize found, the time it looked at and its barriers, for withoutTracing.
struct SummaryWindow {
    TimeNs first = -1;     // the execution window (starpu_tasks.hpp); -1 without a program task
    TimeNs last = -1;
    TimeNs unrecorded = 0; // worker time not profiled in [first, last)
    TimeNs threshold = 0;  // the barriers' threshold in the trace's ticks
};

// summarize's figures with the flushes' intervals cut out of the timeline (stats.hpp).
WithoutTracing withoutTracing(const Trace& trace, const TraceSummary& s,
                              const SummaryWindow& window, const FlushTimeline& flushes,
                              const std::vector<Barrier>& barriers) {
    WithoutTracing w;
    w.workerTotals = s.workerTotals;
    TimeNs unrecorded = window.unrecorded;
    for (const auto& i : flushes.intervals()) {
        w.workerTotals -= computeRangeStats(trace, i.start, i.end).workers;
        const TimeNs from = std::max(i.start, window.first);
        const TimeNs to = std::min(i.end, window.last);
        if (unrecorded > 0 && from < to) {
            unrecorded -= computeRangeStats(trace, from, to).workers.notProfiled;
        }
    }
    w.makespan = window.first >= 0 ? s.makespan - flushes.within(window.first, window.last) : 0;
    w.idleness = idleness(w.workerTotals.executing, w.makespan, s.workers, unrecorded).value_or(0.0);
    for (const auto& b : barriers) {
        const TimeNs left = b.duration() - flushes.within(b.start, b.end);
        if (left > window.threshold) {
            ++w.barrierCount;
            w.barrierTotal += left;
            w.barrierMax = std::max(w.barrierMax, left);
        }
    }
    w.barrierMean = w.barrierCount > 0 ? w.barrierTotal / static_cast<TimeNs>(w.barrierCount) : 0;
    w.barrierShare = w.makespan > 0
                         ? static_cast<double>(w.barrierTotal) / static_cast<double>(w.makespan)
                         : 0.0;
    return w;
}

} // namespace

TraceSummary summarize(const Trace& trace, const BarrierOptions& options) {
    return summarize(trace, options, computeStats(trace));
}

TraceSummary summarize(const Trace& trace, const BarrierOptions& options, const RangeStats& whole) {
    return summarize(trace, options, whole, findTransitions(trace));
}

TraceSummary summarize(const Trace& trace, const BarrierOptions& options, const RangeStats& stats,
                       const std::vector<BatchTransition>& transitions) {
    assert(stats.from == trace.begin && stats.to == std::max(trace.begin, trace.end));
    // The critical path (a walk of the task graph, the longest figure here, and one thread's
    // work) on another core meanwhile, when one can be had.
    const auto noGraph = dependenciesUnavailable(trace);
    std::future<TimeNs> chain;
    if (!noGraph) {
        chain = runAside([&trace] { return criticalPathLength(trace); });
    }
    TraceSummary s;
    s.tasks = trace.executedTaskCount();
    const auto window = executionWindow(trace);
    const TimeNs first = window.first;
    const TimeNs last = window.last;
    s.makespan = window.length();
    s.workers = trace.workerCount();
    s.workerTotals = stats.workers;
    // Time whose activity was not recorded is no capacity anyone could have used or wasted.
    const bool masked = std::any_of(trace.states.begin(), trace.states.end(),
                                    [](const StateInfo& st) { return st.cls == StateClass::NotProfiled; });
    const TimeNs unrecorded = masked && !window.empty() ? computeRangeStats(trace, first, last).workers.notProfiled : 0;
    s.idleness = idleness(s.workerTotals.executing, s.makespan, s.workers, unrecorded).value_or(0.0);

    const auto barriers = findBarriers(trace, transitions, options);
    s.barrierCount = barriers.size();
    for (const auto& b : barriers) {
        s.barrierTotal += b.duration();
        s.barrierMax = std::max(s.barrierMax, b.duration());
        if (b.cause == BarrierCause::TraceFlush) {
            s.barrierTraceFlush += b.duration();
        }
    }
    s.barrierMean = barriers.empty() ? 0 : s.barrierTotal / static_cast<TimeNs>(barriers.size());
    s.barrierShare = s.makespan > 0
                         ? static_cast<double>(s.barrierTotal) / static_cast<double>(s.makespan)
                         : 0.0;
    const auto flushes = findTraceFlushes(trace);
    s.traceFlushes = flushes.size();
    for (const auto& f : flushes) {
        s.traceFlushTotal += f.duration();
        s.traceFlushMax = std::max(s.traceFlushMax, f.duration());
    }
    const SummaryWindow summaryWindow{first, last, unrecorded, ticksFromNs(options.threshold, ticksPerSecond(trace))};
    s.withoutTracing = withoutTracing(trace, s, summaryWindow, FlushTimeline(flushes), barriers);
    for (std::size_t i = 0; i < transitions.size(); ++i) {
        s.transitions.push_back(TransitionStall{static_cast<std::int32_t>(i), transitions[i].label, 0});
    }
    TimeNs attributed = 0;
    for (const auto& b : barriers) {
        if (b.transition >= 0) {
            s.transitions[static_cast<std::size_t>(b.transition)].stall += b.duration();
            attributed += b.duration();
        }
    }
    if (const auto why = transitionsUnavailable(trace, transitions)) {
        s.meanTransitionStall = Figure<TimeNs>::unavailable(*why);
    } else {
        s.meanTransitionStall = Figure<TimeNs>::known(attributed / static_cast<TimeNs>(transitions.size()));
    }

    // starpu_trace_state_stats.py: Scheduling is runtime time it reports on its own.
    TimeNs scheduling = 0;
    for (const auto& lane : stats.lanes) {
        if (!trace.lanes[static_cast<std::size_t>(lane.lane)].isWorker()) {
            continue;
        }
        for (std::size_t st = 0; st < lane.perState.size(); ++st) {
            if (trace.states[st].name == "Scheduling") {
                addTime(scheduling, lane.perState[st]);
            }
        }
    }
    const auto tt = static_cast<double>(s.workerTotals.executing);
    const auto ts = static_cast<double>(scheduling);
    const auto tr = static_cast<double>(s.workerTotals.overhead - scheduling);
    const auto ti = static_cast<double>(s.workerTotals.sleeping);
    auto& e = s.efficiencies;
    e.task = tt > 0 ? 1.0 : 0.0;
    e.scheduling = tt + ts > 0 ? tt / (tt + ts) : 0.0;
    e.runtime = tt + tr + ts > 0 ? (tt + ts) / (tt + tr + ts) : 0.0;
    e.pipeline = tt + tr + ti + ts > 0 ? (tt + tr + ts) / (tt + tr + ti + ts) : 0.0;
    e.parallel = e.task * e.runtime * e.pipeline * e.scheduling;
    s.areaBound = s.workers > 0 ? s.workerTotals.executing / static_cast<TimeNs>(s.workers) : 0;
    s.rankAreaBounds = rankAreaBounds(trace, stats);
    s.criticalPath = noGraph ? Figure<TimeNs>::unavailable(*noGraph) : Figure<TimeNs>::known(chain.get());
    return s;
}

} // namespace starscope::tracer
