#pragma once
// Paje event lines as typed records: what each kind of line says, by field name. A prepared
// line (paje_syntax.hpp) is typed here once, through the field positions its %EventDef resolved
// (paje_event_defs.hpp), and the decoder that builds the model (paje_decoder.hpp) reads
// record.container, never the line's fourth field. A field the definition lacks reads empty.
// Variable lines and unknown kinds make no record: preparing them only counts them.

#include "tracer/readers/paje/paje_event_defs.hpp"
#include "tracer/readers/paje/paje_syntax.hpp"
#include "tracer/readers/paje/paje_time.hpp"

#include <cstdint>
#include <string_view>

namespace starscope::tracer::detail::paje {

// PajeDefine{Container,State,Event,Variable,Link}Type: a type alias and the name it stands for.
struct DefineType {
    Kind kind = Kind::Unknown; // which of the five
    std::string_view alias;    // empty when the definition has none: then its name is its alias
    std::string_view type;     // the container type it belongs to
    std::string_view name;

    std::string_view aliasOrName() const { return alias.empty() ? name : alias; }
};

// A value of a state, event or link type, by alias (StarPU's "I" for "Initializing").
struct DefineEntityValue {
    std::string_view alias; // empty when the definition has none, as in DefineType
    std::string_view type;
    std::string_view name;

    std::string_view aliasOrName() const { return alias.empty() ? name : alias; }
};

struct CreateContainer {
    PajeStamp stamp;
    std::string_view alias; // how later lines refer to it (its name when empty)
    std::string_view type;
    std::string_view container; // the enclosing container ("0" at the top)
    std::string_view name;
};

struct DestroyContainer {
    PajeStamp stamp;
    std::string_view name; // its alias or name
    std::string_view type;
};

// Set replaces a container's state of one type; StarPU's worker states also name the task
// they run (JobId, Footprint: 0 when absent).
struct SetState {
    PajeStamp stamp;
    std::string_view container;
    std::string_view type;
    std::string_view value;
    std::uint64_t jobId = 0;
    std::uint32_t footprint = 0;
};
// The fields of a set: a push stacks the state a set would replace.
struct PushState : SetState {};

struct PopState {
    PajeStamp stamp;
    std::string_view container;
    std::string_view type;
};
// The fields of a pop: a reset empties the stack a pop takes one state from.
struct ResetState : PopState {};

struct NewEvent {
    PajeStamp stamp;
    std::string_view container;
    std::string_view type;
    std::string_view value;
};

// A link's two ends come as two lines paired by type and key; each names the container it
// leaves or reaches. value is StarPU's size in bytes, tag its StarPU-MPI message tag.
struct StartLink {
    PajeStamp stamp;
    std::string_view type;
    std::string_view key;
    std::string_view startContainer;
    std::string_view value;
    std::string_view tag;
};
struct EndLink {
    PajeStamp stamp;
    std::string_view type;
    std::string_view key;
    std::string_view endContainer;
    std::string_view value;
    std::string_view tag;
};

// Calls handler with the typed record of a prepared event line of batch (one of the structs
// above); nothing for the kinds that make none.
template <typename Handler>
void typeRecord(const LineBatch& batch, const PreparedEvent& e, Handler&& handler) {
    const EventDef& def = *e.def;
    const auto field = [&](Field f) -> std::string_view {
        return def.index[f] < 0
                   ? std::string_view{}
                   : batch.fields[e.firstField + static_cast<std::size_t>(def.index[f])];
    };
    switch (def.kind) {
    case Kind::DefineContainerType:
    case Kind::DefineStateType:
    case Kind::DefineEventType:
    case Kind::DefineVariableType:
    case Kind::DefineLinkType:
        handler(DefineType{def.kind, field(FAlias), field(FType), field(FName)});
        break;
    case Kind::DefineEntityValue:
        handler(DefineEntityValue{field(FAlias), field(FType), field(FName)});
        break;
    case Kind::CreateContainer:
        handler(
            CreateContainer{e.stamp, field(FAlias), field(FType), field(FContainer), field(FName)});
        break;
    case Kind::DestroyContainer:
        handler(DestroyContainer{e.stamp, field(FName), field(FType)});
        break;
    case Kind::SetState:
        handler(SetState{e.stamp, field(FContainer), field(FType), field(FValue), e.jobId,
                         e.footprint});
        break;
    case Kind::PushState:
        handler(PushState{
            {e.stamp, field(FContainer), field(FType), field(FValue), e.jobId, e.footprint}});
        break;
    case Kind::PopState:
        handler(PopState{e.stamp, field(FContainer), field(FType)});
        break;
    case Kind::ResetState:
        handler(ResetState{{e.stamp, field(FContainer), field(FType)}});
        break;
    case Kind::NewEvent:
        handler(NewEvent{e.stamp, field(FContainer), field(FType), field(FValue)});
        break;
    case Kind::StartLink:
        handler(StartLink{e.stamp, field(FType), field(FKey), field(FStartContainer), field(FValue),
                          field(FTag)});
        break;
    case Kind::EndLink:
        handler(EndLink{e.stamp, field(FType), field(FKey), field(FEndContainer), field(FValue),
                        field(FTag)});
        break;
    case Kind::SetVariable: // counted by prepareLines, which keeps no event of them
    case Kind::AddVariable:
    case Kind::SubVariable:
    case Kind::Unknown:
        break;
    }
}

} // namespace starscope::tracer::detail::paje
