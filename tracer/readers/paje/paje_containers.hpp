#pragma once
// The container hierarchy a Paje trace declares, and the lanes it gets. Lanes follow
// containers, not events: a worker or user thread has its lane from its creation on, so lanes
// keep the order of the containers (a Paje export of ours keeps the trace's lane order), and
// a container's states of another type get a lane of their own. StarPU's conventions are read
// here too: its container types ("W", "UT", "MPICt", "Mm", "Mn", "T"), its memory nodes and its
// "<rank>_" name prefix of StarPU-MPI traces. Lanes are named as the FxT reader names them.

#include "tracer/readers/paje/paje_names.hpp"
#include "tracer/readers/paje/paje_records.hpp"
#include "tracer/readers/trace_builder.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace starscope::tracer::detail::paje {

struct Container {
    std::string name;
    std::string alias;
    std::uint32_t type = 0; // interned container type alias
    std::int32_t parent = -1;
    std::int32_t memoryNode = -1; // of the nearest enclosing StarPU memory node
    std::vector<std::int32_t> children;
    std::vector<std::int32_t> lanes; // the first one is the container's own (markers, links)
    bool laneClaimed = false;        // whether a state type took its first lane yet
    std::size_t userThreads = 0;     // of a program: the user threads it holds so far
    bool memoryManager = false;      // StarPU's "Mm": a memory node's lane
    bool workerThread = false;       // holds a StarPU worker ("W"): its own states are dropped
    std::int32_t rank = -1;          // from StarPU's "<rank>_" prefix of its name, alias or parent
};

class Containers {
public:
    // Names are interned in names, lanes added to builder.
    Containers(NameIds& names, TraceBuilder& builder) : m_names(names), m_builder(builder) {}

    // A type alias and the name it stands for (every PajeDefine*Type), as interned ids.
    void defineType(std::uint32_t alias, std::uint32_t name) { m_typeNames[alias] = name; }
    // The name declared for a type alias; null when no definition declared it.
    const std::string* declaredTypeName(std::uint32_t alias) const;

    // A container whose alias (its name when it has none) another one has, or whose parent was
    // never created ("0" is the top), is refused: what refers to it or to its parent would land
    // on another container, or on none, and pajeng refuses such a file too. The problem, if any.
    std::optional<std::string> create(const CreateContainer& record);
    // The container a line refers to by its alias or name; -1 when none was created.
    std::int32_t find(std::string_view ref) {
        const auto name = m_names.intern(ref);
        return name < m_byName.size() ? m_byName[name] : -1;
    }
    const Container& at(std::int32_t index) const {
        return m_containers[static_cast<std::size_t>(index)];
    }
    std::size_t size() const { return m_containers.size(); }

    // The lane of a container's states of one type (interned), made on first use.
    std::int32_t laneFor(std::int32_t container, std::uint32_t type);

private:
    std::int32_t newLane(std::int32_t index, std::uint32_t type);
    // The declared name of a type alias, the alias itself when undeclared.
    const std::string& typeName(std::uint32_t alias) const;

    NameIds& m_names;
    TraceBuilder& m_builder;
    std::unordered_map<std::uint32_t, std::uint32_t> m_typeNames; // type alias -> name
    std::vector<Container> m_containers;
    std::vector<std::int32_t> m_byName; // container by the name id of its alias or name
    std::unordered_map<std::uint64_t, std::int32_t> m_laneByKey; // container << 32 | type
    std::size_t m_userThreads = 0;   // user threads outside any program container
};

} // namespace starscope::tracer::detail::paje
