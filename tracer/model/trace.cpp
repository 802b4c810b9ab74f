#include "tracer/model/trace.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <utility>

namespace starscope::tracer {

NameId StringTable::intern(std::string_view text) {
    const std::string key(text);
    if (const auto it = m_ids.find(key); it != m_ids.end()) {
        return it->second;
    }
    const auto id = static_cast<NameId>(m_names.size());
    m_names.push_back(key);
    m_ids.emplace(key, id);
    return id;
}

NameId StringTable::find(std::string_view text) const {
    const auto it = m_ids.find(std::string(text));
    return it == m_ids.end() ? kNoName : it->second;
}

const std::vector<Span>& Lane::spans() const {
    static const std::vector<Span> kEmpty;
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

const StateInfo& Trace::stateOf(const Span& span) const {
    static const StateInfo kInvalid{"", StateClass::Overhead};
    assert(span.state < states.size());
    return span.state < states.size() ? states[span.state] : kInvalid;
}

TaskIndex Trace::findTask(const Lane& lane, TimeNs from, TimeNs to) const {
    const std::pair value{from, to};
    const auto key = [&](TaskIndex i) { return std::pair{tasks[i].start, tasks[i].end}; };
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

std::span<const std::uint64_t> Trace::dependenciesOf(TaskIndex task) const {
    if (task >= tasks.size() || task + 1 >= dependencyStarts.size()) {
        return {};
    }
    const auto first = dependencyStarts[task];
    const auto last = dependencyStarts[task + 1];
    // Readers and setDependencies keep the starts ascending within the table.
    assert(first <= last && last <= dependencyJobs.size());
    if (first > last || last > dependencyJobs.size()) {
        return {};
    }
    return std::span<const std::uint64_t>(dependencyJobs).subspan(first, last - first);
}

std::span<const std::uint64_t> Trace::dependenciesOf(const Task& task) const {
    // A task of this trace: its index from its address (std::less orders any two pointers).
    const std::less<const Task*> before;
    if (tasks.empty() || before(&task, tasks.data()) || !before(&task, tasks.data() + tasks.size())) {
        return {};
    }
    return dependenciesOf(static_cast<TaskIndex>(&task - tasks.data()));
}

void Trace::setDependencies(TaskIndex task, std::vector<std::uint64_t> jobs) {
    assert(task < tasks.size());
    if (dependencyStarts.size() < tasks.size() + 1) {
        dependencyStarts.resize(tasks.size() + 1, static_cast<std::uint32_t>(dependencyJobs.size()));
    }
    std::sort(jobs.begin(), jobs.end());
    const auto first = dependencyStarts[task];
    const auto last = dependencyStarts[task + 1];
    dependencyJobs.erase(dependencyJobs.begin() + first, dependencyJobs.begin() + last);
    dependencyJobs.insert(dependencyJobs.begin() + first, jobs.begin(), jobs.end());
    const auto grown = static_cast<std::int64_t>(jobs.size()) - static_cast<std::int64_t>(last - first);
    for (std::size_t i = task + 1; i < dependencyStarts.size(); ++i) {
        dependencyStarts[i] = static_cast<std::uint32_t>(dependencyStarts[i] + grown);
    }
    if (dependencyJobs.empty()) {
        dependencyStarts.clear();   // as readers leave a trace without dependencies
    }
}

void Trace::indexTasks() {
    for (auto& lane : lanes) {
        lane.tasks.clear();
    }
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        const auto lane = tasks[i].lane;
        if (lane >= 0 && static_cast<std::size_t>(lane) < lanes.size() && tasks[i].start >= 0) {
            lanes[static_cast<std::size_t>(lane)].tasks.push_back(static_cast<TaskIndex>(i));
        }
    }
    for (auto& lane : lanes) {
        // Stable: of tasks with the same times (a task run twice in one span) the first keeps it.
        std::stable_sort(lane.tasks.begin(), lane.tasks.end(), [&](TaskIndex a, TaskIndex b) {
            return std::pair{tasks[a].start, tasks[a].end} < std::pair{tasks[b].start, tasks[b].end};
        });
        lane.tasks.shrink_to_fit();
    }
}

const Lane* Trace::laneAt(std::int32_t index) const {
    assert(index >= -1 && (index < 0 || static_cast<std::size_t>(index) < lanes.size()));
    return index >= 0 && static_cast<std::size_t>(index) < lanes.size() ? &lanes[static_cast<std::size_t>(index)]
                                                                          : nullptr;
}

std::string_view Trace::codeletOf(const Task& task) const {
    assert(task.codelet == kNoName || task.codelet < names.size());
    return task.codelet < names.size() ? std::string_view(names.name(task.codelet)) : std::string_view{};
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
