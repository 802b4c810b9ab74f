#include "tracer/readers/trace_builder.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <iterator>
#include <limits>
#include <numeric>
#include <set>
#include <span>
#include <sys/mman.h>
#include <unistd.h>

namespace starscope::tracer::detail {

StateClass classOfState(std::string_view name, LaneKind kind) {
    if (name == kNotProfiledState) {
        return StateClass::NotProfiled;
    }
    if (name == kTraceFlushState) {
        return StateClass::Tracing;
    }
    if (kind == LaneKind::MainThread) {
        return StateClass::User;
    }
    if (name == kExecutingState) {
        return StateClass::Executing;
    }
    // "Idle" is what starpu_fxt_tool shows between tasks of a worker that is not sleeping
    // yet; like sleeping, the worker has nothing to run.
    static constexpr std::array<std::string_view, 2> kSleeping = {"Sleeping", "Idle"};
    if (std::find(kSleeping.begin(), kSleeping.end(), name) != kSleeping.end()) {
        return StateClass::Sleeping;
    }
    return StateClass::Overhead;
}

std::int32_t TraceBuilder::addLane(std::string name, LaneKind kind, std::int32_t memoryNode,
                                   std::int32_t workerId) {
    Lane lane;
    lane.name = std::move(name);
    lane.kind = kind;
    lane.memoryNode = memoryNode;
    lane.workerId = workerId;
    m_trace.lanes.push_back(std::move(lane));
    return static_cast<std::int32_t>(m_trace.lanes.size() - 1);
}

std::uint32_t TraceBuilder::state(std::string_view name, LaneKind kind) {
    // Keyed by name and lane class: "Scheduling" is overhead on a worker, user time on the
    // main thread.
    std::string key(name);
    key += kind == LaneKind::MainThread ? "\x01u" : "\x01w";
    if (const auto it = m_stateByName.find(key); it != m_stateByName.end()) {
        return it->second;
    }
    const auto cls = classOfState(name, kind);
    const auto id = static_cast<std::uint32_t>(m_trace.states.size());
    m_trace.states.push_back(StateInfo{std::string(name), cls});
    m_stateByName.emplace(std::move(key), id);
    return id;
}

TaskIndex TraceBuilder::task(std::uint64_t jobId) {
    const auto next = static_cast<TaskIndex>(m_trace.tasks.size());
    TaskIndex* slot = nullptr;
    const std::uint64_t base = jobId >> 48;
    const std::uint64_t local = jobId & ((std::uint64_t{1} << 48) - 1);
    if (base < kDenseBases && local < kDenseJobs) {
        if (m_denseTasks.size() <= base) {
            m_denseTasks.resize(base + 1);
        }
        auto& table = m_denseTasks[base];
        if (table.size() <= local) {
            // Doubling, but within the capacity reserved for it while the id fits there.
            auto grown = std::max<std::size_t>(local + 1, table.size() * 2);
            if (local < table.capacity()) {
                grown = std::min(grown, table.capacity());
            }
            table.resize(grown, kNoTask);
        }
        slot = &table[local];
    } else {
        slot = &m_taskByJob.try_emplace(jobId, kNoTask).first->second;
    }
    if (*slot == kNoTask) {
        *slot = next;
        Task t;
        t.jobId = jobId;
        m_trace.tasks.push_back(std::move(t));
    }
    return *slot;
}

void TraceBuilder::close(std::int32_t lane, LaneBuild& build, std::size_t depth, TimeNs end) {
    const Open open = build.stack[depth];
    auto& levels = build.levels;
    bool runsTask = open.task != kNoTask;
    if (runsTask && open.longest >= 0) {
        // A part of an interrupted task: the task is its longest part.
        runsTask = end - open.start > open.longest;
        if (runsTask && depth < levels.size() && open.longestSpan < levels[depth].size()) {
            levels[depth][open.longestSpan].runsTask = 0;
        }
    } else if (runsTask) {
        // Run again: its earlier span no longer finds it (finish).
        m_rerunTasks += m_trace.tasks[open.task].lane >= 0 ? 1U : 0U;
    }
    if (runsTask) {
        auto& t = m_trace.tasks.edit()[open.task];
        t.start = open.start;
        t.end = end;
        t.lane = Trace::shortIndex(lane);
    }
    // A zero-length state carries no time; starpu_fxt_tool emits some (set "B" then "I" at
    // the same instant) and dropping them keeps both readers' spans identical.
    if (end <= open.start) {
        return;
    }
    // Spans hold 48-bit times (kMaxTraceTime): a later one is kept out of the model and the
    // trace's end says how long it was, which readTrace refuses.
    m_latest = std::max(m_latest, end);
    if (end > kMaxTraceTime || open.start < 0 || open.state >= kMaxStates) {
        ++m_outOfRange;
        return;
    }
    if (levels.size() <= depth) {
        levels.resize(depth + 1);
        // A lane's base level can hold most of the trace's spans: reserved whole for the first
        // lanes (address space, only touched as filled) instead of grown by copies into fresh
        // pages, which cost more page faults than the spans themselves.
        if (depth == 0 && m_spanReservations > 0) {
            --m_spanReservations;
            levels[0].reserve(m_expectedSpans);
        }
    }
    auto& spans = levels[depth];
    spans.push_back(Span{open.start, end, open.state, runsTask});
    if (spans.size() % kSpansMappedAhead == 1) {
        mapAheadForWriting(spans);
    }
}

// A span is bit-fields, so its first store into a fresh page reads the page first: the kernel
// maps its shared zero page, then copies it at the write, a second fault per page, and with a
// second thread in the process (the FxT reader's) a TLB flush on the other core each, an
// interrupt there. The next pages of the table's capacity are mapped writable in one call
// instead (madvise only maps them: their contents stay as they are).
void TraceBuilder::mapAheadForWriting(const std::vector<Span>& spans) {
#ifdef MADV_POPULATE_WRITE
    const std::size_t ahead = std::min(spans.capacity() - spans.size(), kSpansMappedAhead) * sizeof(Span);
    if (ahead < sizeof(Span)) {
        return;
    }
    static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto from = reinterpret_cast<std::uintptr_t>(spans.data() + spans.size()) & ~(page - 1);
    const auto to = reinterpret_cast<std::uintptr_t>(spans.data() + spans.size()) + ahead;
    (void)::madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
#else
    (void)spans;
#endif
}

TimeNs TraceBuilder::clock(LaneBuild& build, TimeNs time) {
    auto& c = build.clock;
    if (time < c) {
        ++m_clamped;
        return c;
    }
    c = time;
    return time;
}

void TraceBuilder::setState(std::int32_t lane, TimeNs time, std::uint32_t state, TaskIndex task) {
    auto& build = laneBuild(lane);
    time = clock(build, time);
    auto& stack = build.stack;
    for (std::size_t depth = stack.size(); depth-- > 0;) {
        close(lane, build, depth, time);
    }
    // The base level's entry replaced in place: a worker's stack holds one state, and popping it
    // to push the next was a call out to vector::emplace_back per state change.
    if (stack.empty()) {
        stack.push_back(Open{time, state, task});
    } else {
        stack.resize(1);
        stack.front() = Open{time, state, task};
    }
}

void TraceBuilder::pushState(std::int32_t lane, TimeNs time, std::uint32_t state, TaskIndex task) {
    auto& build = laneBuild(lane);
    time = clock(build, time);
    build.stack.push_back(Open{time, state, task});
}

bool TraceBuilder::popState(std::int32_t lane, TimeNs time) {
    auto& build = laneBuild(lane);
    auto& stack = build.stack;
    if (stack.empty()) {
        return false;
    }
    time = clock(build, time);
    close(lane, build, stack.size() - 1, time);
    stack.pop_back();
    return true;
}

void TraceBuilder::resetState(std::int32_t lane, TimeNs time) {
    auto& build = laneBuild(lane);
    auto& stack = build.stack;
    if (stack.empty()) {
        return;
    }
    time = clock(build, time);
    while (!stack.empty()) {
        close(lane, build, stack.size() - 1, time);
        stack.pop_back();
    }
}

void TraceBuilder::interruptState(std::int32_t lane, TimeNs from, TimeNs to, std::uint32_t state) {
    auto& build = laneBuild(lane);
    from = clock(build, from);
    auto& stack = build.stack;
    std::vector<Open> resumed(stack.begin(), stack.end());
    const auto& levels = build.levels;
    for (std::size_t depth = stack.size(); depth-- > 0;) {
        const std::size_t before = depth < levels.size() ? levels[depth].size() : 0;
        close(lane, build, depth, from);
        auto& open = resumed[depth];
        // As close decided: this part holds the task when it is its first or its longest.
        const TimeNs length = from - open.start;
        if (open.task != kNoTask && (open.longest < 0 || length > open.longest)) {
            const bool kept = depth < levels.size() && levels[depth].size() > before;
            open.longest = length;
            open.longestSpan =
                kept ? levels[depth].size() - 1 : std::numeric_limits<std::size_t>::max();
        }
    }
    stack.assign(1, Open{from, state, kNoTask});
    to = clock(build, to);
    close(lane, build, 0, to);
    stack = std::move(resumed);
    for (auto& open : stack) {
        open.start = to;
    }
}

void TraceBuilder::addMarker(TimeNs time, std::int32_t lane, std::string_view text) {
    auto status = markers::ParseStatus::Ok;
    auto event = m_trace.makeMarker(time, text, &status);
    event.lane = Trace::shortIndex(lane);
    if (status == markers::ParseStatus::TooNew) {
        ++m_droppedMarkers;
    } else if (status == markers::ParseStatus::Malformed) {
        warn("malformed starscope marker kept as plain text: \"" + std::string(text) + "\"");
    } else if (status == markers::ParseStatus::Ok && !event.parsed) {
        warn("starscope marker with a slot beyond " + std::to_string(kMaxMarkerSlot) + " or a handle count beyond "
             + std::to_string(kMaxMarkerHandles) + " (more than the model holds) kept as plain text: \""
             + std::string(text) + "\"");
    }
    m_trace.markers.push_back(event);
}

TaskIndex TraceBuilder::findTask(std::uint64_t jobId) const {
    const std::uint64_t base = jobId >> 48;
    const std::uint64_t local = jobId & ((std::uint64_t{1} << 48) - 1);
    if (base < kDenseBases && local < kDenseJobs) {
        return base < m_denseTasks.size() && local < m_denseTasks[base].size() ? m_denseTasks[base][local] : kNoTask;
    }
    const auto it = m_taskByJob.find(jobId);
    return it != m_taskByJob.end() ? it->second : kNoTask;
}

void TraceBuilder::fillDependencies(const std::vector<TaskIndex>& order) {
    auto& trace = m_trace;
    // A task's place in the sorted table from its reading index.
    std::vector<TaskIndex> sortedIndex;
    if (!order.empty()) {
        sortedIndex.resize(order.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            sortedIndex[order[i]] = static_cast<TaskIndex>(i);
        }
    }
    const auto placeOf = [&](TaskIndex read) { return sortedIndex.empty() ? read : sortedIndex[read]; };
    assert(m_dependencyJobs.size() <= std::numeric_limits<std::uint32_t>::max());   // 48 GB of pairs first
    // The pairs in reading order, placed by task (a counting sort), then each task's sorted and
    // made unique: what adding each job once and sorting each task's list gave.
    auto& starts = trace.dependencyStarts.edit();
    starts.assign(trace.tasks.size() + 1, 0);
    for (const auto task : m_dependencyTasks) {
        ++starts[placeOf(task) + 1];
    }
    for (std::size_t i = 1; i < starts.size(); ++i) {
        starts[i] += starts[i - 1];
    }
    std::vector<std::uint64_t> jobs(m_dependencyJobs.size());
    {
        std::vector<std::uint32_t> next(starts.begin(), starts.end() - 1);
        for (std::size_t d = 0; d < m_dependencyJobs.size(); ++d) {
            jobs[next[placeOf(m_dependencyTasks[d])]++] = m_dependencyJobs[d];
        }
    }
    std::vector<TaskIndex>().swap(m_dependencyTasks);
    std::vector<std::uint64_t>().swap(m_dependencyJobs);
    std::uint32_t kept = 0;
    for (std::size_t i = 0; i + 1 < starts.size(); ++i) {
        const auto begin = jobs.begin() + starts[i];
        const auto end = jobs.begin() + starts[i + 1];
        std::sort(begin, end);
        const auto last = std::unique(begin, end);
        starts[i] = kept;
        kept = static_cast<std::uint32_t>(std::copy(begin, last, jobs.begin() + kept) - jobs.begin());
    }
    starts.back() = kept;
    jobs.resize(kept);
    trace.fillDependencies(jobs, [&](std::uint64_t job) {
        const auto read = findTask(job);
        return read == kNoTask ? read : placeOf(read);
    });
}

void TraceBuilder::addDependency(std::uint64_t jobId, std::uint64_t dependsOn) {
    if (m_dependencyTasks.empty()) {   // once: a trace has a dependency per task or more
        m_trace.metadata.try_emplace(std::string(kDependenciesMetadata), "recorded");
    }
    m_dependencyTasks.push_back(task(jobId));
    m_dependencyJobs.push_back(dependsOn);
}

void TraceBuilder::warn(std::string text) {
    // A damaged trace can repeat the same problem thousands of times: keep the first ones.
    constexpr std::size_t kMaxWarnings = 50;
    if (m_trace.warnings.size() < kMaxWarnings) {
        m_trace.warnings.push_back(std::move(text));
    } else if (m_trace.warnings.size() == kMaxWarnings) {
        m_trace.warnings.emplace_back("further warnings dropped");
    }
}

void TraceBuilder::settleRanks() {
    // A trace is of one process (no rank anywhere) or of ranks: every lane, marker and transfer
    // of one, every message between two, each with its entry in the rank table. A trace that
    // names the rank of some and not of others (a Paje file whose containers are partly named
    // "<rank>_...") cannot say whose the others are: it is read as one process, and says so.
    auto& t = m_trace;
    std::size_t ranked = 0;
    std::size_t unranked = 0;
    const auto count = [&](std::int32_t rank) { ++(rank >= 0 ? ranked : unranked); };
    for (const auto& lane : t.lanes) {
        count(lane.rank);
    }
    for (const auto& marker : t.markers) {
        count(marker.rank);
    }
    for (const auto& transfer : t.transfers) {
        count(transfer.rank);
    }
    if (ranked > 0 && unranked > 0) {
        warn(std::to_string(unranked) + " of the " + std::to_string(ranked + unranked)
             + " threads, markers and transfers name no process while the others name their rank: "
               "read as one process");
        for (auto& lane : t.lanes) {
            lane.rank = -1;
        }
        for (auto& marker : t.markers) {
            marker.rank = -1;
        }
        for (auto& transfer : t.transfers) {
            transfer.rank = -1;
        }
        ranked = 0;
    }
    std::set<std::int32_t> ranks;
    for (const auto& lane : t.lanes) {
        ranks.insert(lane.rank);
    }
    for (const auto& marker : t.markers) {
        ranks.insert(marker.rank);
    }
    for (const auto& transfer : t.transfers) {
        ranks.insert(transfer.rank);
    }
    // Messages join two ranks: without them they join nothing the trace shows.
    const auto before = t.messages.size();
    std::erase_if(t.messages, [&](const Message& m) {
        return ranked == 0 || m.fromRank < 0 || m.toRank < 0;
    });
    if (t.messages.size() < before) {
        warn(std::to_string(before - t.messages.size())
             + " MPI messages from or to no known rank were dropped");
    }
    for (const auto& m : t.messages) {
        ranks.insert(m.fromRank);
        ranks.insert(m.toRank);
    }
    ranks.erase(-1);
    // A reader that knows more about a rank (the FxT one) fills its entry in afterwards.
    t.ranks.clear();
    for (const auto rank : ranks) {
        RankInfo info;
        info.rank = rank;
        t.ranks.push_back(info);
    }
}

Trace TraceBuilder::finish(TimeNs end) {
    for (std::size_t lane = 0; lane < m_laneBuilds.size(); ++lane) {
        resetState(static_cast<std::int32_t>(lane), end);
        auto& levels = m_trace.lanes[lane].levels;
        levels.clear();
        levels.reserve(m_laneBuilds[lane].levels.size());
        for (auto& level : m_laneBuilds[lane].levels) {
            levels.emplace_back(std::move(level));
        }
        m_laneBuilds[lane].levels.clear();
    }
    if (m_clamped > 0) {
        warn(std::to_string(m_clamped) + " state changes earlier than the previous one on their lane were "
             "moved forward (damaged or unordered timestamps)");
    }
    if (m_droppedMarkers > 0) {
        warn(std::to_string(m_droppedMarkers)
             + " markers of a newer starscope marker grammar were not decoded");
    }
    // Tasks sorted by job id (spans find theirs by lane and times, not by index). Tasks usually
    // appear in job order (submission), so the sort is often skipped.
    auto& tasks = m_trace.tasks.edit();
    const bool inOrder = std::is_sorted(tasks.begin(), tasks.end(),
                                        [](const Task& a, const Task& b) { return a.jobId < b.jobId; });
    std::vector<TaskIndex> order;   // the tasks' reading order by job id; empty when the same
    if (!inOrder) {
        order.reserve(tasks.size());
        if (m_taskByJob.empty()) {
            // Every id is in the tables, whose order (base, then id) is job order: no sort.
            for (const auto& table : m_denseTasks) {
                std::copy_if(table.begin(), table.end(), std::back_inserter(order),
                             [](TaskIndex index) { return index != kNoTask; });
            }
        } else {
            order.resize(tasks.size());
            std::iota(order.begin(), order.end(), TaskIndex{0});
            std::sort(order.begin(), order.end(),
                      [&](TaskIndex a, TaskIndex b) { return tasks[a].jobId < tasks[b].jobId; });
        }
        // In place, a cycle of the permutation at a time: a sorted copy of the table was as
        // many fresh pages again, faulted in one by one.
        std::vector<bool> placed(tasks.size(), false);
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            if (placed[i]) {
                continue;
            }
            Task first = std::move(tasks[i]);
            std::size_t at = i;
            for (;;) {
                placed[at] = true;
                const std::size_t from = order[at];
                if (from == i) {
                    tasks[at] = std::move(first);
                    break;
                }
                tasks[at] = std::move(tasks[from]);
                at = from;
            }
        }
    }
    // Dependencies into the trace's one table, in the tasks' new order, as task indexes.
    if (!m_dependencyTasks.empty()) {
        fillDependencies(order);
    }
    m_trace.indexTasks();
    std::size_t lostTasks = 0;
    for (auto& lane : m_trace.lanes) {
        for (auto& column : lane.levels) {
            auto& level = column.edit();
            // A task run in several spans records the times of its last one: the earlier ones
            // no longer find it. Only a task closed twice makes such a span, so a trace without
            // one skips the search per task span (3 % of `stats` on a CNN trace).
            for (auto& span : m_rerunTasks > 0 ? std::span<Span>(level) : std::span<Span>()) {
                if (span.runsTask != 0 && m_trace.findTask(lane, span.start, span.end) == kNoTask) {
                    span.runsTask = 0;
                    ++lostTasks;
                }
            }
            // Usually sorted already (time moves forward on a lane). Stable: equal starts keep
            // their emission order.
            const auto byStart = [](const Span& a, const Span& b) { return a.start < b.start; };
            if (!std::is_sorted(level.begin(), level.end(), byStart)) {
                std::stable_sort(level.begin(), level.end(), byStart);
            }
        }
    }
    if (m_outOfRange > 0) {
        // Past kMaxTraceTime the trace's end says so (readTrace refuses it); before the trace's
        // start or with more states than spans hold, the reader's input is damaged.
        warn(std::to_string(m_outOfRange) + " spans outside what the model holds (times from 0 to "
             + std::to_string(kMaxTraceTime) + " ns, " + std::to_string(kMaxStates) + " states) were left out");
    }
    if (lostTasks > 0) {
        warn(std::to_string(lostTasks) + " spans of tasks that ran again later show their state only (a task keeps "
             "the times of its last run)");
    }
    // Usually in time order already (one process's events are); the sort's buffer is only
    // paid for when they are not.
    const auto byTime = [](const MarkerEvent& a, const MarkerEvent& b) { return a.time < b.time; };
    if (!std::is_sorted(m_trace.markers.begin(), m_trace.markers.end(), byTime)) {
        std::stable_sort(m_trace.markers.begin(), m_trace.markers.end(), byTime);
    }
    // Reserved from the input's size: a few hundred records, so the slack is worth returning.
    m_trace.markers.shrink_to_fit();
    settleRanks();
    m_trace.begin = 0;
    m_trace.end = std::max(end, m_latest);
    m_taskByJob.clear();
    m_denseTasks.clear();
    m_laneBuilds.clear();
    return std::move(m_trace);
}

} // namespace starscope::tracer::detail
