#include "tracer/readers/paje/paje_syntax.hpp"

#include <utility>

namespace starscope::tracer::detail::paje {

Kind kindOf(std::string_view name) {
    static const std::pair<std::string_view, Kind> kKinds[] = {
        {"PajeDefineContainerType", Kind::DefineContainerType}, {"PajeDefineStateType", Kind::DefineStateType},
        {"PajeDefineEventType", Kind::DefineEventType}, {"PajeDefineVariableType", Kind::DefineVariableType},
        {"PajeDefineLinkType", Kind::DefineLinkType}, {"PajeDefineEntityValue", Kind::DefineEntityValue},
        {"PajeCreateContainer", Kind::CreateContainer}, {"PajeDestroyContainer", Kind::DestroyContainer},
        {"PajeSetState", Kind::SetState}, {"PajePushState", Kind::PushState}, {"PajePopState", Kind::PopState},
        {"PajeResetState", Kind::ResetState}, {"PajeNewEvent", Kind::NewEvent},
        {"PajeSetVariable", Kind::SetVariable}, {"PajeAddVariable", Kind::AddVariable},
        {"PajeSubVariable", Kind::SubVariable}, {"PajeStartLink", Kind::StartLink}, {"PajeEndLink", Kind::EndLink},
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
        {"Time", FTime}, {"Alias", FAlias}, {"Type", FType}, {"Name", FName}, {"Container", FContainer},
        {"Value", FValue}, {"JobId", FJobId}, {"Footprint", FFootprint}, {"StartContainer", FStartContainer},
        {"EndContainer", FEndContainer}, {"Key", FKey}, {"MPITAG", FTag},
        // Older spellings (pajeng reads them with --no-strict).
        {"ContainerType", FType}, {"EntityType", FType}, {"SourceContainer", FStartContainer},
        {"DestContainer", FEndContainer},
    };
    for (const auto& [text, field] : kFields) {
        if (text == name) {
            return field;
        }
    }
    return std::nullopt;
}

void tokenize(std::string_view line, std::vector<std::string_view>& out) {
    out.clear();
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) {
            ++i;
        }
        if (i >= line.size()) {
            break;
        }
        if (line[i] == '"') {
            const auto close = line.find('"', i + 1);
            const auto end = close == std::string_view::npos ? line.size() : close;
            out.push_back(line.substr(i + 1, end - i - 1));
            i = end + 1;
        } else {
            std::size_t j = i;
            while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') {
                ++j;
            }
            out.push_back(line.substr(i, j - i));
            i = j;
        }
    }
}

} // namespace starscope::tracer::detail::paje
