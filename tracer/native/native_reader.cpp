// Reading the native format's payload: its extent, names, states, lanes with their spans and
// tasks (the tables that follow are in native_reader_tables.cpp), each record checked against
// the model as it is read.

#include "tracer/native/native_payload.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

namespace starscope::tracer::detail::native {

std::string laneRecord(std::size_t index, const Lane& lane) {
    return "lane " + std::to_string(index) + " (\"" + lane.name + "\")";
}

std::string outOfRange(const std::string& what, std::uint64_t value, std::size_t size,
                       const std::string& table) {
    return what + " " + std::to_string(value) + " is out of range (the " + table + " holds "
           + std::to_string(size) + ")";
}

bool validLane(std::int32_t lane, std::size_t lanes) {
    return lane >= -1 && (lane < 0 || static_cast<std::size_t>(lane) < lanes);
}

namespace {

std::string spanRecord(std::size_t lane, const Lane& l, std::size_t level, std::size_t span) {
    return "span " + std::to_string(span) + " of level " + std::to_string(level) + " of "
           + laneRecord(lane, l);
}

// Times a task may carry: -1 (unknown) or a time of the trace.
bool validTaskTime(TimeNs t) {
    return t >= -1;
}

// Trace::findTask's answer (the lane's task with exactly a span's start and end, from the lane's
// index sorted by (start, end)) for the spans of one level, asked in their order: a level's
// spans are sorted and disjoint (checked as they are read), so the task of each is at or after
// the previous one's place in the index. Each search gallops on from there instead of bisecting
// the whole lane again: that bisection was 15 % of `stats` of a native file of 10 million spans.
class LevelTaskCursor {
public:
    LevelTaskCursor(const Trace& trace, const Lane& lane) : m_trace(trace), m_index(lane.tasks) {}

    TaskIndex find(TimeNs start, TimeNs end) {
        const std::pair<TimeNs, TimeNs> value{start, end};
        const auto before = [this](TaskIndex i, const std::pair<TimeNs, TimeNs>& v) {
            return i < m_trace.tasks.size()
                   && std::pair<TimeNs, TimeNs>{m_trace.tasks[i].start, m_trace.tasks[i].end} < v;
        };
        // Every entry before lo sorts before the value; the probes go 1, 2, 4... entries ahead.
        std::size_t lo = m_from;
        std::size_t hi = m_from;
        for (std::size_t step = 1; hi < m_index.size() && before(m_index[hi], value); step *= 2) {
            lo = hi + 1;
            hi = std::min(m_index.size(), lo + step - 1);
        }
        const auto first = m_index.begin() + static_cast<std::ptrdiff_t>(lo);
        const auto it = std::lower_bound(first, m_index.begin() + static_cast<std::ptrdiff_t>(hi), value, before);
        m_from = static_cast<std::size_t>(it - m_index.begin());
        if (it == m_index.end() || *it >= m_trace.tasks.size()) {
            return kNoTask;
        }
        const auto& task = m_trace.tasks[*it];
        return task.start == start && task.end == end ? *it : kNoTask;
    }

private:
    const Trace& m_trace;
    const std::vector<TaskIndex>& m_index;
    std::size_t m_from = 0;
};

} // namespace

TraceError PayloadReader::corrupt(const std::string& what) const {
    return TraceError{ErrorCode::Corrupt, "truncated or damaged native trace: " + what,
                      m_file.string(), m_c.offset()};
}

TraceError PayloadReader::inconsistent(std::uint64_t offset, const std::string& record,
                                       const std::string& what) const {
    return TraceError{ErrorCode::Corrupt, "inconsistent native trace: " + record + ": " + what,
                      m_file.string(), offset};
}

TraceError PayloadReader::outOfLanes(std::uint64_t offset, const std::string& record,
                                     std::int32_t lane) const {
    const auto lanes = m_trace.lanes.size();
    return inconsistent(
        offset, record,
        lane < 0 ? "lane index " + std::to_string(lane) + " is negative"
                 : outOfRange("lane index", static_cast<std::uint64_t>(lane), lanes, "lane table"));
}

TraceError PayloadReader::unsupported(std::uint64_t offset, const std::string& what) const {
    return TraceError{ErrorCode::Unsupported, what, m_file.string(), offset};
}

TraceError checksumMismatch(const std::filesystem::path& file, std::uint64_t offset) {
    return TraceError{ErrorCode::Corrupt, "damaged native trace: checksum mismatch", file.string(), offset};
}

TraceResult<Trace> PayloadReader::read() {
    using Step = TraceResult<Done> (PayloadReader::*)();
    const bool columns = m_version >= kFirstWithColumns;
    const Step tableSteps[] = {&PayloadReader::extentAndNames,
                               &PayloadReader::states,
                               columns ? &PayloadReader::codeletKeys : nullptr,
                               &PayloadReader::lanes,
                               columns ? &PayloadReader::taskColumns : &PayloadReader::tasks,
                               &PayloadReader::markers,
                               &PayloadReader::ranks,
                               &PayloadReader::messages,
                               &PayloadReader::transfers,
                               &PayloadReader::metadataAndWarnings,
                               columns ? &PayloadReader::readColumns : nullptr,
                               columns ? &PayloadReader::columnsRead : nullptr};
    for (const Step step : tableSteps) {
        if (step == nullptr) {
            continue;
        }
        if (auto done = (this->*step)(); !done) {
            // A damaged file is refused as damaged, whichever record its damage reached first.
            if (m_checksum && done.error().code != ErrorCode::Cancelled) {
                if (auto matches = checksumMatches(); !matches || !*matches) {
                    return fail(matches ? checksumMismatch(m_file, kHeaderSize + m_payload.size()) : matches.error());
                }
            }
            return fail(done.error());
        }
    }
    if (m_checksum) {
        if (auto matches = checksumMatches(); !matches || !*matches) {
            return fail(matches ? checksumMismatch(m_file, kHeaderSize + m_payload.size()) : matches.error());
        }
    }
    return std::move(m_trace);
}

TraceResult<bool> PayloadReader::checksumMatches() {
    if (!m_digest) {
        const std::uint64_t end = kHeaderSize + m_payload.size();
        while (m_hashed < end) {
            const std::uint64_t to = std::min<std::uint64_t>(end, m_hashed + kColumnStep);
            m_hash.update(m_payload.substr(m_hashed - kHeaderSize, to - m_hashed));
            if (m_release) {
                m_release(m_hashed, to);
            }
            m_hashed = to;
            // What follows the tables may be long (a file whose header announces more than it
            // holds): it is told, and can be cancelled.
            if (m_options.progress && !m_options.progress(fractionAt(to))) {
                return fail(TraceError{ErrorCode::Cancelled, "reading cancelled", m_file.string(), to});
            }
        }
        m_digest = m_hash.digest();
    }
    return *m_digest == *m_checksum;
}

double PayloadReader::fractionAt(std::uint64_t offset) const {
    return static_cast<double>(offset - kHeaderSize) / static_cast<double>(std::max<std::size_t>(m_payload.size(), 1));
}

TraceResult<Done> PayloadReader::extentAndNames() {
    auto& trace = m_trace;
    std::uint64_t n = 0;
    if (!m_c.get(trace.begin) || !m_c.get(trace.end) || !m_c.count(n, 4)) {
        return fail(corrupt("header fields"));
    }
    // Readers start every trace at 0 (a Paje trace's states may start before it).
    if (trace.begin < 0 || trace.end < trace.begin) {
        return fail(inconsistent(kHeaderSize, "header",
                                 "the trace runs from " + std::to_string(trace.begin) + " to "
                                     + std::to_string(trace.end)
                                     + " (a start at 0 or later, an end no earlier)"));
    }
    for (std::uint64_t i = 0; i < n; ++i) {
        const auto at = m_c.offset();
        std::string name;
        if (!m_c.str(name)) {
            return fail(corrupt("name table"));
        }
        // Ids are positions in the table: a repeated name would shift every later id.
        if (trace.names.intern(name) != i) {
            return fail(
                inconsistent(at, "name " + std::to_string(i), "\"" + name + "\" appears twice"));
        }
    }
    return Done{};
}

TraceResult<Done> PayloadReader::states() {
    auto& states = m_trace.states;
    return table(states, 5, "state table",
                 [&](std::size_t i, std::uint64_t at) -> std::optional<TraceError> {
                     const auto cls = static_cast<std::uint8_t>(states[i].cls);
                     if (cls > static_cast<std::uint8_t>(kLastStateClass)) {
                         return inconsistent(
                             at, "state " + std::to_string(i) + " (\"" + states[i].name + "\")",
                             "unknown state class " + std::to_string(cls));
                     }
                     return std::nullopt;
                 });
}

TraceResult<Done> PayloadReader::lanes() {
    auto& trace = m_trace;
    std::uint64_t n = 0;
    if (!m_c.count(n, 21)) {
        return fail(corrupt("lane table"));
    }
    trace.lanes.resize(n);
    if (trace.lanes.size() > kMaxLanes) {
        return fail(unsupported(m_c.offset(),
                                std::to_string(trace.lanes.size()) + " lanes, more than the "
                                    + std::to_string(kMaxLanes) + " starscope's model holds"));
    }
    if (trace.states.size() > kMaxStates) {
        return fail(unsupported(m_c.offset(),
                                std::to_string(trace.states.size()) + " states, more than the "
                                    + std::to_string(kMaxStates) + " starscope's model holds"));
    }
    if (trace.end > kMaxTraceTime) {
        return fail(unsupported(8, "the trace ends at " + std::to_string(trace.end)
                                       + " ns, later than the " + std::to_string(kMaxTraceTime)
                                       + " ns (about 39 hours) starscope's model holds"));
    }
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        auto& lane = trace.lanes[l];
        const auto at = m_c.offset();
        std::uint64_t levels = 0;
        if (!get(lane) || !m_c.count(levels, 8)) {
            return fail(corrupt("lane \"" + lane.name + "\""));
        }
        if (static_cast<std::uint8_t>(lane.kind) > static_cast<std::uint8_t>(kLastLaneKind)) {
            return fail(inconsistent(at, laneRecord(l, lane),
                                     "unknown lane kind "
                                         + std::to_string(static_cast<std::uint8_t>(lane.kind))));
        }
        lane.levels.resize(levels);
        if (m_version >= kFirstWithColumns) {
            for (std::size_t d = 0; d < lane.levels.size(); ++d) {
                if (auto read = spanColumn(l, d); !read) {
                    return read;
                }
            }
            continue;   // read past: readColumns reads them and tells the progress
        }
        for (std::size_t d = 0; d < lane.levels.size(); ++d) {
            if (auto read = spans(l, d); !read) {
                return read;
            }
            releaseRead();
            if (m_options.progress && !m_options.progress(m_c.fraction())) {
                return fail(TraceError{ErrorCode::Cancelled, "reading cancelled", m_file.string(),
                                       m_c.offset()});
            }
        }
    }
    return Done{};
}

// The spans of one level of a lane: each of a known state, within the trace, after the one
// before it; the task each names is checked once the task table is read (spanTasks).
TraceResult<Done> PayloadReader::spans(std::size_t l, std::size_t d) {
    const auto& trace = m_trace;
    const auto& lane = trace.lanes[l];
    auto& level = m_trace.lanes[l].levels[d].edit();
    std::uint64_t spans = 0;
    if (!m_c.count(spans, 24)) {
        return fail(corrupt("spans of lane \"" + lane.name + "\""));
    }
    level.resize(spans);
    for (std::size_t i = 0; i < level.size(); ++i) {
        auto& span = level[i];
        const auto spanAt = m_c.offset();
        FileSpan record;
        get(record); // the count promised its bytes
        const auto where = [&] { return spanRecord(l, lane, d, i); };
        if (record.state >= trace.states.size()) {
            return fail(inconsistent(
                spanAt, where(),
                outOfRange("state id", record.state, trace.states.size(), "state table")));
        }
        if (record.end < record.start) {
            return fail(inconsistent(spanAt, where(),
                                     "ends (" + std::to_string(record.end) + ") before it starts ("
                                         + std::to_string(record.start) + ")"));
        }
        // Within the trace (which ends by kMaxTraceTime), its times fit the span's 48 bits and
        // every duration the analysis takes on it fits.
        if (record.start < 0 || record.end > trace.end) {
            return fail(inconsistent(
                spanAt, where(),
                "runs from " + std::to_string(record.start) + " to " + std::to_string(record.end)
                    + ", outside the trace (which ends at " + std::to_string(trace.end) + ")"));
        }
        span = Span{record.start, record.end, record.state, record.task != kNoTask};
        if (record.task != kNoTask) {
            m_spanTasks.push_back(SpanTask{spanAt, record.task});
        }
        // Analyses binary-search the levels and sum their spans: sorted and disjoint.
        if (i > 0 && span.start < level[i - 1].end) {
            return fail(inconsistent(
                spanAt, where(),
                "starts (" + std::to_string(span.start) + ") before the previous span ends ("
                    + std::to_string(level[i - 1].end) + "): spans overlap or are unsorted"));
        }
        if (record.task != kNoTask && (m_badTask == kNoTask || record.task > m_badTask)) {
            m_badTask = record.task;
            m_badTaskOffset = spanAt;
            m_badTaskRecord = where();
        }
    }
    return Done{};
}

TraceResult<Done> PayloadReader::tasks() {
    auto& trace = m_trace;
    std::uint64_t n = 0;
    if (!m_c.count(n, 48)) {
        return fail(corrupt("task table"));
    }
    auto& tasks = trace.tasks.edit();
    tasks.resize(n);
    trace.dependencyStarts.reserve(n + 1);
    // The job ids read, made task indexes once every task is known.
    std::vector<std::uint64_t> dependencyJobs;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        if (i % kRecordsBetweenReleases == 0) {
            releaseRead();
        }
        auto& task = tasks[i];
        const auto at = m_c.offset();
        FileTask record;
        std::uint64_t deps = 0;
        if (!get(record) || !m_c.count(deps, 8)) {
            return fail(corrupt("task table"));
        }
        task.jobId = record.jobId;
        // One table for every task's dependencies, indexed by 32-bit starts.
        if (deps > std::numeric_limits<std::uint32_t>::max() - dependencyJobs.size()) {
            return fail(
                unsupported(at, "more task dependencies than starscope's model holds (4 billion)"));
        }
        trace.dependencyStarts.push_back(static_cast<std::uint32_t>(dependencyJobs.size()));
        dependencyJobs.resize(dependencyJobs.size() + deps);
        m_c.raw(dependencyJobs.data() + dependencyJobs.size() - deps, deps * sizeof(std::uint64_t));
        // Made only for an error: a string per task was a tenth of reading the table.
        const auto where = [&] { return "task " + std::to_string(i) + " (job " + std::to_string(task.jobId) + ")"; };
        if (record.codelet != kNoName && record.codelet >= trace.names.size()) {
            return fail(inconsistent(
                at, where(),
                outOfRange("codelet name id", record.codelet, trace.names.size(), "name table")));
        }
        if (!validLane(record.lane, trace.lanes.size())) {
            return fail(outOfLanes(at, where(), record.lane));
        }
        trace.setCodelet(task, record.codelet, record.footprint);
        task.lane = Trace::shortIndex(record.lane); // the lane table holds at most kMaxLanes
        if (!validTaskTime(record.submit) || !validTaskTime(record.start)
            || !validTaskTime(record.end)) {
            return fail(inconsistent(at, where(), "a time below -1 (unknown)"));
        }
        // The model holds 48-bit times, as spans do.
        if (record.submit > kMaxTraceTime || record.start > kMaxTraceTime
            || record.end > kMaxTraceTime) {
            return fail(inconsistent(at, where(),
                                     "a time beyond what the model holds ("
                                         + std::to_string(kMaxTraceTime) + " ns)"));
        }
        task.submit = record.submit;
        task.start = record.start;
        task.end = record.end;
        if (task.start >= 0 && task.end >= 0 && task.end < task.start) {
            return fail(inconsistent(at, where(),
                                     "ends (" + std::to_string(task.end) + ") before it starts ("
                                         + std::to_string(task.start) + ")"));
        }
        // Dependencies are looked up by binary search on the job ids.
        if (i > 0 && task.jobId < trace.tasks[i - 1].jobId) {
            return fail(inconsistent(at, where(),
                                     "not sorted by job id (follows job "
                                         + std::to_string(trace.tasks[i - 1].jobId) + ")"));
        }
    }
    trace.dependencyStarts.push_back(static_cast<std::uint32_t>(dependencyJobs.size()));
    if (dependencyJobs.empty()) {
        trace.dependencyStarts.clear(); // as readers leave a trace without dependencies
    }
    // Tasks are in job id order (checked above): a job's task is searched for from where the
    // previous one was found, in steps doubling each time, then bisected. A task waits mostly
    // for tasks near it in job order, and its neighbours' dependencies come next: a bisection of
    // the whole table, its first steps cache misses each, was two thirds of reading the task
    // table of a 10 M-span job (perf).
    std::size_t hint = 0;
    trace.fillDependencies(dependencyJobs, [&](std::uint64_t job) {
        const std::size_t count = tasks.size();
        if (count == 0) {
            return kNoTask;
        }
        // The first task of this job or a later one lies in [lo, hi].
        std::size_t lo = 0;
        std::size_t hi = count;
        std::size_t step = 1;
        if (tasks[hint].jobId < job) {
            lo = hint + 1;
            while (lo + step - 1 < count && tasks[lo + step - 1].jobId < job) {
                lo += step;
                step *= 2;
            }
            hi = std::min(count, lo + step - 1);
        } else {
            hi = hint;
            while (hi >= step && tasks[hi - step].jobId >= job) {
                hi -= step;
                step *= 2;
            }
            lo = hi >= step ? hi - step + 1 : 0;
        }
        const auto it = std::lower_bound(tasks.begin() + static_cast<std::ptrdiff_t>(lo),
                                         tasks.begin() + static_cast<std::ptrdiff_t>(hi), job,
                                         [](const Task& t, std::uint64_t j) { return t.jobId < j; });
        const auto at = static_cast<std::size_t>(it - tasks.begin());
        hint = std::min(at, count - 1);
        return at < count && it->jobId == job ? static_cast<TaskIndex>(at) : kNoTask;
    });
    return spanTasks();
}

// Once the task table is read: every task a span names exists and ran in that span.
TraceResult<Done> PayloadReader::spanTasks() {
    auto& trace = m_trace;
    if (m_badTask != kNoTask && m_badTask >= trace.tasks.size()) {
        return fail(
            inconsistent(m_badTaskOffset, m_badTaskRecord,
                         outOfRange("task index", m_badTask, trace.tasks.size(), "task table")));
    }
    trace.indexTasks();
    auto named = m_spanTasks.begin();
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        const auto& lane = trace.lanes[l];
        for (std::size_t d = 0; d < lane.levels.size(); ++d) {
            LevelTaskCursor tasks(trace, lane);
            for (std::size_t i = 0; i < lane.levels[d].size(); ++i) {
                const auto& span = lane.levels[d][i];
                if (span.runsTask == 0) {
                    continue;
                }
                const auto found = tasks.find(span.start, span.end);
                if (found != named->task) {
                    const auto& task = trace.tasks[named->task];
                    return fail(inconsistent(
                        named->offset, spanRecord(l, lane, d, i),
                        "names task " + std::to_string(named->task) + " (job "
                            + std::to_string(task.jobId) + "), which did not run on this lane from "
                            + std::to_string(span.start) + " to " + std::to_string(span.end)));
                }
                ++named;
            }
        }
    }
    return Done{};
}

} // namespace starscope::tracer::detail::native
