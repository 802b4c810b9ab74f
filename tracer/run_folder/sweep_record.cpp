#include "tracer/run_folder/sweep_record.hpp"

#include "common/json_text.hpp"
#include "tracer/run_folder/run_record.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace starscope::tracer::run {

using nlohmann::json;

namespace {

TraceError corrupt(std::string message, const std::string& file) {
    return TraceError{ErrorCode::Corrupt, std::move(message), file, {}};
}

// doc[key] as strings; an absent key is empty, any other type an error naming the key.
TraceResult<std::vector<std::string>> strings(const json& doc, const char* key,
                                              const std::string& file) {
    std::vector<std::string> out;
    const auto it = doc.find(key);
    if (it == doc.end()) {
        return out;
    }
    if (!it->is_array()) {
        return fail(corrupt(std::string(key) + " is not an array of strings", file));
    }
    for (const auto& item : *it) {
        if (!item.is_string()) {
            return fail(corrupt(std::string(key) + " is not an array of strings", file));
        }
        out.push_back(item.get<std::string>());
    }
    return out;
}

// doc[key] as a string; an absent key is empty.
TraceResult<std::string> stringAt(const json& doc, const char* key, const std::string& file) {
    const auto it = doc.find(key);
    if (it == doc.end()) {
        return std::string();
    }
    if (!it->is_string()) {
        return fail(corrupt(std::string(key) + " is not a string", file));
    }
    return it->get<std::string>();
}

// doc["environment"], an object of strings; absent: nullopt.
TraceResult<std::optional<SweepEnvironment>> environment(const json& doc, const std::string& file) {
    const auto it = doc.find("environment");
    if (it == doc.end()) {
        return std::optional<SweepEnvironment>();
    }
    if (!it->is_object()) {
        return fail(corrupt("environment is not an object of strings", file));
    }
    SweepEnvironment out;
    for (const auto& [name, value] : it->items()) {
        if (!value.is_string()) {
            return fail(corrupt("environment is not an object of strings", file));
        }
        out.emplace_back(name, value.get<std::string>());
    }
    return std::optional(std::move(out)); // nlohmann's object iterates sorted by name
}

// Version 1 kept one list: a CNN sweep's record options, or "--" PROGRAM ARGS followed by
// "--vary" V when --vary was given (always last, so a trailing pair is read as the option).
SweepConfiguration upgradeVersion1(std::vector<std::string> args) {
    SweepConfiguration configuration;
    if (args.empty() || args.front() != "--") {
        configuration.recordArgs = std::move(args);
        return configuration;
    }
    args.erase(args.begin());
    if (args.size() >= 3 && args[args.size() - 2] == "--vary") {
        configuration.vary = args.back();
        args.resize(args.size() - 2);
    }
    configuration.program = std::move(args);
    return configuration;
}

std::string joined(const std::vector<std::string>& words, const char* none) {
    if (words.empty()) {
        return none;
    }
    // Quoted as a shell would need it, so that an empty argument (`--sched ''`) shows.
    std::string out;
    for (const auto& word : words) {
        const bool quote = word.empty() || word.find_first_of(" \t'\"") != std::string::npos;
        out += (out.empty() ? "" : " ") + (quote ? "'" + word + "'" : word);
    }
    return "`" + out + "`";
}

enum class Number : std::uint8_t { One, Several };

std::string change(const std::string& what, const std::string& was, const std::string& now,
                   Number number = Number::One) {
    const bool several = number == Number::Several;
    return what + (several ? " were " : " was ") + was + (several ? ", are " : ", is ") + now
           + " now";
}

} // namespace

std::vector<std::string> configurationChanges(const SweepConfiguration& earlier,
                                              const SweepConfiguration& now) {
    std::vector<std::string> changes;
    if (earlier.recordArgs != now.recordArgs) {
        changes.push_back(change("the record options", joined(earlier.recordArgs, "none"),
                                 joined(now.recordArgs, "none"), Number::Several));
    }
    if (earlier.program != now.program) {
        changes.push_back(change("the program and its arguments",
                                 joined(earlier.program, "none (the CNN)"),
                                 joined(now.program, "none (the CNN)"), Number::Several));
    }
    if (earlier.vary != now.vary) {
        const auto given = [](const std::string& v) { return v.empty() ? "not given" : v; };
        changes.push_back(change("--vary", given(earlier.vary), given(now.vary)));
    }
    if (!earlier.environment || !now.environment) {
        return changes;
    }
    const auto valueOf = [](const SweepEnvironment& env, const std::string& name) {
        const auto it = std::find_if(env.begin(), env.end(),
                                     [&](const auto& entry) { return entry.first == name; });
        return it == env.end() ? std::string("unset") : it->second;
    };
    std::vector<std::string> names;
    for (const auto* env : {&*earlier.environment, &*now.environment}) {
        for (const auto& [name, value] : *env) {
            names.push_back(name);
        }
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    for (const auto& name : names) {
        const auto was = valueOf(*earlier.environment, name);
        const auto is = valueOf(*now.environment, name);
        if (was != is) {
            changes.push_back(change(name, was, is));
        }
    }
    return changes;
}

std::string sweepRecordText(const SweepRecord& record) {
    const auto& c = record.configuration;
    json doc{{"format", kSweepRecordFormat},
             {"version", kSweepRecordVersion},
             {"record_args", c.recordArgs},
             {"program", c.program},
             {"vary", c.vary}};
    if (c.environment) {
        json env = json::object();
        for (const auto& [name, value] : *c.environment) {
            env[name] = value;
        }
        doc["environment"] = std::move(env);
    }
    doc["strategies"] = record.strategies;
    doc["ranks"] = record.ranks;
    return jsonText(doc, 2) + "\n";
}

TraceResult<SweepRecord> parseSweepRecord(const std::string& text, const std::string& file) {
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        return fail(corrupt("not valid JSON (a sweep.json is one JSON object)", file));
    }
    if (const auto format = doc.find("format");
        format != doc.end() && (!format->is_string() || format->get<std::string>() != kSweepRecordFormat)) {
        return fail(TraceError{ErrorCode::Format,
                               std::string("not a sweep description (format is ")
                                   + jsonText(*format) + ", expected \"" + kSweepRecordFormat
                                   + "\")",
                               file,
                               {}});
    }
    SweepRecord record;
    record.version = 1; // sweeps wrote no version before the type existed
    if (const auto version = doc.find("version"); version != doc.end()) {
        if (!version->is_number_unsigned()) {
            return fail(corrupt("version is not a count (an integer >= 0)", file));
        }
        if (version->get<std::uint64_t>() > static_cast<std::uint64_t>(kSweepRecordVersion)) {
            return fail(TraceError{ErrorCode::TooNew,
                                   "sweep.json version " + jsonText(*version)
                                       + " is newer than this starscope reads (up to "
                                       + std::to_string(kSweepRecordVersion) + ")",
                                   file,
                                   {}});
        }
        record.version = version->get<int>();
    }
    if (!doc.contains("record_args")) {
        return fail(corrupt("not a sweep description (no record_args)", file));
    }
    auto args = strings(doc, "record_args", file);
    if (!args) {
        return fail(args.error());
    }
    auto strategies = strings(doc, "strategies", file);
    if (!strategies) {
        return fail(strategies.error());
    }
    if (record.version < 2) {
        record.configuration = upgradeVersion1(std::move(*args));
    } else {
        auto program = strings(doc, "program", file);
        if (!program) {
            return fail(program.error());
        }
        auto vary = stringAt(doc, "vary", file);
        if (!vary) {
            return fail(vary.error());
        }
        auto env = environment(doc, file);
        if (!env) {
            return fail(env.error());
        }
        record.configuration = SweepConfiguration{std::move(*args), std::move(*program),
                                                  std::move(*vary), std::move(*env)};
    }
    record.strategies = std::move(*strategies);
    if (const auto ranks = doc.find("ranks"); ranks != doc.end()) {
        const auto bad = [&] {
            return fail(corrupt("ranks is not an array of rank counts (integers >= 1)", file));
        };
        if (!ranks->is_array() || ranks->empty()) {
            return bad();
        }
        record.ranks.clear();
        for (const auto& n : *ranks) {
            if (!n.is_number_unsigned() || n.get<std::uint64_t>() == 0) {
                return bad();
            }
            record.ranks.push_back(n.get<std::uint64_t>());
        }
    }
    return record;
}

TraceResult<SweepRecord> readSweepRecord(const std::filesystem::path& path) {
    auto text = detail::readRecordText(path);
    if (!text) {
        return fail(text.error());
    }
    return parseSweepRecord(*text, path.string());
}

TraceResult<Done> writeSweepRecord(const std::filesystem::path& path, const SweepRecord& record) {
    return detail::writeRecordText(path, sweepRecordText(record));
}

} // namespace starscope::tracer::run
