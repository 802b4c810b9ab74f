#pragma once
// A Paje file's own schema: its %EventDef blocks say which event kind each id stands for and
// in which order its fields come. The table is read from the '%' lines once, each field's
// position resolved by name when its block closes, so that typing an event line
// (paje_records.hpp) is an index per field, never a search.

#include "tracer/readers/paje/paje_names.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::tracer::detail::paje {

enum class Kind : std::uint8_t {
    DefineContainerType,
    DefineStateType,
    DefineEventType,
    DefineVariableType,
    DefineLinkType,
    DefineEntityValue,
    CreateContainer,
    DestroyContainer,
    SetState,
    PushState,
    PopState,
    ResetState,
    NewEvent,
    SetVariable,
    AddVariable,
    SubVariable,
    StartLink,
    EndLink,
    Unknown,
};

// Unknown definition names (extensions, PajeTraceFile) read as Unknown and are skipped.
Kind kindOf(std::string_view name);

// FStartContainer/FEndContainer/FKey/FTag: a link's ends, its key pairing start and end, and
// StarPU-MPI's message tag (starpu_fxt_tool's extra "MPITAG" field).
enum Field : std::uint8_t {
    FTime,
    FAlias,
    FType,
    FName,
    FContainer,
    FValue,
    FJobId,
    FFootprint,
    FStartContainer,
    FEndContainer,
    FKey,
    FTag,
    FCount
};

// The field a definition's field name stands for; nullopt for fields the reader ignores. Both
// pajeng's names and the older ones of the Paje specification and ViTE ("ContainerType",
// "EntityType" for Type, as in StarPU's older traces) are accepted.
std::optional<Field> fieldOf(std::string_view name);

struct EventDef {
    Kind kind = Kind::Unknown;
    std::size_t fieldCount = 0;
    int index[FCount]; // position of each known field, -1 when absent
};

// The %EventDef table, by event id.
class EventDefs {
public:
    // Reads one '%' line of the header (from its '%' on): "%EventDef <kind> <id>", a field
    // "% <name> <type>" of the open definition, or "%EndEventDef", which adds the definition (a
    // later definition of an id replaces the earlier one). Other '%' lines are ignored. Returns
    // what is wrong with the line, if anything.
    std::optional<std::string> readHeaderLine(std::string_view line);
    // The id of a %EventDef that no %EndEventDef closed yet; null when none is open.
    const std::string* unclosed() const { return m_open ? &m_open->first : nullptr; }
    // The definition of the event id a line starts with; null when there is none.
    const EventDef* find(std::string_view id) const;

private:
    void add(const std::string& id, const EventDef& def);

    TextMap<EventDef> m_defs;
    std::array<const EventDef*, 100> m_byNumber{}; // the ids "0" to "99" of m_defs
    std::optional<std::pair<std::string, EventDef>> m_open;
    std::vector<std::string> m_openFields;
    std::vector<std::string_view> m_tokens;
};

} // namespace starscope::tracer::detail::paje
