#pragma once
// A figure the input may not support: its value, or why there is none. The analysis decides
// which; the CLI's text and JSON and the viewer only format it ("n/a (reason)", a null value
// with the reason), so no front end prints a number that the input cannot back.

#include <optional>
#include <string>
#include <utility>

namespace starscope::tracer {

template <typename T>
struct Figure {
    std::optional<T> value;
    std::string reason;   // why there is no value; empty when there is one

    static Figure known(T v) { return Figure{std::move(v), {}}; }
    static Figure unavailable(std::string why) { return Figure{std::nullopt, std::move(why)}; }
    bool operator==(const Figure&) const = default;
};

} // namespace starscope::tracer
