#include "tracer/model/trace.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <limits>
#include <utility>

namespace starscope::tracer {

NameId StringTable::intern(std::string_view text) {
    const std::size_t size = text.size();
    auto& recent = m_recent[(size * 31 + (size > 0 ? static_cast<unsigned char>(text.front()) + 7U * static_cast<unsigned char>(text.back()) : 0U))
                            % m_recent.size()];
    if (recent != kNoName && m_names[recent] == text) {
        return recent;
    }
    if (const auto it = m_ids.find(text); it != m_ids.end()) {
        recent = it->second;
        return it->second;
    }
    const auto id = static_cast<NameId>(m_names.size());
    m_names.emplace_back(text);
    m_ids.emplace(m_names.back(), id);
    recent = id;
    return id;
}

NameId StringTable::find(std::string_view text) const {
    const auto it = m_ids.find(text);
    return it == m_ids.end() ? kNoName : it->second;
}

std::size_t StringTable::memoryBytes() const {
    // A std::string keeps up to 15 characters inside itself, longer ones on the heap; a map node
    // holds its key, value, next pointer and cached hash.
    constexpr std::size_t kInline = 15;
    std::size_t heap = 0;
    for (const auto& name : m_names) {
        heap += name.capacity() > kInline ? name.capacity() + 1 : 0;
    }
    const std::size_t node = sizeof(void*) + sizeof(std::pair<const std::string, NameId>) + sizeof(std::size_t);
    return m_names.capacity() * sizeof(std::string) + 2 * heap + m_ids.size() * node
           + m_ids.bucket_count() * sizeof(void*);
}

CodeletKeyId CodeletKeyTable::intern(const CodeletKey& key) {
    // A trace holds a handful of keys, interned once per task: a look along them is a few
    // compares in one cache line where the hash map cost a twenty-fifth of reading a native file.
    constexpr std::size_t kScanned = 8;
    if (m_keys.size() <= kScanned) {
        for (std::size_t i = 0; i < m_keys.size(); ++i) {
            if (m_keys[i] == key) {
                return static_cast<CodeletKeyId>(i);
            }
        }
    }
    const std::uint64_t packed = (std::uint64_t{key.codelet} << 32) | key.footprint;
    const auto [it, added] = m_ids.try_emplace(packed, static_cast<CodeletKeyId>(m_keys.size()));
    if (added) {
        m_keys.push_back(key);
    }
    return it->second;
}

const CodeletKey& CodeletKeyTable::at(CodeletKeyId id) const {
    static const CodeletKey kNone{};
    assert(id == kNoCodeletKey || id < m_keys.size());
    return id < m_keys.size() ? m_keys[id] : kNone;
}

std::size_t CodeletKeyTable::memoryBytes() const {
    const std::size_t node = sizeof(void*) + sizeof(std::pair<const std::uint64_t, CodeletKeyId>);
    return m_keys.capacity() * sizeof(CodeletKey) + m_ids.size() * node + m_ids.bucket_count() * sizeof(void*);
}

const Column<Span>& Lane::spans() const {
    static const Column<Span> kEmpty;
    return levels.empty() ? kEmpty : levels.front();
}

std::uint32_t Trace::stateId(std::string_view name, StateClass cls) {
    for (std::size_t i = 0; i < states.size(); ++i) {
        if (states[i].name == name) {
            return static_cast<std::uint32_t>(i);
        }
    }
    states.push_back(StateInfo{std::string(name), cls});
    return static_cast<std::uint32_t>(states.size() - 1);
}

std::size_t Trace::workerCount() const {
    return static_cast<std::size_t>(
        std::count_if(lanes.begin(), lanes.end(), [](const Lane& lane) { return lane.isWorker(); }));
}

std::size_t Trace::executedTaskCount() const {
    return static_cast<std::size_t>(
        std::count_if(tasks.begin(), tasks.end(), [](const Task& task) { return task.start >= 0; }));
}

const StateInfo& Trace::stateOf(const Span& span) const {
    static const StateInfo kInvalid{"", StateClass::Overhead};
    assert(span.state < states.size());
    return span.state < states.size() ? states[span.state] : kInvalid;
}

TaskIndex Trace::findTask(const Lane& lane, TimeNs from, TimeNs to) const {
    const std::pair value{from, to};
    const auto key = [&](TaskIndex i) { return std::pair<TimeNs, TimeNs>{tasks[i].start, tasks[i].end}; };
    const auto it = std::lower_bound(lane.tasks.begin(), lane.tasks.end(), value, [&](TaskIndex i, const auto& v) {
        return i < tasks.size() && key(i) < v;
    });
    return it != lane.tasks.end() && *it < tasks.size() && key(*it) == value ? *it : kNoTask;
}

TaskIndex Trace::taskIndexOf(const Lane& lane, const Span& span) const {
    if (span.runsTask == 0) {
        return kNoTask;
    }
    // Readers mark a span as running a task only when its lane's index holds that task: not
    // finding it is a bug (asserted), and still never reads out of bounds.
    const auto index = findTask(lane, span.start, span.end);
    assert(index != kNoTask);
    return index;
}

const Task* Trace::taskOf(const Lane& lane, const Span& span) const {
    const auto index = taskIndexOf(lane, span);
    return index != kNoTask ? &tasks[index] : nullptr;
}

std::uint64_t Dependencies::operator[](std::size_t i) const {
    const auto entry = m_entries[i];
    if ((entry & kOutsideJob) != 0) {
        const auto outside = entry & ~kOutsideJob;
        assert(outside < m_outside.size());
        return outside < m_outside.size() ? m_outside[outside] : 0;
    }
    assert(entry < m_tasks.size());
    return entry < m_tasks.size() ? m_tasks[entry].jobId : 0;
}

TaskIndex Dependencies::taskAt(std::size_t i) const {
    const auto entry = m_entries[i];
    return (entry & kOutsideJob) == 0 && entry < m_tasks.size() ? entry : kNoTask;
}

Dependencies Trace::dependenciesOf(TaskIndex task) const {
    const auto entries = dependencyEntries(task);
    return entries.empty() ? Dependencies{} : Dependencies(entries, tasks, outsideJobs);
}

Dependencies Trace::dependenciesOf(const Task& task) const {
    // A task of this trace: its index from its address (std::less orders any two pointers).
    const std::less<const Task*> before;
    if (tasks.empty() || before(&task, tasks.data()) || !before(&task, tasks.data() + tasks.size())) {
        return {};
    }
    return dependenciesOf(static_cast<TaskIndex>(&task - tasks.data()));
}

TaskIndex Trace::dependencyEntry(std::uint64_t job) {
    const auto byJob = [](const Task& a, const Task& b) { return a.jobId < b.jobId; };
    auto it = tasks.end();
    if (std::is_sorted(tasks.begin(), tasks.end(), byJob)) {
        it = std::lower_bound(tasks.begin(), tasks.end(), job, [](const Task& t, std::uint64_t j) { return t.jobId < j; });
        it = it != tasks.end() && it->jobId == job ? it : tasks.end();
    } else {
        it = std::find_if(tasks.begin(), tasks.end(), [job](const Task& t) { return t.jobId == job; });
    }
    if (it != tasks.end()) {
        return static_cast<TaskIndex>(it - tasks.begin());
    }
    const auto outside = std::find(outsideJobs.begin(), outsideJobs.end(), job);
    const auto index = static_cast<TaskIndex>(outside - outsideJobs.begin());
    if (outside == outsideJobs.end()) {
        outsideJobs.push_back(job);
    }
    return kOutsideJob | index;
}

void Trace::setDependencies(TaskIndex task, std::vector<std::uint64_t> jobs) {
    assert(task < tasks.size());
    if (dependencyStarts.size() < tasks.size() + 1) {
        dependencyStarts.resize(tasks.size() + 1, static_cast<std::uint32_t>(dependencies.size()));
    }
    std::sort(jobs.begin(), jobs.end());
    std::vector<TaskIndex> entries;
    entries.reserve(jobs.size());
    for (const auto job : jobs) {
        entries.push_back(dependencyEntry(job));
    }
    const auto first = dependencyStarts[task];
    const auto last = dependencyStarts[task + 1];
    dependencies.erase(dependencies.begin() + first, dependencies.begin() + last);
    dependencies.insert(dependencies.begin() + first, entries.begin(), entries.end());
    const auto grown = static_cast<std::int64_t>(entries.size()) - static_cast<std::int64_t>(last - first);
    auto& starts = dependencyStarts.edit();
    for (std::size_t i = task + 1; i < starts.size(); ++i) {
        starts[i] = static_cast<std::uint32_t>(starts[i] + grown);
    }
    if (dependencies.empty()) {
        dependencyStarts.clear();   // as readers leave a trace without dependencies
        outsideJobs.clear();
    }
}

MarkerEvent Trace::makeMarker(TimeNs time, std::string_view text, markers::ParseStatus* status) {
    const auto parsed = markers::parse(text);
    if (status != nullptr) {
        *status = parsed.status;
    }
    MarkerEvent event;
    if (parsed.status == markers::ParseStatus::Ok && fits(parsed.marker)) {
        event = makeMarker(time, parsed.marker);
        // Exporters write the text as recorded: kept when the fields would not give it back
        // (unknown keys, another field order, leading zeros).
        if (!markers::formatsAs(parsed.marker, text)) {
            event.rawText = names.intern(text);
        }
        return event;
    }
    event.time = time;
    event.rawText = names.intern(text);
    return event;
}

bool Trace::fits(const markers::Marker& marker) {
    return marker.slot <= kMaxMarkerSlot && marker.slot >= -1 && marker.handles <= kMaxMarkerHandles
           && marker.handles >= -1;
}

std::int16_t Trace::shortIndex(std::int32_t value) {
    static_assert(kMaxRank + 1 == static_cast<std::int32_t>(kMaxLanes));
    return value >= -1 && value <= kMaxRank ? static_cast<std::int16_t>(value) : std::int16_t{-1};
}

MarkerEvent Trace::makeMarker(TimeNs time, const markers::Marker& marker) {
    MarkerEvent event;
    event.time = time;
    if (!fits(marker)) {
        event.rawText = names.intern(markers::format(marker));
        return event;
    }
    event.parsed = true;
    event.kind = marker.kind;
    event.epoch = marker.epoch;
    event.batch = marker.batch;
    event.slot = static_cast<std::int8_t>(marker.slot);       // within fits()
    event.handles = static_cast<std::int32_t>(marker.handles);
    event.arena = marker.arena.empty() ? kNoName : names.intern(marker.arena);
    return event;
}

std::string_view Trace::arenaOf(const MarkerEvent& event) const {
    assert(event.arena == kNoName || event.arena < names.size());
    return event.arena < names.size() ? std::string_view(names.name(event.arena)) : std::string_view{};
}

markers::Marker Trace::markerOf(const MarkerEvent& event) const {
    return markers::Marker{event.kind, event.epoch, event.batch, event.slot, event.handles, std::string(arenaOf(event))};
}

std::string Trace::textOf(const MarkerEvent& event) const {
    if (event.rawText != kNoName) {
        assert(event.rawText < names.size());
        return event.rawText < names.size() ? names.name(event.rawText) : std::string{};
    }
    return event.parsed ? markers::format(markerOf(event)) : std::string{};
}

namespace {

// Numbers the codelet keys in the order tasks first use them, dropping unused ones.
void renumberCodeletKeys(Trace& trace) {
    auto& codeletKeys = trace.codeletKeys;
    std::vector<CodeletKeyId> renumbered(codeletKeys.size(), kNoCodeletKey);
    CodeletKeyTable used;
    for (auto& task : trace.tasks.edit()) {
        if (task.codeletKey < renumbered.size()) {
            auto& id = renumbered[task.codeletKey];
            if (id == kNoCodeletKey) {
                id = used.intern(codeletKeys.at(task.codeletKey));
            }
            task.codeletKey = id;
        } else {
            assert(task.codeletKey == kNoCodeletKey);
            task.codeletKey = kNoCodeletKey;
        }
    }
    codeletKeys = std::move(used);
}

} // namespace

void Trace::releaseResident() const {
    for (const auto& lane : lanes) {
        for (const auto& level : lane.levels) {
            level.releaseResident();
        }
    }
    tasks.releaseResident();
    dependencies.releaseResident();
    dependencyStarts.releaseResident();
    outsideJobs.releaseResident();
}

void Trace::indexTasks() {
    // One pass over the tasks (a 1 G-span job's table is 15 GB: a pass reads the disk again once
    // the file outgrows the page cache): each task's lane noted in 2 bytes and each lane's tasks
    // counted, then each lane's index filled at its size from the notes. Grown by push_back and
    // shrunk to fit, the index was most of indexing 47 M tasks; counted in a pass over the tasks
    // of its own, it took a second pass over the table. Codelet keys are checked for first-use
    // order on the way: how a trace was built (a reader setting a task's codelet before its
    // footprint, a native file listing tasks by job) does not change its table, and one already
    // in that order (every native file's) is left as it is.
    static_assert(kMaxLanes < std::numeric_limits<std::uint16_t>::max());
    constexpr auto kNoLane = std::numeric_limits<std::uint16_t>::max();
    std::vector<std::uint16_t> laneOf(tasks.size(), kNoLane);
    std::vector<std::size_t> counts(lanes.size(), 0);
    CodeletKeyId nextKey = 0;
    bool firstUseOrder = true;
    // Tasks are numbered in submission order, which on one worker is mostly the order they ran
    // in: a lane already in order (every lane of a native file, which lists tasks so) is told
    // so in this pass, instead of a pass over each lane's tasks, whose every look-up missed the
    // cache (two thirds of indexing), and needs no sort.
    using Times = std::pair<TimeNs, TimeNs>;
    std::vector<Times> last(lanes.size(), Times{std::numeric_limits<TimeNs>::min(), 0});
    std::vector<char> sorted(lanes.size(), 1);
    {
        ReleasingPass<Task> pass(tasks);   // lets go of a mapped file's pages behind it
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            pass.passed(i);
            const Task& task = tasks[i];
            const auto lane = task.lane;
            if (lane >= 0 && static_cast<std::size_t>(lane) < lanes.size() && task.start >= 0) {
                const auto l = static_cast<std::size_t>(lane);
                laneOf[i] = static_cast<std::uint16_t>(l);
                ++counts[l];
                const Times times{task.start, task.end};
                sorted[l] = static_cast<char>(sorted[l] != 0 && !(times < last[l]));
                last[l] = times;
            }
            if (task.codeletKey == nextKey) {
                ++nextKey;
            } else if (task.codeletKey > nextKey && task.codeletKey != kNoCodeletKey) {
                firstUseOrder = false;
            }
        }
    }
    if (!firstUseOrder || nextKey != codeletKeys.size()) {
        renumberCodeletKeys(*this);
    }
    for (std::size_t l = 0; l < lanes.size(); ++l) {
        lanes[l].tasks.clear();
        lanes[l].tasks.shrink_to_fit();
        lanes[l].tasks.reserve(counts[l]);
    }
    for (std::size_t i = 0; i < laneOf.size(); ++i) {
        if (laneOf[i] != kNoLane) {
            lanes[laneOf[i]].tasks.push_back(static_cast<TaskIndex>(i));
        }
    }
    const auto byTimes = [&](TaskIndex a, TaskIndex b) {
        return Times{tasks[a].start, tasks[a].end} < Times{tasks[b].start, tasks[b].end};
    };
    for (std::size_t l = 0; l < lanes.size(); ++l) {
        // Stable: of tasks with the same times (a task run twice in one span) the first keeps it.
        if (sorted[l] == 0) {
            std::stable_sort(lanes[l].tasks.begin(), lanes[l].tasks.end(), byTimes);
        }
    }
}

const Lane* Trace::laneAt(std::int32_t index) const {
    assert(index >= -1 && (index < 0 || static_cast<std::size_t>(index) < lanes.size()));
    return index >= 0 && static_cast<std::size_t>(index) < lanes.size() ? &lanes[static_cast<std::size_t>(index)]
                                                                          : nullptr;
}

std::string_view Trace::codeletOf(const Task& task) const {
    const NameId codelet = codeletIdOf(task);
    assert(codelet == kNoName || codelet < names.size());
    return codelet < names.size() ? std::string_view(names.name(codelet)) : std::string_view{};
}

std::size_t Trace::spanCount() const {
    std::size_t count = 0;
    for (const auto& lane : lanes) {
        for (const auto& level : lane.levels) {
            count += level.size();
        }
    }
    return count;
}

namespace {

struct TransferKindNames {
    TransferKind kind;
    std::string_view linkType;
    std::string_view name;
};
constexpr TransferKindNames kTransferKinds[] = {
    {TransferKind::Fetch, "F", "Fetch"},
    {TransferKind::TaskPrefetch, "TF", "Task prefetch"},
    {TransferKind::Prefetch, "PF", "Prefetch"},
    {TransferKind::IdleFetch, "IF", "Idle fetch"},
};

const TransferKindNames& namesOf(TransferKind kind) {
    for (const auto& entry : kTransferKinds) {
        if (entry.kind == kind) {
            return entry;
        }
    }
    assert(false && "a TransferKind without names");
    return kTransferKinds[0];
}

} // namespace

std::string_view linkTypeOf(TransferKind kind) { return namesOf(kind).linkType; }
std::string_view nameOf(TransferKind kind) { return namesOf(kind).name; }

std::optional<TransferKind> transferKindOfLinkType(std::string_view type) {
    for (const auto& entry : kTransferKinds) {
        if (entry.linkType == type) {
            return entry.kind;
        }
    }
    return std::nullopt;
}

const RankInfo* Trace::rankInfo(std::int32_t rank) const {
    const auto it = std::lower_bound(ranks.begin(), ranks.end(), rank,
                                     [](const RankInfo& r, std::int32_t value) { return r.rank < value; });
    return it != ranks.end() && it->rank == rank ? &*it : nullptr;
}

} // namespace starscope::tracer
