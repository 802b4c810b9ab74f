#include "tracer/readers/run_json_fields.hpp"

namespace starscope::tracer {

using nlohmann::json;

std::string strategyOf(const json& run, const std::filesystem::path& folder) {
    const auto it = run.find("strategy");
    if (it != run.end()) {
        if (it->is_string()) {
            return it->get<std::string>();
        }
        if (it->is_object()) {
            std::string text;
            for (const char* key : {"arenas", "arena", "loader"}) {
                if (const auto f = it->find(key); f != it->end() && f->is_string()) {
                    text += (text.empty() ? "" : "+") + f->get<std::string>();
                }
            }
            if (!text.empty()) {
                return text;
            }
        }
    }
    return folder.filename().string();
}

std::string reasonOf(const json& node, const std::string& fallback) {
    if (node.is_object()) {
        if (const auto reason = node.find("reason"); reason != node.end() && reason->is_string()) {
            return reason->get<std::string>();
        }
    }
    return fallback;
}

std::optional<double> papiEventTotal(const json& papi, std::string_view name) {
    const auto events = papi.find("events");
    if (events == papi.end() || !events->is_array()) {
        return std::nullopt;
    }
    for (const auto& e : *events) {
        if (e.is_object() && e.value("name", "") == name && e.value("available", false)) {
            if (const auto total = e.find("total"); total != e.end() && total->is_number()) {
                return total->get<double>();
            }
        }
    }
    return std::nullopt;
}

std::optional<double> peakArenaBytes(const json& run) {
    const auto peaks = run.find("peak_arena_bytes");
    if (peaks == run.end() || !peaks->is_object() || peaks->empty()) {
        return std::nullopt;
    }
    double sum = 0.0;
    for (const auto& [name, value] : peaks->items()) {
        sum += value.is_number() ? value.get<double>() : 0.0;
    }
    return sum;
}

} // namespace starscope::tracer
