#include "tracer/run/sweep_record.hpp"

#include "common/json_text.hpp"
#include "tracer/run/run_record.hpp"

#include <nlohmann/json.hpp>

namespace starscope::tracer::run {

using nlohmann::json;

namespace {

TraceError corrupt(std::string message, const std::string& file) {
    return TraceError{ErrorCode::Corrupt, std::move(message), file, {}};
}

// doc[key] as strings; an absent key is empty, any other type an error naming the key.
TraceResult<std::vector<std::string>> strings(const json& doc, const char* key, const std::string& file) {
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

} // namespace

std::string sweepRecordText(const SweepRecord& record) {
    const json doc{{"format", kSweepRecordFormat},
                   {"version", kSweepRecordVersion},
                   {"record_args", record.recordArgs},
                   {"strategies", record.strategies},
                   {"ranks", record.ranks}};
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
    record.recordArgs = std::move(*args);
    record.strategies = std::move(*strategies);
    if (const auto ranks = doc.find("ranks"); ranks != doc.end()) {
        const auto bad = [&] { return fail(corrupt("ranks is not an array of rank counts (integers >= 1)", file)); };
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
