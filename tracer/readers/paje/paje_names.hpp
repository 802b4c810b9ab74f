#pragma once
// The Paje reader's interning of the names its lines carry (container references, type aliases,
// entity values): every state line looks up two or three of them, so the table is a flat
// open-addressing one over FNV-1a, without a node per name or a std::string built per lookup.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::tracer::detail::paje {

class NameIds {
public:
    // The id of text, added on first use; ids are dense, from 0, in order of first use.
    std::uint32_t intern(std::string_view text);
    const std::string& operator[](std::uint32_t id) const { return m_names[id]; }
    std::size_t size() const { return m_names.size(); }

private:
    void grow();

    std::vector<std::string> m_names;
    std::vector<std::uint64_t> m_hashes;   // of each name, so that growing rehashes nothing
    std::vector<std::uint32_t> m_slots;    // id + 1, 0 when empty; a power of two long
};

} // namespace starscope::tracer::detail::paje
