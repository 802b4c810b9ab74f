#pragma once
// The trace marker grammar, shared by the writer (runtime/, through StarPU's
// starpu_fxt_trace_user_event_string) and the reader (tracer/). Versioned: a reader refuses a
// marker of a newer grammar instead of misreading it.
//
//   marker  := "ss" VERSION ":" kind { " " key "=" value }
//   kind    := batch_begin | batch_end | reset_wait_begin | reset_wait_end
//            | load_begin | load_end | prefetch_begin | prefetch_end
//   key     := epoch | batch | slot | handles   (integers)  |  arena (no spaces)
// Example: "ss1:batch_begin epoch=0 batch=3 slot=1"

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace starscope::markers {

inline constexpr int kGrammarVersion = 1;
inline constexpr std::string_view kPrefix = "ss";

enum class Kind : std::uint8_t {
    BatchBegin,
    BatchEnd,
    ResetWaitBegin,
    ResetWaitEnd,
    LoadBegin,
    LoadEnd,
    PrefetchBegin,
    PrefetchEnd,
};

inline constexpr std::string_view kindName(Kind kind) {
    switch (kind) {
    case Kind::BatchBegin: return "batch_begin";
    case Kind::BatchEnd: return "batch_end";
    case Kind::ResetWaitBegin: return "reset_wait_begin";
    case Kind::ResetWaitEnd: return "reset_wait_end";
    case Kind::LoadBegin: return "load_begin";
    case Kind::LoadEnd: return "load_end";
    case Kind::PrefetchBegin: return "prefetch_begin";
    case Kind::PrefetchEnd: return "prefetch_end";
    }
    return "unknown";
}

inline std::optional<Kind> kindFromName(std::string_view name) {
    for (int k = 0; k <= static_cast<int>(Kind::PrefetchEnd); ++k) {
        const auto kind = static_cast<Kind>(k);
        if (kindName(kind) == name) {
            return kind;
        }
    }
    return std::nullopt;
}

// A marker's fields; -1 / empty where a field does not apply.
struct Marker {
    Kind kind = Kind::BatchBegin;
    std::int32_t epoch = -1;
    std::int32_t batch = -1;
    std::int32_t slot = -1;
    std::int64_t handles = -1;
    std::string arena;

    bool operator==(const Marker&) const = default;
};

inline std::string format(const Marker& m) {
    std::string out(kPrefix);
    out += std::to_string(kGrammarVersion);
    out += ':';
    out += kindName(m.kind);
    const auto field = [&out](std::string_view key, std::int64_t value) {
        if (value >= 0) {
            out += ' ';
            out += key;
            out += '=';
            out += std::to_string(value);
        }
    };
    field("epoch", m.epoch);
    field("batch", m.batch);
    field("slot", m.slot);
    field("handles", m.handles);
    if (!m.arena.empty()) {
        out += " arena=";
        out += m.arena;
    }
    return out;
}

// Whether text is what format(m) writes, without writing it: a reader asks it of every marker
// (format's string was 3 % of the instructions of `stats` on a CNN trace).
inline bool formatsAs(const Marker& m, std::string_view text) {
    const auto take = [&text](std::string_view part) {
        if (!text.starts_with(part)) {
            return false;
        }
        text.remove_prefix(part.size());
        return true;
    };
    const auto number = [&take](std::int64_t value) {
        char digits[24];
        const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
        return take(std::string_view(digits, static_cast<std::size_t>(end - digits)));
    };
    const auto field = [&](std::string_view key, std::int64_t value) {
        return value < 0 || (take(" ") && take(key) && take("=") && number(value));
    };
    return take(kPrefix) && number(kGrammarVersion) && take(":") && take(kindName(m.kind))
           && field("epoch", m.epoch) && field("batch", m.batch) && field("slot", m.slot)
           && field("handles", m.handles) && (m.arena.empty() || (take(" arena=") && take(m.arena)))
           && text.empty();
}

enum class ParseStatus : std::uint8_t {
    Ok,
    NotAMarker,   // some other user event: not ours, ignore it
    TooNew,       // a grammar version this reader does not know
    Malformed,    // ours, but unreadable
};

struct ParseResult {
    ParseStatus status = ParseStatus::NotAMarker;
    Marker marker;
};

inline ParseResult parse(std::string_view text) {
    ParseResult result;
    if (!text.starts_with(kPrefix)) {
        return result;
    }
    text.remove_prefix(kPrefix.size());
    const auto colon = text.find(':');
    int version = 0;
    if (colon == std::string_view::npos
        || std::from_chars(text.data(), text.data() + colon, version).ptr != text.data() + colon) {
        return result;
    }
    if (version > kGrammarVersion) {
        result.status = ParseStatus::TooNew;
        return result;
    }
    text.remove_prefix(colon + 1);
    result.status = ParseStatus::Malformed;
    const auto space = text.find(' ');
    const auto kind = kindFromName(text.substr(0, space));
    if (!kind) {
        return result;
    }
    result.marker.kind = *kind;
    text = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
    while (!text.empty()) {
        const auto end = text.find(' ');
        const auto item = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        const auto eq = item.find('=');
        if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size()) {
            return result;
        }
        const auto key = item.substr(0, eq);
        const auto value = item.substr(eq + 1);
        if (key == "arena") {
            result.marker.arena = std::string(value);
            continue;
        }
        // Unknown keys of the same version are skipped, whatever their value: fields may be
        // added without a version bump.
        if (key != "epoch" && key != "batch" && key != "slot" && key != "handles") {
            continue;
        }
        std::int64_t number = 0;
        const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
        if (ec != std::errc{} || ptr != value.data() + value.size() || number < 0) {
            return result;
        }
        if (key == "epoch") {
            result.marker.epoch = static_cast<std::int32_t>(number);
        } else if (key == "batch") {
            result.marker.batch = static_cast<std::int32_t>(number);
        } else if (key == "slot") {
            result.marker.slot = static_cast<std::int32_t>(number);
        } else {
            result.marker.handles = number;
        }
    }
    result.status = ParseStatus::Ok;
    return result;
}

} // namespace starscope::markers
