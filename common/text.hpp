#pragma once
// The few text helpers the readers and the viewer share: names typed by users (event sets,
// searches, lane filters) are matched trimmed and without regard to ASCII case.

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

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

} // namespace starscope
