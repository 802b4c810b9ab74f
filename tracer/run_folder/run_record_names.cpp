// The run record's names: its enums' name tables and how a run is labelled in compare and the
// summaries (RunRecord::label, ProgramRecord::label).

#include "tracer/run_folder/run_record.hpp"

#include <algorithm>
#include <cstdio>

namespace starscope::tracer::run {

namespace {

template <typename Enum, std::size_t N>
std::string_view nameIn(const std::array<std::pair<Enum, std::string_view>, N>& names, Enum value) {
    for (const auto& [v, name] : names) {
        if (v == value) {
            return name;
        }
    }
    return "unknown";
}

template <typename Enum, std::size_t N>
std::optional<Enum> parseIn(const std::array<std::pair<Enum, std::string_view>, N>& names,
                            std::string_view text) {
    for (const auto& [v, name] : names) {
        if (name == text) {
            return v;
        }
    }
    return std::nullopt;
}

// Arguments up to this length name a command's runs as they are; longer ones by a digest.
constexpr std::size_t kLabelArgumentsMax = 32;

// StarPU's variables that say where and how the trace is written, not how the program runs:
// they do not tell two runs of a command apart.
bool isTraceSetting(std::string_view name) {
    return name == "STARPU_FXT_TRACE" || name == "STARPU_FXT_PREFIX"
           || name == "STARPU_TRACE_BUFFER_SIZE";
}

} // namespace

std::string_view workloadKindName(WorkloadKind kind) {
    return nameIn(kWorkloadKindNames, kind);
}
std::optional<WorkloadKind> parseWorkloadKind(std::string_view name) {
    return parseIn(kWorkloadKindNames, name);
}
std::string_view starpuVersionSourceName(StarpuVersionSource source) {
    return nameIn(kStarpuVersionSourceNames, source);
}
std::optional<StarpuVersionSource> parseStarpuVersionSource(std::string_view name) {
    return parseIn(kStarpuVersionSourceNames, name);
}

std::string ProgramRecord::label() const {
    if (argv.empty()) {
        return "command";
    }
    std::string name = std::filesystem::path(argv.front()).filename().string();
    if (name.empty()) {
        name = argv.front();
    }
    std::string arguments;
    for (std::size_t i = 1; i < argv.size(); ++i) {
        arguments += (i > 1 ? " " : "") + argv[i];
    }
    if (arguments.empty()) {
        return name;
    }
    // Shown as they are when short and unambiguous: an argument with a blank in it would read
    // as two.
    const bool blanks = std::any_of(argv.begin() + 1, argv.end(), [](const std::string& a) {
        return a.find_first_of(" \t\n") != std::string::npos || a.empty();
    });
    if (arguments.size() <= kLabelArgumentsMax && !blanks) {
        return name + " " + arguments;
    }
    // FNV-1a over the arguments, each ended by a zero byte, so that "a b" and "a" "b" differ.
    std::uint64_t hash = 14695981039346656037ULL;
    for (std::size_t i = 1; i < argv.size(); ++i) {
        for (const char c : argv[i] + '\0') {
            hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
        }
    }
    char digest[8];
    std::snprintf(digest, sizeof digest, "%06llx",
                  static_cast<unsigned long long>(hash & 0xffffffULL));
    return name + " #" + digest;
}

std::string RunRecord::label() const {
    if (workload != WorkloadKind::Command || !program) {
        return strategy.name();
    }
    std::string out = program->label();
    for (const auto& e : environment) {
        if (e.from == "environment" && !isTraceSetting(e.name)) {
            out += " " + e.name + "=" + e.value;
        }
    }
    return out;
}

} // namespace starscope::tracer::run
