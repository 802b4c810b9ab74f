#include "tracer/model/trace.hpp"

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

std::size_t Trace::spanCount() const {
    std::size_t count = 0;
    for (const auto& lane : lanes) {
        for (const auto& level : lane.levels) {
            count += level.size();
        }
    }
    return count;
}

} // namespace starscope::tracer
