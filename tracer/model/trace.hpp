#pragma once
// The compact trace model every reader produces and every analysis, exporter and the viewer
// consume. Plain value structs with operator==, so tests compare whole results.
// Times are integer nanoseconds from the trace start; names are interned to small ids.

#include "common/markers.hpp"
#include "tracer/model/column.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace starscope::tracer {

using TimeNs = std::int64_t;
using NameId = std::uint32_t;
using TaskIndex = std::uint32_t;
inline constexpr TaskIndex kNoTask = std::numeric_limits<TaskIndex>::max();
inline constexpr NameId kNoName = std::numeric_limits<NameId>::max();

// Interns strings to dense ids; ids are stable for the lifetime of the table.
class StringTable {
public:
    NameId intern(std::string_view text);
    // kNoName when the text was never interned.
    NameId find(std::string_view text) const;
    const std::string& name(NameId id) const { return m_names.at(id); }
    std::size_t size() const { return m_names.size(); }
    // What the table holds in memory (its strings twice, as list and as keys, and the hash
    // map's nodes and buckets), estimated for libstdc++: for the model's own accounting.
    std::size_t memoryBytes() const;

    bool operator==(const StringTable& other) const { return m_names == other.m_names; }

private:
    // Looked up by the text as given, without a std::string made of it first.
    struct TextHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
    };
    std::vector<std::string> m_names;
    std::unordered_map<std::string, NameId, TextHash, std::equal_to<>> m_ids;
    // The id last interned for texts of each length and ends, compared before any hashing: a
    // trace interns a handful of names (codelets, arenas) once per task or marker, where the
    // hash and the map's search were 170 instructions a call.
    std::array<NameId, 16> m_recent = filledWithNoName();
    static constexpr std::array<NameId, 16> filledWithNoName() {
        std::array<NameId, 16> ids{};
        ids.fill(kNoName);
        return ids;
    }
};

// What a worker state means for barrier analysis.
enum class StateClass : std::uint8_t {
    Executing,  // running a codelet
    Sleeping,   // out of work
    Overhead,   // runtime work: scheduling, fetching input, pushing output, progressing, ...
    User,       // main/user thread states (submitting, waiting task, waiting all tasks)
    // FxT profiling was stopped (starpu_fxt_stop_profiling): what the thread did is unknown.
    // Never counted as sleeping or idle, never part of a barrier or an efficiency.
    NotProfiled,
    // The thread wrote FxT's full event buffer to the trace file (libfxt's flush): the
    // tracing's own cost, not the program's. Neither executing nor sleeping: a barrier may hold
    // it (and is then the tracing's), efficiencies leave it out, and `stats` gives the figures
    // without it too.
    Tracing,
};
// The last class: what a file that stores classes as numbers may hold.
inline constexpr StateClass kLastStateClass = StateClass::Tracing;

// The state readers give a lane while FxT profiling is stopped.
inline constexpr std::string_view kNotProfiledState = "Not profiled";
// The state readers give the thread that wrote FxT's buffer, for the time libfxt recorded
// (fut_start_flush to fut_stop_flush), over whatever the thread was doing.
inline constexpr std::string_view kTraceFlushState = "Trace flush";

struct StateInfo {
    std::string name;   // as StarPU names it ("Executing", "Sleeping", "Scheduling", ...)
    StateClass cls = StateClass::Overhead;

    bool operator==(const StateInfo&) const = default;
};

// Times a span holds: 48 bits, so a trace may last up to kMaxTraceTime ns (39 hours) from its
// start. Readers refuse a longer one with an error rather than wrap its times.
inline constexpr TimeNs kMaxTraceTime = (TimeNs{1} << 47) - 1;
// State ids a span holds (15 bits); readers refuse a trace with more states.
inline constexpr std::uint32_t kMaxStates = std::uint32_t{1} << 15;

// One state interval on a lane: 16 bytes, the bulk of a trace. A span running a task does not
// store the task's index (4 more bytes per span, padded to 8): Trace::taskOf finds it through
// its lane's tasks. Times are signed 48-bit (the viewer shifts runs to a common origin, before
// which times are negative); readers refuse what does not fit (kMaxTraceTime, kMaxStates).
struct Span {
    Span() = default;
    Span(TimeNs from, TimeNs to, std::uint32_t stateId, bool task = false)
        : state(stateId & (kMaxStates - 1)), runsTask(task ? 1U : 0U) {
        // Narrowed on purpose, within the range readers checked: -Wconversion cannot see it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
        start = from;
        end = to;
#pragma GCC diagnostic pop
    }

    TimeNs start : 48 = 0;
    // The 16 bits after start, always 0: a native file holds a span's bytes as they lie in
    // memory, and left unnamed they held whatever the constructor's register did, so the same
    // trace could be written as different files.
    std::uint64_t zeros : 16 = 0;
    TimeNs end : 48 = 0;
    std::uint32_t state : 15 = 0;     // index into Trace::states
    std::uint32_t runsTask : 1 = 0;   // 1 when a task runs in it (Trace::taskOf)

    TimeNs duration() const { return end - start; }
    bool operator==(const Span&) const = default;
};
static_assert(sizeof(Span) == 16, "spans must stay compact");

// MpiThread: StarPU-MPI's communication thread (starpu_fxt_tool's "MPICt" container): it
// runs no task, so it is neither a worker nor the main thread.
// MemoryNode: a StarPU memory node (RAM, a GPU's memory; starpu_fxt_tool's "Mm" container),
// named "Memory node <n>": its states are what its memory manager does (DriverCopy,
// Allocating, ...), pushed over each other while several happen at once. A node that did
// nothing in the trace has no lane.
enum class LaneKind : std::uint8_t { CpuWorker, CudaWorker, OtherWorker, MainThread, MpiThread, MemoryNode };
// The last kind: what a file that stores kinds as numbers may hold.
inline constexpr LaneKind kLastLaneKind = LaneKind::MemoryNode;

// A worker or the main (user) thread. levels[0] holds the base state sequence; deeper levels
// hold states pushed on top of it (Paje Push/Pop). Each level is sorted by start and
// non-overlapping.
struct Lane {
    std::string name;         // "CPU 0", "CUDA 0", "main", "Memory node 1"
    LaneKind kind = LaneKind::CpuWorker;
    std::int32_t memoryNode = 0;
    std::int32_t workerId = -1;   // StarPU worker id; -1 for the main thread
    std::int32_t rank = -1;       // StarPU-MPI rank of its process; -1 in a one-process trace
    std::vector<Column<Span>> levels;
    // The tasks that ran on this lane (Trace::tasks indexes), sorted by start then end: how
    // Trace::taskOf finds a span's task (Trace::indexTasks builds it).
    std::vector<TaskIndex> tasks;

    const Column<Span>& spans() const;   // levels[0], empty when none
    bool isWorker() const {
        return kind != LaneKind::MainThread && kind != LaneKind::MpiThread && kind != LaneKind::MemoryNode;
    }
    bool operator==(const Lane&) const = default;
};

// A time in 6 bytes, as spans hold theirs (48 bits, signed; readers refuse a trace beyond
// kMaxTraceTime), read and assigned as a TimeNs: three of them make a task record 32 bytes
// instead of 48. Aligned on 2 bytes, they pack between the task's 4-byte fields.
class PackedTime {
public:
    PackedTime() = default;
    explicit PackedTime(TimeNs time) { *this = time; }
    PackedTime& operator=(TimeNs time) {
        const auto bits = static_cast<std::uint64_t>(time);
        m_words[0] = static_cast<std::uint16_t>(bits);
        m_words[1] = static_cast<std::uint16_t>(bits >> 16);
        m_words[2] = static_cast<std::uint16_t>(bits >> 32);
        return *this;
    }
    operator TimeNs() const {   // NOLINT(google-explicit-constructor): a TimeNs in a smaller box
        const std::uint64_t bits =
            std::uint64_t{m_words[0]} | (std::uint64_t{m_words[1]} << 16) | (std::uint64_t{m_words[2]} << 32);
        // Sign-extended from bit 47: the viewer's shifted times may be negative.
        return static_cast<TimeNs>(bits << 16) >> 16;
    }
    bool operator==(const PackedTime&) const = default;

private:
    std::uint16_t m_words[3] = {0, 0, 0};
};

// Lanes a trace may have: tasks and markers name theirs in 16 bits. Readers refuse more.
inline constexpr std::size_t kMaxLanes = std::size_t{1} << 15;
// Ranks a marker may name (16 bits, as lanes); readers refuse a trace with a rank beyond.
inline constexpr std::int32_t kMaxRank = (std::int32_t{1} << 15) - 1;

// What ran, as StarPU's performance models key it: a codelet and its input's footprint. A trace
// holds few distinct ones (a codelet per kernel, a footprint per data size), so tasks name theirs
// by an id into Trace::codeletKeys: 4 bytes where the two took 8.
struct CodeletKey {
    NameId codelet = kNoName;        // in Trace::names
    std::uint32_t footprint = 0;

    bool operator==(const CodeletKey&) const = default;
};
using CodeletKeyId = std::uint32_t;
// The key of a task whose codelet and footprint are unknown: {kNoName, 0}, in no table.
inline constexpr CodeletKeyId kNoCodeletKey = std::numeric_limits<CodeletKeyId>::max();

// Interns codelet keys to dense ids (as StringTable does names). Trace::indexTasks renumbers
// them in the order tasks first use them, so two traces with the same tasks have the same table.
class CodeletKeyTable {
public:
    CodeletKeyId intern(const CodeletKey& key);
    // {kNoName, 0} for kNoCodeletKey or an invalid id (asserted).
    const CodeletKey& at(CodeletKeyId id) const;
    std::size_t size() const { return m_keys.size(); }
    std::span<const CodeletKey> keys() const { return m_keys; }
    std::size_t memoryBytes() const;

    bool operator==(const CodeletKeyTable& other) const { return m_keys == other.m_keys; }

private:
    std::vector<CodeletKey> m_keys;
    std::unordered_map<std::uint64_t, CodeletKeyId> m_ids;   // codelet << 32 | footprint
};

// 32 bytes: its codelet and footprint are one id (Trace::codeletOf, codeletIdOf, footprintOf
// read them, Trace::setCodelet sets them) and its lane is 16 bits (kMaxLanes).
struct Task {
    std::uint64_t jobId = 0;
    CodeletKeyId codeletKey = kNoCodeletKey;   // in Trace::codeletKeys
    PackedTime submit{-1};           // -1 when unknown
    PackedTime start{-1};
    PackedTime end{-1};
    std::int16_t lane = -1;          // index into Trace::lanes of the worker that ran it
    // What it waited for is in Trace::dependencies (Trace::dependenciesOf): a vector per task
    // cost 24 bytes and an allocation each.

    bool operator==(const Task&) const = default;
};
static_assert(sizeof(Task) == 32, "tasks must stay compact");

// A dependency entry of Trace::dependencies: a task index of the trace, or with kOutsideJob set
// an index into Trace::outsideJobs (a job the trace does not hold). 4 bytes where a job id
// took 8, and analyses follow an edge without looking its job up.
inline constexpr TaskIndex kOutsideJob = TaskIndex{1} << 31;

// The dependencies of one task (Trace::dependenciesOf), in job id order. Iterating gives job ids,
// as a consumer that prints or matches them wants; taskAt gives the task an entry stands for.
class Dependencies {
public:
    class Iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = std::uint64_t;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = std::uint64_t;

        Iterator() = default;
        Iterator(const Dependencies* list, std::size_t at) : m_list(list), m_at(at) {}
        std::uint64_t operator*() const { return (*m_list)[m_at]; }
        Iterator& operator++() {
            ++m_at;
            return *this;
        }
        Iterator operator++(int) {
            auto before = *this;
            ++m_at;
            return before;
        }
        bool operator==(const Iterator& other) const { return m_at == other.m_at; }

    private:
        const Dependencies* m_list = nullptr;
        std::size_t m_at = 0;
    };
    using value_type = std::uint64_t;
    using const_iterator = Iterator;
    using iterator = Iterator;

    Dependencies() = default;
    Dependencies(std::span<const TaskIndex> entries, std::span<const Task> tasks, std::span<const std::uint64_t> outside)
        : m_entries(entries), m_tasks(tasks), m_outside(outside) {}

    std::size_t size() const { return m_entries.size(); }
    bool empty() const { return m_entries.empty(); }
    std::uint64_t operator[](std::size_t i) const;   // the job id of the i-th
    TaskIndex taskAt(std::size_t i) const;            // kNoTask for a job outside the trace
    std::span<const TaskIndex> entries() const { return m_entries; }
    Iterator begin() const { return Iterator(this, 0); }
    Iterator end() const { return Iterator(this, m_entries.size()); }

private:
    std::span<const TaskIndex> m_entries;
    std::span<const Task> m_tasks;
    std::span<const std::uint64_t> m_outside;
};

// A starscope marker (common/markers.hpp) or any other user event of the trace, in 32 bytes
// (a markers::Marker and its text as strings took 112 and an allocation each). A marker's arena
// is interned in Trace::names and its text is not stored: it is markers::format of its fields.
// The raw text is kept (interned) only for a user event that is not a starscope marker, or a
// marker whose text format() would not give back. Trace::makeMarker builds one from a text or
// a marker; Trace::markerOf and Trace::textOf give back the marker and the text.
// Its time is 48 bits as a span's, its lane 16 (kMaxLanes), its rank 16 (kMaxRank); a marker
// whose slot or handle count does not fit (kMaxMarkerSlot, kMaxMarkerHandles: rings of a few
// arenas, handle counts of an arena) is kept as plain text (Trace::fits), its text unchanged.
inline constexpr std::int32_t kMaxMarkerSlot = 127;
inline constexpr std::int64_t kMaxMarkerHandles = std::numeric_limits<std::int32_t>::max();
struct MarkerEvent {
    PackedTime time{0};
    std::int16_t lane = -1;          // lane that emitted it; -1 when unknown
    std::int32_t epoch = -1;         // the marker's fields (markers::Marker), valid when parsed
    std::int32_t batch = -1;
    std::int32_t handles = -1;
    NameId arena = kNoName;          // in Trace::names; kNoName when the marker names none
    NameId rawText = kNoName;        // in Trace::names; kNoName when the text is format(marker)
    std::int16_t rank = -1;          // rank of the process that emitted it; -1 in a one-process trace
    std::int8_t slot = -1;
    markers::Kind kind : 7 = markers::Kind::BatchBegin;
    bool parsed : 1 = false;         // true when text follows the starscope grammar

    bool operator==(const MarkerEvent&) const = default;
};
static_assert(sizeof(MarkerEvent) == 32, "markers must stay compact");

// One process of a StarPU-MPI run (one prof file), on the trace's common clock. starpu_fxt_tool
// maps a rank's recorded FxT time t to t - offset(t): offset is clockOffset up to the first
// synchronization point (localSyncStart), clockOffsetEnd from the last one on (StarPU 1.4
// records one at shutdown too), and linear between them, to follow a clock drift.
struct RankInfo {
    std::int32_t rank = 0;
    std::int32_t worldSize = 0;      // 0 when the trace does not say
    std::string source;              // its prof file
    std::uint32_t syncPoints = 0;    // StarPU-MPI barrier events found (0: aligned on its start)
    std::int64_t localSyncStart = 0; // its recorded time of the first and last sync point (ns)
    std::int64_t localSyncEnd = 0;
    std::int64_t clockOffset = 0;    // ns subtracted from its recorded times
    std::int64_t clockOffsetEnd = 0;

    bool operator==(const RankInfo&) const = default;
};

// A point-to-point message of StarPU-MPI between two ranks, as starpu_fxt_tool matches them:
// from the send's submission on the sender to the receive's termination on the receiver.
struct Message {
    std::int32_t fromRank = -1;
    std::int32_t toRank = -1;
    std::int32_t fromLane = -1;      // the ranks' MPI communication thread lanes; -1 if none
    std::int32_t toLane = -1;
    TimeNs start = 0;
    TimeNs end = 0;
    std::uint64_t size = 0;          // bytes
    std::int64_t tag = 0;            // StarPU-MPI data tag
    std::uint64_t sendJob = 0;       // job ids (Trace::tasks) of the tasks around it; 0 if none
    std::uint64_t recvJob = 0;

    TimeNs duration() const { return end - start; }
    bool operator==(const Message&) const = default;
};

// Why StarPU copied data between memory nodes, as starpu_fxt_tool names its links: a task
// needs it now (F), a task will (TF, 1.4 only), worth having early (PF), when idle (IF).
enum class TransferKind : std::uint8_t { Fetch, TaskPrefetch, Prefetch, IdleFetch };
// Its starpu_fxt_tool link type ("F", "TF", "PF", "IF") and its name for people ("Fetch", ...).
std::string_view linkTypeOf(TransferKind kind);
std::string_view nameOf(TransferKind kind);
// The kind a starpu_fxt_tool link type stands for; nullopt for any other link type.
std::optional<TransferKind> transferKindOfLinkType(std::string_view type);

// A data transfer between two memory nodes of one process (StarPU's driver copy: RAM and a
// GPU, a NUMA node or a disk), as starpu_fxt_tool matches its start and end by request id.
struct Transfer {
    std::int32_t rank = -1;          // its process's rank; -1 in a one-process trace
    std::int32_t fromNode = -1;      // StarPU memory nodes
    std::int32_t toNode = -1;
    TransferKind kind = TransferKind::Fetch;
    TimeNs start = 0;
    TimeNs end = 0;
    std::uint64_t size = 0;          // bytes
    // The job id (Trace::tasks) of the task that needed the data: the first task to run on the
    // destination node, from the copy's start on, that accesses the copied data. 0 when the
    // trace does not say (a Paje trace, an FxT trace without task events, a prefetch no task used).
    std::uint64_t job = 0;

    TimeNs duration() const { return end - start; }
    bool operator==(const Transfer&) const = default;
};

// Metadata key a reader sets (to "recorded") when its input carries task dependencies. Without
// it the trace cannot support figures over the task graph (critical path): a Paje trace never
// has them, an FxT trace recorded without task events neither.
inline constexpr std::string_view kDependenciesMetadata = "task.dependencies";

struct Trace {
    std::vector<Lane> lanes;
    std::vector<StateInfo> states;
    StringTable names;               // codelet names and other interned strings
    CodeletKeyTable codeletKeys;     // the tasks' codelets and footprints (Task::codeletKey)
    Column<Task> tasks;              // sorted by jobId
    // Every task's dependencies in one table: tasks[i] waited for the entries
    // dependencies[dependencyStarts[i] .. dependencyStarts[i + 1]) (kOutsideJob), in job id
    // order; outsideJobs holds each job they name that the trace does not, once. dependencyStarts
    // is empty when no task has any.
    Column<TaskIndex> dependencies;
    Column<std::uint32_t> dependencyStarts;
    Column<std::uint64_t> outsideJobs;
    std::vector<MarkerEvent> markers;   // sorted by time
    std::vector<RankInfo> ranks;     // sorted by rank; empty for a one-process trace
    std::vector<Message> messages;   // sorted by start
    std::vector<Transfer> transfers; // sorted by start
    std::unordered_map<std::string, std::string> metadata;   // source file, StarPU version...
    std::vector<std::string> warnings;  // what a reader dropped or repaired
    TimeNs begin = 0;                // always 0 after normalisation
    TimeNs end = 0;                  // last event time

    // Returns the index of the state with that name, adding it with cls if it is new.
    std::uint32_t stateId(std::string_view name, StateClass cls);
    // Checked lookups for every consumer (analysis, exporters, viewer). Readers hand out only
    // valid indexes, so a bad one is a bug (asserted); it must still never read out of bounds.
    const StateInfo& stateOf(const Span& span) const;   // an unnamed overhead state when invalid
    // The task running in a span of that lane: the lane's task with the span's start and end;
    // nullptr (kNoTask) when the span runs none.
    const Task* taskOf(const Lane& lane, const Span& span) const;
    TaskIndex taskIndexOf(const Lane& lane, const Span& span) const;
    // The lane's task with exactly these start and end times; kNoTask when there is none.
    TaskIndex findTask(const Lane& lane, TimeNs from, TimeNs to) const;
    const Lane* laneAt(std::int32_t index) const;       // nullptr for -1 or an invalid index
    // The counts a run.json records, without any analysis: a recorder's read-back needs no more.
    std::size_t workerCount() const;        // lanes that are workers (Lane::isWorker)
    std::size_t executedTaskCount() const;  // tasks that started, StarPU's own included
    std::string_view codeletOf(const Task& task) const;   // empty for kNoName or an invalid id
    NameId codeletIdOf(const Task& task) const { return codeletKeys.at(task.codeletKey).codelet; }
    std::uint32_t footprintOf(const Task& task) const { return codeletKeys.at(task.codeletKey).footprint; }
    void setCodelet(Task& task, NameId codelet, std::uint32_t footprint) {
        task.codeletKey = codelet == kNoName && footprint == 0 ? kNoCodeletKey : codeletKeys.intern({codelet, footprint});
    }
    // A lane index or a rank as tasks and markers hold them (16 bits): -1 for none, and for one
    // beyond kMaxLanes or kMaxRank, which readers refuse (readTrace, the native reader).
    static std::int16_t shortIndex(std::int32_t value);
    std::size_t spanCount() const;
    // A pass over the whole trace is done: the pages of a mapped native file that its columns
    // (spans of every level, tasks, dependencies) took leave the process (Column::releaseResident).
    void releaseResident() const;
    const RankInfo* rankInfo(std::int32_t rank) const;   // nullptr when the trace has no such rank
    // What a task of this trace waited for (job ids in order); empty for a task of another trace.
    Dependencies dependenciesOf(const Task& task) const;
    Dependencies dependenciesOf(TaskIndex task) const;
    // Task's entries in dependencies, as they are (an analysis following edges reads them without
    // a Dependencies around them); empty for a task out of range. Inline: the critical path reads
    // them for every task.
    std::span<const TaskIndex> dependencyEntries(TaskIndex task) const {
        if (task >= tasks.size() || task + 1 >= dependencyStarts.size()) {
            return {};
        }
        const auto first = dependencyStarts[task];
        const auto last = dependencyStarts[task + 1];
        // Readers and setDependencies keep the starts ascending within the table.
        assert(first <= last && last <= dependencies.size());
        if (first > last || last > dependencies.size()) {
            return {};
        }
        return std::span<const TaskIndex>(dependencies).subspan(first, last - first);
    }
    // Replaces one task's dependencies, given as job ids (tests and tools that build a trace by
    // hand; readers fill the table at once). A job is looked up among the tasks there are now:
    // add the tasks first.
    void setDependencies(TaskIndex task, std::vector<std::uint64_t> jobs);
    // Fills dependencies and outsideJobs from the job ids dependencyStarts indexes (readers,
    // which know their tasks' job ids best): taskOfJob(job) gives the task of a job, kNoTask
    // for one the trace does not hold.
    template <typename TaskOfJob>
    void fillDependencies(std::span<const std::uint64_t> jobs, TaskOfJob taskOfJob);
    // The entry (kOutsideJob) for a job: its task when the trace holds it, otherwise its place
    // in outsideJobs, added if new. Tasks sorted by job id are bisected, others scanned.
    TaskIndex dependencyEntry(std::uint64_t job);
    // A user event as the model keeps it (MarkerEvent): parsed when its text follows the
    // starscope grammar, its strings interned in names; status, when given, receives the
    // outcome of the parse (readers warn about a malformed one). lane and rank are left -1.
    MarkerEvent makeMarker(TimeNs time, std::string_view text, markers::ParseStatus* status = nullptr);
    // A marker whose fields do not fit a MarkerEvent (fits) becomes a plain text event.
    MarkerEvent makeMarker(TimeNs time, const markers::Marker& marker);
    static bool fits(const markers::Marker& marker);
    markers::Marker markerOf(const MarkerEvent& event) const;
    std::string textOf(const MarkerEvent& event) const;     // as the trace recorded it
    std::string_view arenaOf(const MarkerEvent& event) const;   // empty when it names none
    // Builds every lane's task index from the tasks' lane, start and end, and numbers the codelet
    // keys in the order tasks first use them (dropping unused ones): whoever fills the task
    // table (readers, tests) calls it once the table is complete.
    void indexTasks();
    bool operator==(const Trace&) const = default;
};

template <typename TaskOfJob>
void Trace::fillDependencies(std::span<const std::uint64_t> jobs, TaskOfJob taskOfJob) {
    dependencies.clear();
    outsideJobs.clear();
    auto& entries = dependencies.edit();
    auto& outside = outsideJobs.edit();
    entries.reserve(jobs.size());
    for (const auto job : jobs) {
        const TaskIndex task = taskOfJob(job);
        entries.push_back(task);
        if (task == kNoTask) {
            outside.push_back(job);
        }
    }
    if (outside.empty()) {
        return;
    }
    std::sort(outside.begin(), outside.end());
    outside.erase(std::unique(outside.begin(), outside.end()), outside.end());
    outside.shrink_to_fit();
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (entries[i] == kNoTask) {
            const auto at = std::lower_bound(outside.begin(), outside.end(), jobs[i]);
            entries[i] = kOutsideJob | static_cast<TaskIndex>(at - outside.begin());
        }
    }
}

} // namespace starscope::tracer
