#include "tracer/readers/paje/paje_names.hpp"

#include "common/fnv1a.hpp"

#include <algorithm>

namespace starscope::tracer::detail::paje {

namespace {

// Names are a few bytes long: compared in place, without the call to memcmp that
// std::string's operator== makes (memcmp was more than a quarter of interning's time).
bool sameText(const std::string& name, std::string_view text) {
    if (name.size() != text.size()) {
        return false;
    }
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (name[i] != text[i]) {
            return false;
        }
    }
    return true;
}

} // namespace

std::uint32_t NameIds::intern(std::string_view text) {
    if (m_slots.empty()) {
        m_slots.assign(64, 0);
    }
    const std::uint64_t hash = fnv1a(text);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const std::uint32_t slot = m_slots[i];
        if (slot == 0) {
            const auto id = static_cast<std::uint32_t>(m_names.size());
            m_names.emplace_back(text);
            m_hashes.push_back(hash);
            m_slots[i] = id + 1;
            // At most half full: probes stay short.
            if (m_names.size() * 2 > m_slots.size()) {
                grow();
            }
            return id;
        }
        if (m_hashes[slot - 1] == hash && sameText(m_names[slot - 1], text)) {
            return slot - 1;
        }
    }
}

void NameIds::grow() {
    m_slots.assign(m_slots.size() * 2, 0);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t id = 0; id < m_names.size(); ++id) {
        std::size_t i = m_hashes[id] & mask;
        while (m_slots[i] != 0) {
            i = (i + 1) & mask;
        }
        m_slots[i] = static_cast<std::uint32_t>(id + 1);
    }
}

bool NameFlags::learn(std::uint32_t id, std::size_t names, bool passes) {
    if (m_known.size() <= id) {
        m_known.resize(std::max<std::size_t>(id + 1, names), 0);
    }
    m_known[id] = passes ? 1 : 2;
    return passes;
}

} // namespace starscope::tracer::detail::paje
