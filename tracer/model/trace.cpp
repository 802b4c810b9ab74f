#include "tracer/model/trace.hpp"

#include <algorithm>
#include <cassert>

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

const Task* Trace::taskOf(const Span& span) const {
    assert(span.task == kNoTask || span.task < tasks.size());
    return span.task < tasks.size() ? &tasks[span.task] : nullptr;
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
