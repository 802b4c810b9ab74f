#pragma once
// The Paje reader's interning of the names its lines carry (container references, type aliases,
// entity values): every state line looks up two or three of them, so the table is a flat
// open-addressing one over FNV-1a, without a node per name or a std::string built per lookup.
// TextMap serves the rarer lookups (event ids, link keys) by string_view as well.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace starscope::tracer::detail::paje {

// Lookups by string_view without building a std::string per field of every line.
struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const {
        return std::hash<std::string_view>{}(text);
    }
};
template <typename V> using TextMap = std::unordered_map<std::string, V, TextHash, std::equal_to<>>;

class NameIds {
public:
    // The id of text, added on first use; ids are dense, from 0, in order of first use.
    std::uint32_t intern(std::string_view text);
    const std::string& operator[](std::uint32_t id) const { return m_names[id]; }
    std::size_t size() const { return m_names.size(); }

private:
    void grow();

    std::vector<std::string> m_names;
    std::vector<std::uint64_t> m_hashes; // of each name, so that growing rehashes nothing
    std::vector<std::uint32_t> m_slots;  // id + 1, 0 when empty; a power of two long
};

// Whether each interned name passes a test, decided once per name: the reader's tests compare
// a name with several strings, and would run at every event that carries it otherwise.
class NameFlags {
public:
    template <typename Test> bool test(std::uint32_t id, const NameIds& names, Test passes) {
        if (id < m_known.size() && m_known[id] != 0) {
            return m_known[id] == 1;
        }
        return learn(id, names.size(), passes(names[id]));
    }

private:
    bool learn(std::uint32_t id, std::size_t names, bool passes);

    std::vector<std::uint8_t> m_known; // by name id: 0 not known yet, 1 passes, 2 not
};

} // namespace starscope::tracer::detail::paje
