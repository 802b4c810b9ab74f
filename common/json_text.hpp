#pragma once
// The one way starscope turns JSON into text. Names, paths and arguments come from outside
// (a codelet's name, a program's argv, a folder typed at a shell) and need not be UTF-8, which
// JSON requires: nlohmann's dump() throws type_error.316 on such bytes by default, which killed
// record after a run, before its run.json. Here every invalid sequence becomes U+FFFD, so the
// document is written, valid, and says where the bytes were.

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace starscope {

// indent < 0: one line; otherwise pretty-printed with that many spaces per level.
inline std::string jsonText(const nlohmann::json& value, int indent = -1) {
    return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A JSON string literal, quotes included, for writers that stream their document themselves
// (the Chrome trace export, too large to build as one value). Printable ASCII without a quote or
// a backslash, what nearly every name is, is its own literal: the dump, three times the cost per
// name, is left to the names that need escaping or replacing.
inline std::string jsonString(std::string_view text) {
    const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
        return c >= ' ' && c <= '~' && c != '"' && c != '\\';
    });
    if (!plain) {
        return jsonText(nlohmann::json(text));
    }
    std::string literal;
    literal.reserve(text.size() + 2);
    literal += '"';
    literal += text;
    literal += '"';
    return literal;
}

} // namespace starscope
