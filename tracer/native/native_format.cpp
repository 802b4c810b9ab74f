#include "tracer/native/native_format.hpp"

// starscope's native trace file: magic, packed version, payload size, payload, checksum.
// Reading and writing live together so the layout is defined in one place; upgrades from an
// older version belong in readNative, nowhere else.
//
//   "SSTRACE\0"  u32 version  u32 flags(0)  u64 payloadSize  payload  u64 fnv1a(payload)
// Integers are little-endian (the only byte order of the machines starscope runs on).

#include "common/file_writer.hpp"
#include "common/fnv1a.hpp"
#include "common/mapped_file.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <type_traits>

static_assert(std::endian::native == std::endian::little, "the native format is little-endian");

namespace starscope::tracer {

namespace fs = std::filesystem;

namespace {

constexpr std::uint32_t kOldestReadable = 1;
constexpr std::size_t kHeaderSize = 8 + 4 + 4 + 8;

class Writer {
public:
    // Numbers only: a packed model field (PackedTime) is written as the number it holds.
    template <typename T>
        requires std::is_arithmetic_v<T> || std::is_enum_v<T>
    void put(T value) {
        char bytes[sizeof(T)];
        std::memcpy(bytes, &value, sizeof(T));
        m_out.append(bytes, sizeof(T));
    }
    void str(std::string_view text) {
        put(static_cast<std::uint32_t>(text.size()));
        m_out.append(text);
    }
    void raw(const void* data, std::size_t size) {
        if (size > 0) {
            m_out.append(static_cast<const char*>(data), size);
        }
    }
    std::string& data() { return m_out; }

private:
    std::string m_out;
};

class Cursor {
public:
    Cursor(std::string_view data, std::size_t base) : m_data(data), m_base(base) {}
    template <typename T>
        requires std::is_arithmetic_v<T> || std::is_enum_v<T>
    bool get(T& value) {
        if (m_data.size() - m_pos < sizeof(T)) {
            return false;
        }
        std::memcpy(&value, m_data.data() + m_pos, sizeof(T));
        m_pos += sizeof(T);
        return true;
    }
    bool str(std::string& text) {
        std::uint32_t size = 0;
        if (!get(size) || m_data.size() - m_pos < size) {
            return false;
        }
        text.assign(m_data.data() + m_pos, size);
        m_pos += size;
        return true;
    }
    bool raw(void* out, std::size_t size) {
        if (size == 0) {
            return true;   // out may be the null data() of an empty vector
        }
        if (m_data.size() - m_pos < size) {
            return false;
        }
        std::memcpy(out, m_data.data() + m_pos, size);
        m_pos += size;
        return true;
    }
    // A count is plausible when that many items of at least minSize bytes could still follow:
    // a damaged count must not make us allocate gigabytes.
    bool count(std::uint64_t& n, std::size_t minSize) {
        return get(n) && n <= (m_data.size() - m_pos) / std::max<std::size_t>(minSize, 1);
    }
    std::uint64_t offset() const { return m_base + m_pos; }
    double fraction() const { return static_cast<double>(m_pos) / static_cast<double>(std::max<std::size_t>(m_data.size(), 1)); }

private:
    std::string_view m_data;
    std::size_t m_base;
    std::size_t m_pos = 0;
};

std::string payload(const Trace& trace) {
    Writer w;
    w.put(trace.begin);
    w.put(trace.end);
    w.put(static_cast<std::uint64_t>(trace.names.size()));
    for (std::size_t i = 0; i < trace.names.size(); ++i) {
        w.str(trace.names.name(static_cast<NameId>(i)));
    }
    w.put(static_cast<std::uint64_t>(trace.states.size()));
    for (const auto& state : trace.states) {
        w.str(state.name);
        w.put(static_cast<std::uint8_t>(state.cls));
    }
    w.put(static_cast<std::uint64_t>(trace.lanes.size()));
    for (const auto& lane : trace.lanes) {
        w.str(lane.name);
        w.put(static_cast<std::uint8_t>(lane.kind));
        w.put(lane.memoryNode);
        w.put(lane.workerId);
        w.put(lane.rank);
        w.put(static_cast<std::uint64_t>(lane.levels.size()));
        for (const auto& level : lane.levels) {
            w.put(static_cast<std::uint64_t>(level.size()));
            for (const auto& span : level) {
                w.put(static_cast<TimeNs>(span.start));
                w.put(static_cast<TimeNs>(span.end));
                w.put(static_cast<std::uint32_t>(span.state));
                // The file keeps each span's task index (the model finds it by lane and times).
                // Written as the struct holds it: a span whose task is not found by its times (a
                // model changed after its tasks were indexed) gets kNoTask, and the reader says
                // what is inconsistent.
                w.put(span.runsTask != 0 ? trace.findTask(lane, span.start, span.end) : kNoTask);
            }
        }
    }
    w.put(static_cast<std::uint64_t>(trace.tasks.size()));
    for (const auto& task : trace.tasks) {
        w.put(task.jobId);
        // The file keeps each task's codelet and footprint (the model interns the pair).
        w.put(trace.codeletIdOf(task));
        w.put(trace.footprintOf(task));
        w.put(static_cast<TimeNs>(task.submit));
        w.put(static_cast<TimeNs>(task.start));
        w.put(static_cast<TimeNs>(task.end));
        w.put(static_cast<std::int32_t>(task.lane));   // 32 bits in the file, 16 in the model
        // The file names dependencies by job id, as the model did before its 4-byte entries.
        const auto dependencies = trace.dependenciesOf(task);
        w.put(static_cast<std::uint64_t>(dependencies.size()));
        for (const std::uint64_t job : dependencies) {
            w.put(job);
        }
    }
    w.put(static_cast<std::uint64_t>(trace.markers.size()));
    for (const auto& m : trace.markers) {
        // The file's widths, wider than the model's (MarkerEvent).
        w.put(static_cast<TimeNs>(m.time));
        w.put(static_cast<std::int32_t>(m.lane));
        w.put(static_cast<std::int32_t>(m.rank));
        w.put(static_cast<std::uint8_t>(m.parsed ? 1 : 0));
        w.put(static_cast<std::uint8_t>(m.kind));
        w.put(m.epoch);
        w.put(m.batch);
        w.put(static_cast<std::int32_t>(m.slot));
        w.put(static_cast<std::int64_t>(m.handles));
        w.str(trace.arenaOf(m));
        w.str(trace.textOf(m));
    }
    w.put(static_cast<std::uint64_t>(trace.ranks.size()));
    for (const auto& r : trace.ranks) {
        w.put(r.rank);
        w.put(r.worldSize);
        w.str(r.source);
        w.put(r.syncPoints);
        w.put(r.localSyncStart);
        w.put(r.localSyncEnd);
        w.put(r.clockOffset);
        w.put(r.clockOffsetEnd);
    }
    w.put(static_cast<std::uint64_t>(trace.messages.size()));
    for (const auto& m : trace.messages) {
        w.put(m.fromRank);
        w.put(m.toRank);
        w.put(m.fromLane);
        w.put(m.toLane);
        w.put(m.start);
        w.put(m.end);
        w.put(m.size);
        w.put(m.tag);
        w.put(m.sendJob);
        w.put(m.recvJob);
    }
    w.put(static_cast<std::uint64_t>(trace.transfers.size()));
    for (const auto& x : trace.transfers) {
        w.put(x.rank);
        w.put(x.fromNode);
        w.put(x.toNode);
        w.put(static_cast<std::uint8_t>(x.kind));
        w.put(x.start);
        w.put(x.end);
        w.put(x.size);
    }
    // Sorted, so the same trace always gives the same bytes.
    const std::map<std::string, std::string> metadata(trace.metadata.begin(), trace.metadata.end());
    w.put(static_cast<std::uint64_t>(metadata.size()));
    for (const auto& [key, value] : metadata) {
        w.str(key);
        w.str(value);
    }
    w.put(static_cast<std::uint64_t>(trace.warnings.size()));
    for (const auto& warning : trace.warnings) {
        w.str(warning);
    }
    return std::move(w.data());
}

TraceError corrupt(const fs::path& file, const Cursor& c, const std::string& what) {
    return TraceError{ErrorCode::Corrupt, "truncated or damaged native trace: " + what,
                      file.string(), c.offset()};
}

// A record whose bytes are whole (the checksum matched) but whose content contradicts the
// model: an index out of its table, times out of order. Everything downstream indexes the
// tables with these values, so they are checked here, once, for every consumer.
TraceError inconsistent(const fs::path& file, std::uint64_t offset, const std::string& record,
                        const std::string& what) {
    return TraceError{ErrorCode::Corrupt, "inconsistent native trace: " + record + ": " + what,
                      file.string(), offset};
}

// What is wrong with the interval of a message or transfer record, if anything: it must lie
// inside the trace, and the table is sorted by start (previousStart: the record before it's, the
// trace's begin for the first).
std::optional<std::string> intervalProblem(TimeNs start, TimeNs end, TimeNs previousStart,
                                           const Trace& trace, const char* table) {
    if (start < trace.begin || end < start || end > trace.end) {
        return "runs from " + std::to_string(start) + " to " + std::to_string(end) + ", not inside the trace ("
               + std::to_string(trace.begin) + " to " + std::to_string(trace.end) + ")";
    }
    if (start < previousStart) {
        return std::string(table) + " are not sorted by start";
    }
    return std::nullopt;
}

std::string laneRecord(std::size_t index, const Lane& lane) {
    return "lane " + std::to_string(index) + " (\"" + lane.name + "\")";
}

std::string spanRecord(std::size_t lane, const Lane& l, std::size_t level, std::size_t span) {
    return "span " + std::to_string(span) + " of level " + std::to_string(level) + " of " + laneRecord(lane, l);
}

std::string outOfRange(const std::string& what, std::uint64_t value, std::size_t size, const std::string& table) {
    return what + " " + std::to_string(value) + " is out of range (the " + table + " holds "
           + std::to_string(size) + ")";
}

// Times a task may carry: -1 (unknown) or a time of the trace.
bool validTaskTime(TimeNs t) { return t >= -1; }

// Version 2 added the ranks of a StarPU-MPI run: a rank per lane and marker, the rank table and
// the messages between ranks. Version 1 files read as one-process traces.
constexpr std::uint32_t kFirstWithRanks = 2;
// Version 3 added the data transfers between memory nodes; older files have none.
constexpr std::uint32_t kFirstWithTransfers = 3;

TraceError outOfLanes(const fs::path& file, std::uint64_t at, const std::string& record, std::int32_t lane,
                      std::size_t lanes) {
    return inconsistent(file, at, record,
                        lane < 0 ? "lane index " + std::to_string(lane) + " is negative"
                                 : outOfRange("lane index", static_cast<std::uint64_t>(lane), lanes, "lane table"));
}

bool validLane(std::int32_t lane, std::size_t lanes) {
    return lane >= -1 && (lane < 0 || static_cast<std::size_t>(lane) < lanes);
}

// The rank and message tables (version 2 on): ranks sorted and unique, every lane's and
// marker's rank one of them, messages between known ranks, inside the trace, sorted.
TraceResult<Done> parseRanks(const fs::path& file, Cursor& c, Trace& trace) {
    std::uint64_t n = 0;
    if (!c.count(n, 48)) {
        return fail(corrupt(file, c, "rank table"));
    }
    trace.ranks.resize(n);
    for (std::size_t i = 0; i < trace.ranks.size(); ++i) {
        auto& r = trace.ranks[i];
        const auto at = c.offset();
        if (!c.get(r.rank) || !c.get(r.worldSize) || !c.str(r.source) || !c.get(r.syncPoints)
            || !c.get(r.localSyncStart) || !c.get(r.localSyncEnd) || !c.get(r.clockOffset) || !c.get(r.clockOffsetEnd)) {
            return fail(corrupt(file, c, "rank table"));
        }
        if (r.rank > kMaxRank) {
            return fail(TraceError{ErrorCode::Unsupported,
                                   "rank " + std::to_string(r.rank) + ", beyond the rank " + std::to_string(kMaxRank)
                                       + " starscope's model holds",
                                   file.string(), at});
        }
        if (r.rank < 0 || (i > 0 && r.rank <= trace.ranks[i - 1].rank)) {
            return fail(inconsistent(file, at, "rank entry " + std::to_string(i),
                                     "rank " + std::to_string(r.rank) + " is negative, repeated or unsorted"));
        }
    }
    const auto known = [&trace](std::int32_t rank) { return rank == -1 ? trace.ranks.empty() : trace.rankInfo(rank) != nullptr; };
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        if (!known(trace.lanes[l].rank)) {
            return fail(inconsistent(file, c.offset(), laneRecord(l, trace.lanes[l]),
                                     "rank " + std::to_string(trace.lanes[l].rank) + " is not in the rank table"));
        }
    }
    for (std::size_t i = 0; i < trace.markers.size(); ++i) {
        if (!known(trace.markers[i].rank)) {
            return fail(inconsistent(file, c.offset(), "marker " + std::to_string(i),
                                     "rank " + std::to_string(trace.markers[i].rank) + " is not in the rank table"));
        }
    }
    if (!c.count(n, 64)) {
        return fail(corrupt(file, c, "message table"));
    }
    trace.messages.resize(n);
    for (std::size_t i = 0; i < trace.messages.size(); ++i) {
        auto& m = trace.messages[i];
        const auto at = c.offset();
        if (!c.get(m.fromRank) || !c.get(m.toRank) || !c.get(m.fromLane) || !c.get(m.toLane) || !c.get(m.start)
            || !c.get(m.end) || !c.get(m.size) || !c.get(m.tag) || !c.get(m.sendJob) || !c.get(m.recvJob)) {
            return fail(corrupt(file, c, "message table"));
        }
        const std::string record = "message " + std::to_string(i);
        if (trace.rankInfo(m.fromRank) == nullptr || trace.rankInfo(m.toRank) == nullptr) {
            return fail(inconsistent(file, at, record,
                                     "from rank " + std::to_string(m.fromRank) + " to rank " + std::to_string(m.toRank)
                                         + ": not both in the rank table"));
        }
        for (const auto lane : {m.fromLane, m.toLane}) {
            if (!validLane(lane, trace.lanes.size())) {
                return fail(outOfLanes(file, at, record, lane, trace.lanes.size()));
            }
        }
        const TimeNs previous = i > 0 ? trace.messages[i - 1].start : trace.begin;
        if (const auto problem = intervalProblem(m.start, m.end, previous, trace, "messages")) {
            return fail(inconsistent(file, at, record, *problem));
        }
    }
    return Done{};
}

// The transfer table (version 3 on): each of a known rank (-1 without ranks), of a known kind,
// inside the trace, sorted by start.
TraceResult<Done> parseTransfers(const fs::path& file, Cursor& c, Trace& trace) {
    std::uint64_t n = 0;
    if (!c.count(n, 37)) {
        return fail(corrupt(file, c, "transfer table"));
    }
    trace.transfers.resize(n);
    for (std::size_t i = 0; i < trace.transfers.size(); ++i) {
        auto& x = trace.transfers[i];
        const auto at = c.offset();
        std::uint8_t kind = 0;
        if (!c.get(x.rank) || !c.get(x.fromNode) || !c.get(x.toNode) || !c.get(kind) || !c.get(x.start)
            || !c.get(x.end) || !c.get(x.size)) {
            return fail(corrupt(file, c, "transfer table"));
        }
        const std::string record = "transfer " + std::to_string(i);
        if (x.rank == -1 ? !trace.ranks.empty() : trace.rankInfo(x.rank) == nullptr) {
            return fail(inconsistent(file, at, record, "rank " + std::to_string(x.rank) + " is not in the rank table"));
        }
        if (kind > static_cast<std::uint8_t>(TransferKind::IdleFetch)) {
            return fail(inconsistent(file, at, record, "kind " + std::to_string(kind) + " is unknown"));
        }
        x.kind = static_cast<TransferKind>(kind);
        const TimeNs previous = i > 0 ? trace.transfers[i - 1].start : trace.begin;
        if (const auto problem = intervalProblem(x.start, x.end, previous, trace, "transfers")) {
            return fail(inconsistent(file, at, record, *problem));
        }
    }
    return Done{};
}

TraceResult<Trace> parsePayload(const fs::path& file, std::string_view data, std::uint32_t version,
                                const ReadOptions& options) {
    const bool ranks = version >= kFirstWithRanks;
    Cursor c(data, kHeaderSize);
    Trace trace;
    std::uint64_t n = 0;
    if (!c.get(trace.begin) || !c.get(trace.end) || !c.count(n, 4)) {
        return fail(corrupt(file, c, "header fields"));
    }
    // Readers start every trace at 0 (a Paje trace's states may start before it).
    if (trace.begin < 0 || trace.end < trace.begin) {
        return fail(inconsistent(file, kHeaderSize, "header",
                                 "the trace runs from " + std::to_string(trace.begin) + " to "
                                     + std::to_string(trace.end) + " (a start at 0 or later, an end no earlier)"));
    }
    for (std::uint64_t i = 0; i < n; ++i) {
        const auto at = c.offset();
        std::string name;
        if (!c.str(name)) {
            return fail(corrupt(file, c, "name table"));
        }
        // Ids are positions in the table: a repeated name would shift every later id.
        if (trace.names.intern(name) != i) {
            return fail(inconsistent(file, at, "name " + std::to_string(i), "\"" + name + "\" appears twice"));
        }
    }
    if (!c.count(n, 5)) {
        return fail(corrupt(file, c, "state table"));
    }
    for (std::uint64_t i = 0; i < n; ++i) {
        const auto at = c.offset();
        StateInfo state;
        std::uint8_t cls = 0;
        if (!c.str(state.name) || !c.get(cls)) {
            return fail(corrupt(file, c, "state table"));
        }
        if (cls > static_cast<std::uint8_t>(kLastStateClass)) {
            return fail(inconsistent(file, at, "state " + std::to_string(i) + " (\"" + state.name + "\")",
                                     "unknown state class " + std::to_string(cls)));
        }
        state.cls = static_cast<StateClass>(cls);
        trace.states.push_back(std::move(state));
    }
    if (!c.count(n, 21)) {
        return fail(corrupt(file, c, "lane table"));
    }
    trace.lanes.resize(n);
    if (trace.lanes.size() > kMaxLanes) {
        return fail(TraceError{ErrorCode::Unsupported,
                               std::to_string(trace.lanes.size()) + " lanes, more than the " + std::to_string(kMaxLanes)
                                   + " starscope's model holds",
                               file.string(), c.offset()});
    }
    if (trace.states.size() > kMaxStates) {
        return fail(TraceError{ErrorCode::Unsupported,
                               std::to_string(trace.states.size()) + " states, more than the " + std::to_string(kMaxStates)
                                   + " starscope's model holds",
                               file.string(), c.offset()});
    }
    if (trace.end > kMaxTraceTime) {
        return fail(TraceError{ErrorCode::Unsupported,
                               "the trace ends at " + std::to_string(trace.end) + " ns, later than the "
                                   + std::to_string(kMaxTraceTime) + " ns (about 39 hours) starscope's model holds",
                               file.string(), 8});
    }
    // Task indexes are checked once the task table is read; keep the first one out of range.
    std::uint64_t badTaskOffset = 0;
    std::string badTaskRecord;
    TaskIndex badTask = kNoTask;
    // The task each span names, in file order: the model finds a span's task by its lane and
    // times instead, so once the task table is read each must be the one found.
    struct SpanTask {
        std::uint64_t offset;
        TaskIndex task;
    };
    std::vector<SpanTask> spanTasks;
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        auto& lane = trace.lanes[l];
        const auto at = c.offset();
        std::uint8_t kind = 0;
        std::uint64_t levels = 0;
        if (!c.str(lane.name) || !c.get(kind) || !c.get(lane.memoryNode) || !c.get(lane.workerId)
            || (ranks && !c.get(lane.rank)) || !c.count(levels, 8)) {
            return fail(corrupt(file, c, "lane \"" + lane.name + "\""));
        }
        if (kind > static_cast<std::uint8_t>(LaneKind::MpiThread)) {
            return fail(inconsistent(file, at, laneRecord(l, lane), "unknown lane kind " + std::to_string(kind)));
        }
        lane.kind = static_cast<LaneKind>(kind);
        lane.levels.resize(levels);
        for (std::size_t d = 0; d < lane.levels.size(); ++d) {
            auto& level = lane.levels[d];
            std::uint64_t spans = 0;
            if (!c.count(spans, 24)) {
                return fail(corrupt(file, c, "spans of lane \"" + lane.name + "\""));
            }
            level.resize(spans);
            for (std::size_t i = 0; i < level.size(); ++i) {
                auto& span = level[i];
                const auto spanAt = c.offset();
                TimeNs start = 0;
                TimeNs end = 0;
                std::uint32_t state = 0;
                TaskIndex task = kNoTask;
                c.get(start);
                c.get(end);
                c.get(state);
                c.get(task);
                const auto record = [&] { return spanRecord(l, lane, d, i); };
                if (state >= trace.states.size()) {
                    return fail(inconsistent(file, spanAt, record(),
                                             outOfRange("state id", state, trace.states.size(), "state table")));
                }
                if (end < start) {
                    return fail(inconsistent(file, spanAt, record(),
                                             "ends (" + std::to_string(end) + ") before it starts ("
                                                 + std::to_string(start) + ")"));
                }
                // Within the trace (which ends by kMaxTraceTime), its times fit the span's 48
                // bits and every duration the analysis takes on it fits.
                if (start < 0 || end > trace.end) {
                    return fail(inconsistent(file, spanAt, record(),
                                             "runs from " + std::to_string(start) + " to " + std::to_string(end)
                                                 + ", outside the trace (which ends at " + std::to_string(trace.end) + ")"));
                }
                span = Span{start, end, state, task != kNoTask};
                if (task != kNoTask) {
                    spanTasks.push_back(SpanTask{spanAt, task});
                }
                // Analyses binary-search the levels and sum their spans: sorted and disjoint.
                if (i > 0 && span.start < level[i - 1].end) {
                    return fail(inconsistent(file, spanAt, record(),
                                             "starts (" + std::to_string(span.start) + ") before the previous span ends ("
                                                 + std::to_string(level[i - 1].end) + "): spans overlap or are unsorted"));
                }
                if (task != kNoTask && (badTask == kNoTask || task > badTask)) {
                    badTask = task;
                    badTaskOffset = spanAt;
                    badTaskRecord = record();
                }
            }
            if (options.progress && !options.progress(c.fraction())) {
                return fail(TraceError{ErrorCode::Cancelled, "reading cancelled", file.string(), c.offset()});
            }
        }
    }
    if (!c.count(n, 48)) {
        return fail(corrupt(file, c, "task table"));
    }
    trace.tasks.resize(n);
    trace.dependencyStarts.reserve(n + 1);
    // The job ids read, made task indexes once every task is known.
    std::vector<std::uint64_t> dependencyJobs;
    for (std::size_t i = 0; i < trace.tasks.size(); ++i) {
        auto& task = trace.tasks[i];
        const auto at = c.offset();
        std::uint64_t deps = 0;
        TimeNs submit = -1;
        TimeNs start = -1;
        TimeNs end = -1;
        NameId codelet = kNoName;
        std::uint32_t footprint = 0;
        std::int32_t lane = -1;
        if (!c.get(task.jobId) || !c.get(codelet) || !c.get(footprint) || !c.get(submit) || !c.get(start)
            || !c.get(end) || !c.get(lane) || !c.count(deps, 8)) {
            return fail(corrupt(file, c, "task table"));
        }
        // One table for every task's dependencies, indexed by 32-bit starts.
        if (deps > std::numeric_limits<std::uint32_t>::max() - dependencyJobs.size()) {
            return fail(TraceError{ErrorCode::Unsupported, "more task dependencies than starscope's model holds (4 billion)",
                                   file.string(), at});
        }
        trace.dependencyStarts.push_back(static_cast<std::uint32_t>(dependencyJobs.size()));
        dependencyJobs.resize(dependencyJobs.size() + deps);
        c.raw(dependencyJobs.data() + dependencyJobs.size() - deps, deps * sizeof(std::uint64_t));
        const std::string record = "task " + std::to_string(i) + " (job " + std::to_string(task.jobId) + ")";
        if (codelet != kNoName && codelet >= trace.names.size()) {
            return fail(inconsistent(file, at, record,
                                     outOfRange("codelet name id", codelet, trace.names.size(), "name table")));
        }
        if (lane < -1 || (lane >= 0 && static_cast<std::size_t>(lane) >= trace.lanes.size())) {
            return fail(inconsistent(file, at, record,
                                     lane < 0 ? "lane index " + std::to_string(lane) + " is negative"
                                              : outOfRange("lane index", static_cast<std::uint64_t>(lane),
                                                           trace.lanes.size(), "lane table")));
        }
        trace.setCodelet(task, codelet, footprint);
        task.lane = Trace::shortIndex(lane);   // the lane table holds at most kMaxLanes
        if (!validTaskTime(submit) || !validTaskTime(start) || !validTaskTime(end)) {
            return fail(inconsistent(file, at, record, "a time below -1 (unknown)"));
        }
        // The model holds 48-bit times, as spans do.
        if (submit > kMaxTraceTime || start > kMaxTraceTime || end > kMaxTraceTime) {
            return fail(inconsistent(file, at, record,
                                     "a time beyond what the model holds (" + std::to_string(kMaxTraceTime) + " ns)"));
        }
        task.submit = submit;
        task.start = start;
        task.end = end;
        if (task.start >= 0 && task.end >= 0 && task.end < task.start) {
            return fail(inconsistent(file, at, record,
                                     "ends (" + std::to_string(task.end) + ") before it starts ("
                                         + std::to_string(task.start) + ")"));
        }
        // Dependencies are looked up by binary search on the job ids.
        if (i > 0 && task.jobId < trace.tasks[i - 1].jobId) {
            return fail(inconsistent(file, at, record,
                                     "not sorted by job id (follows job " + std::to_string(trace.tasks[i - 1].jobId) + ")"));
        }
    }
    trace.dependencyStarts.push_back(static_cast<std::uint32_t>(dependencyJobs.size()));
    if (dependencyJobs.empty()) {
        trace.dependencyStarts.clear();   // as readers leave a trace without dependencies
    }
    // Tasks are in job id order (checked above): a job's task is bisected.
    trace.fillDependencies(dependencyJobs, [&](std::uint64_t job) {
        const auto it = std::lower_bound(trace.tasks.begin(), trace.tasks.end(), job,
                                         [](const Task& t, std::uint64_t j) { return t.jobId < j; });
        return it != trace.tasks.end() && it->jobId == job ? static_cast<TaskIndex>(it - trace.tasks.begin()) : kNoTask;
    });
    if (badTask != kNoTask && badTask >= trace.tasks.size()) {
        return fail(inconsistent(file, badTaskOffset, badTaskRecord,
                                 outOfRange("task index", badTask, trace.tasks.size(), "task table")));
    }
    trace.indexTasks();
    auto named = spanTasks.begin();
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        const auto& lane = trace.lanes[l];
        for (std::size_t d = 0; d < lane.levels.size(); ++d) {
            for (std::size_t i = 0; i < lane.levels[d].size(); ++i) {
                const auto& span = lane.levels[d][i];
                if (span.runsTask == 0) {
                    continue;
                }
                const auto found = trace.findTask(lane, span.start, span.end);
                if (found != named->task) {
                    const auto& task = trace.tasks[named->task];
                    return fail(inconsistent(file, named->offset, spanRecord(l, lane, d, i),
                                             "names task " + std::to_string(named->task) + " (job "
                                                 + std::to_string(task.jobId) + "), which did not run on this lane from "
                                                 + std::to_string(span.start) + " to " + std::to_string(span.end)));
                }
                ++named;
            }
        }
    }
    if (!c.count(n, 30)) {
        return fail(corrupt(file, c, "marker table"));
    }
    trace.markers.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto at = c.offset();
        TimeNs time = 0;
        std::int32_t lane = -1;
        std::int32_t rank = -1;
        std::uint8_t parsed = 0;
        std::uint8_t kind = 0;
        markers::Marker marker;
        std::string text;
        if (!c.get(time) || !c.get(lane) || (ranks && !c.get(rank)) || !c.get(parsed) || !c.get(kind) || !c.get(marker.epoch)
            || !c.get(marker.batch) || !c.get(marker.slot) || !c.get(marker.handles) || !c.str(marker.arena)
            || !c.str(text)) {
            return fail(corrupt(file, c, "marker table"));
        }
        const std::string record = "marker " + std::to_string(i);
        if (kind > static_cast<std::uint8_t>(markers::Kind::PrefetchEnd)) {
            return fail(inconsistent(file, at, record, "unknown marker kind " + std::to_string(kind)));
        }
        if (!validLane(lane, trace.lanes.size())) {
            return fail(outOfLanes(file, at, record, lane, trace.lanes.size()));
        }
        // Transitions and exporters walk the markers in time order.
        if (i > 0 && time < trace.markers[i - 1].time) {
            return fail(inconsistent(file, at, record,
                                     "at " + std::to_string(time) + ", before the previous marker ("
                                         + std::to_string(trace.markers[i - 1].time) + "): markers are unsorted"));
        }
        if (rank < -1 || rank > kMaxRank) {
            return fail(inconsistent(file, at, record, "rank " + std::to_string(rank) + " is out of range"));
        }
        if (time < -kMaxTraceTime || time > kMaxTraceTime) {   // the model holds 48-bit times
            return fail(inconsistent(file, at, record,
                                     "a time beyond what the model holds (" + std::to_string(kMaxTraceTime) + " ns)"));
        }
        // The fields as the file gives them, and the text kept where they would not give it back.
        // Fields wider than the model holds (a file of an older starscope) leave the text only.
        marker.kind = static_cast<markers::Kind>(kind);
        MarkerEvent m;
        if (Trace::fits(marker)) {
            m = trace.makeMarker(time, marker);
            m.parsed = parsed != 0;
        } else {
            m.time = time;
        }
        if (!m.parsed || markers::format(marker) != text) {
            m.rawText = trace.names.intern(text);
        }
        m.lane = Trace::shortIndex(lane);   // validLane: within the lane table
        m.rank = Trace::shortIndex(rank);
        trace.markers.push_back(m);
    }
    if (ranks) {
        if (auto read = parseRanks(file, c, trace); !read) {
            return fail(read.error());
        }
    }
    if (version >= kFirstWithTransfers) {
        if (auto read = parseTransfers(file, c, trace); !read) {
            return fail(read.error());
        }
    }
    if (!c.count(n, 8)) {
        return fail(corrupt(file, c, "metadata"));
    }
    for (std::uint64_t i = 0; i < n; ++i) {
        std::string key;
        std::string value;
        if (!c.str(key) || !c.str(value)) {
            return fail(corrupt(file, c, "metadata"));
        }
        trace.metadata[key] = value;
    }
    if (!c.count(n, 4)) {
        return fail(corrupt(file, c, "warnings"));
    }
    trace.warnings.resize(n);
    for (auto& warning : trace.warnings) {
        if (!c.str(warning)) {
            return fail(corrupt(file, c, "warnings"));
        }
    }
    return trace;
}

} // namespace

void writeNative(const Trace& trace, std::ostream& out) {
    const std::string body = payload(trace);
    Writer header;
    header.raw(kNativeMagic.data(), kNativeMagic.size());
    header.put(kNativeVersion);
    header.put(std::uint32_t{0});
    header.put(static_cast<std::uint64_t>(body.size()));
    out.write(header.data().data(), static_cast<std::streamsize>(header.data().size()));
    out.write(body.data(), static_cast<std::streamsize>(body.size()));
    Writer tail;
    tail.put(fnv1a(body));
    out.write(tail.data().data(), static_cast<std::streamsize>(tail.data().size()));
}

TraceResult<Done> writeNativeFile(const Trace& trace, const fs::path& file) {
    auto written = files::writeFile(file, [&trace](std::ostream& out) { writeNative(trace, out); });
    if (!written) {
        return fail(TraceError{ErrorCode::Io, written.error().message, file.string(), {}});
    }
    return Done{};
}

namespace {

// The payload's checksum in 16 MiB steps, so that a file of many GiB shows progress and can
// be cancelled before it is parsed. nullopt when cancelled.
std::optional<std::uint64_t> checksumOf(std::string_view body, const ReadOptions& options) {
    constexpr std::size_t kStep = std::size_t{16} << 20;
    std::uint64_t hash = kFnv1aSeed;
    for (std::size_t pos = 0; pos < body.size(); pos += kStep) {
        hash = fnv1a(body.substr(pos, kStep), hash);
        if (options.progress
            && !options.progress(0.2 * static_cast<double>(std::min(pos + kStep, body.size()))
                                 / static_cast<double>(body.size()))) {
            return std::nullopt;
        }
    }
    return hash;
}

} // namespace

TraceResult<Trace> readNative(const fs::path& file, const ReadOptions& options) {
    const files::MappedFile map(file);
    if (!map.error().empty()) {
        return fail(TraceError{ErrorCode::Io, "cannot read: " + map.error(), file.string(), {}});
    }
    const std::string_view data = map.text();
    if (data.size() < kHeaderSize || !std::string_view(data).starts_with(kNativeMagic)) {
        return fail(TraceError{ErrorCode::Format, "not a starscope native trace (bad magic or too short)",
                               file.string(), 0});
    }
    std::uint32_t version = 0;
    std::uint64_t size = 0;
    std::memcpy(&version, data.data() + 8, 4);
    std::memcpy(&size, data.data() + 16, 8);
    if (version > kNativeVersion) {
        return fail(TraceError{ErrorCode::TooNew,
                               "native trace version " + std::to_string(version)
                                   + " is newer than this starscope reads (up to "
                                   + std::to_string(kNativeVersion) + "): update starscope",
                               file.string(), 8});
    }
    if (version < kOldestReadable) {
        return fail(TraceError{ErrorCode::TooOld,
                               "native trace version " + std::to_string(version)
                                   + " is too old (oldest read: " + std::to_string(kOldestReadable)
                                   + "): convert the original trace again",
                               file.string(), 8});
    }
    if (data.size() - kHeaderSize < 8 || size > data.size() - kHeaderSize - 8) {
        return fail(TraceError{ErrorCode::Corrupt,
                               "truncated native trace: the header announces " + std::to_string(size)
                                   + " bytes of payload, the file holds "
                                   + std::to_string(data.size() < kHeaderSize + 8 ? 0 : data.size() - kHeaderSize - 8),
                               file.string(), data.size()});
    }
    const std::string_view body(data.data() + kHeaderSize, size);
    std::uint64_t checksum = 0;
    std::memcpy(&checksum, data.data() + kHeaderSize + size, 8);
    // The checksum pass is the first fifth of the progress, the parse the rest.
    ReadOptions parseOptions;
    if (options.progress) {
        parseOptions.progress = [&options](double f) { return options.progress(0.2 + 0.8 * f); };
    }
    const auto sum = checksumOf(body, options);
    if (!sum) {
        return fail(TraceError{ErrorCode::Cancelled, "reading cancelled", file.string(), kHeaderSize});
    }
    if (checksum != *sum) {
        return fail(TraceError{ErrorCode::Corrupt, "damaged native trace: checksum mismatch",
                               file.string(), kHeaderSize + size});
    }
    auto trace = parsePayload(file, body, version, parseOptions);
    if (trace && !trace->metadata.contains("format")) {
        trace->metadata["format"] = "native";
    }
    return trace;
}

} // namespace starscope::tracer
