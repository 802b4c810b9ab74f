#pragma once
// Fields of a run folder's run.json (workloads/record/run_json.cpp writes it) that both
// `starscope compare` and the viewer's comparison read.

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace starscope::tracer {

// "arenas+loader" from the strategy object (or the string as it is); the folder's name when
// run.json names no strategy.
std::string strategyOf(const nlohmann::json& run, const std::filesystem::path& folder);

// The node's "reason" (why a counter is missing), or fallback.
std::string reasonOf(const nlohmann::json& node, const std::string& fallback);

// Total of an available event in counters.papi.events; nullopt when absent or unavailable.
std::optional<double> papiEventTotal(const nlohmann::json& papi, std::string_view name);

// The arenas' peaks of peak_arena_bytes summed (they can all be live at once); nullopt when
// run.json records no arena.
std::optional<double> peakArenaBytes(const nlohmann::json& run);

} // namespace starscope::tracer
