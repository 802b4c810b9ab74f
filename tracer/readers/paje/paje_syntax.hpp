#pragma once
// The lexical side of Paje: event kinds by their definition names, the fields the reader uses by
// their names (new and old spellings), and splitting a line into fields.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace starscope::tracer::detail::paje {

enum class Kind : std::uint8_t {
    DefineContainerType, DefineStateType, DefineEventType, DefineVariableType, DefineLinkType,
    DefineEntityValue, CreateContainer, DestroyContainer, SetState, PushState, PopState,
    ResetState, NewEvent, SetVariable, AddVariable, SubVariable, StartLink, EndLink, Unknown,
};

// Unknown definition names (extensions, PajeTraceFile) read as Unknown and are skipped.
Kind kindOf(std::string_view name);

// FStartContainer/FEndContainer/FKey/FTag: a link's ends, its key pairing start and end, and
// StarPU-MPI's message tag (starpu_fxt_tool's extra "MPITAG" field).
enum Field : std::uint8_t {
    FTime, FAlias, FType, FName, FContainer, FValue, FJobId, FFootprint, FStartContainer, FEndContainer, FKey, FTag,
    FCount
};

// The field a definition's field name stands for; nullopt for fields the reader ignores. Both
// pajeng's names and the older ones of the Paje specification and ViTE ("ContainerType",
// "EntityType" for Type, as in StarPU's older traces) are accepted.
std::optional<Field> fieldOf(std::string_view name);

// Splits a line at blanks; a double-quoted field keeps its blanks (quotes removed).
void tokenize(std::string_view line, std::vector<std::string_view>& out);

} // namespace starscope::tracer::detail::paje
