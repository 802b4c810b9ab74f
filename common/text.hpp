#pragma once
// The few text helpers the modules share: names typed by users (event sets, searches, lane
// filters) are matched trimmed and without regard to ASCII case; a command line shown to a user
// is quoted as a shell would need it to run it again.

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace starscope {

inline std::string_view trimmed(std::string_view text) {
    const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    while (!text.empty() && space(text.front())) {
        text.remove_prefix(1);
    }
    while (!text.empty() && space(text.back())) {
        text.remove_suffix(1);
    }
    return text;
}

inline std::string lowered(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// One argument as a POSIX shell reads it back: as it is when every byte is one a shell leaves
// alone (ASCII letters, digits and _@%+=:,./-), else in single quotes, a quote inside written '\''.
inline std::string shellQuoted(std::string_view argument) {
    const auto plain = [](unsigned char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
               || std::string_view("_@%+=:,./-").find(static_cast<char>(c))
                      != std::string_view::npos;
    };
    if (!argument.empty() && std::all_of(argument.begin(), argument.end(), plain)) {
        return std::string(argument);
    }
    std::string out = "'";
    for (const char c : argument) {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

// A command line, each argument shellQuoted, separated by blanks.
inline std::string shellCommandLine(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& argument : argv) {
        out += (out.empty() ? "" : " ") + shellQuoted(argument);
    }
    return out;
}

} // namespace starscope
