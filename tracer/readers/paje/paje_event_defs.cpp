#include "tracer/readers/paje/paje_event_defs.hpp"

#include "tracer/readers/paje/paje_syntax.hpp"

#include <algorithm>
#include <utility>

namespace starscope::tracer::detail::paje {

Kind kindOf(std::string_view name) {
    static const std::pair<std::string_view, Kind> kKinds[] = {
        {"PajeDefineContainerType", Kind::DefineContainerType},
        {"PajeDefineStateType", Kind::DefineStateType},
        {"PajeDefineEventType", Kind::DefineEventType},
        {"PajeDefineVariableType", Kind::DefineVariableType},
        {"PajeDefineLinkType", Kind::DefineLinkType},
        {"PajeDefineEntityValue", Kind::DefineEntityValue},
        {"PajeCreateContainer", Kind::CreateContainer},
        {"PajeDestroyContainer", Kind::DestroyContainer},
        {"PajeSetState", Kind::SetState},
        {"PajePushState", Kind::PushState},
        {"PajePopState", Kind::PopState},
        {"PajeResetState", Kind::ResetState},
        {"PajeNewEvent", Kind::NewEvent},
        {"PajeSetVariable", Kind::SetVariable},
        {"PajeAddVariable", Kind::AddVariable},
        {"PajeSubVariable", Kind::SubVariable},
        {"PajeStartLink", Kind::StartLink},
        {"PajeEndLink", Kind::EndLink},
    };
    for (const auto& [text, kind] : kKinds) {
        if (text == name) {
            return kind;
        }
    }
    return Kind::Unknown;
}

std::optional<Field> fieldOf(std::string_view name) {
    static const std::pair<std::string_view, Field> kFields[] = {
        {"Time", FTime},
        {"Alias", FAlias},
        {"Type", FType},
        {"Name", FName},
        {"Container", FContainer},
        {"Value", FValue},
        {"JobId", FJobId},
        {"Footprint", FFootprint},
        {"StartContainer", FStartContainer},
        {"EndContainer", FEndContainer},
        {"Key", FKey},
        {"MPITAG", FTag},
        // Older spellings (pajeng reads them with --no-strict).
        {"ContainerType", FType},
        {"EntityType", FType},
        {"SourceContainer", FStartContainer},
        {"DestContainer", FEndContainer},
    };
    for (const auto& [text, field] : kFields) {
        if (text == name) {
            return field;
        }
    }
    return std::nullopt;
}

namespace {

// 0 to 99 for an event id written as that number ("7", "42"; not "07", a different id), else -1.
int smallEventNumber(std::string_view id) {
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    if (id.size() == 1 && digit(id[0])) {
        return id[0] - '0';
    }
    if (id.size() == 2 && id[0] != '0' && digit(id[0]) && digit(id[1])) {
        return (id[0] - '0') * 10 + (id[1] - '0');
    }
    return -1;
}

} // namespace

std::optional<std::string> EventDefs::readHeaderLine(std::string_view line) {
    tokenize(line.substr(1), m_tokens);
    if (m_tokens.empty()) {
        return std::nullopt;
    }
    if (m_tokens[0] == "EventDef") {
        if (m_tokens.size() < 3) {
            return "%EventDef needs a name and an id";
        }
        EventDef def;
        def.kind = kindOf(m_tokens[1]);
        m_open.emplace(std::string(m_tokens[2]), def);
        m_openFields.clear();
    } else if (m_tokens[0] == "EndEventDef") {
        if (!m_open) {
            return "%EndEventDef without %EventDef";
        }
        auto& [id, def] = *m_open;
        std::fill(std::begin(def.index), std::end(def.index), -1);
        def.fieldCount = m_openFields.size();
        for (std::size_t i = 0; i < m_openFields.size(); ++i) {
            if (const auto field = fieldOf(m_openFields[i])) {
                def.index[*field] = static_cast<int>(i);
            }
        }
        add(id, def);
        m_open.reset();
    } else if (m_open) {
        m_openFields.emplace_back(m_tokens[0]);
    }
    return std::nullopt;
}

void EventDefs::add(const std::string& id, const EventDef& def) {
    auto& stored = m_defs[id];
    stored = def;
    if (const int number = smallEventNumber(id); number >= 0) {
        m_byNumber[static_cast<std::size_t>(number)] = &stored;
    }
}

const EventDef* EventDefs::find(std::string_view id) const {
    // StarPU's and most writers' ids are small numbers: looked up by value, not hashed.
    if (const int number = smallEventNumber(id); number >= 0) {
        return m_byNumber[static_cast<std::size_t>(number)];
    }
    const auto it = m_defs.find(id);
    return it == m_defs.end() ? nullptr : &it->second;
}

} // namespace starscope::tracer::detail::paje
