#pragma once
// What every starscope command line shares, whatever module defines the command: usage errors
// exit 2 (CLI11's own codes, 105, 106, 109..., differ per kind of mistake and mean nothing to a
// script), numeric options are range-checked with a message a person reads, and --version
// prints the project's version. Header-only; includers link CLI11.

#include "common/version.hpp"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <ostream>
#include <string>

namespace starscope::cli {

inline constexpr int kUsageError = 2;

// --version prints "<program> <version>" and exits 0.
inline void addVersionFlag(CLI::App& app, const std::string& program) {
    app.set_version_flag("--version", program + " " + kVersion, "Print the version and exit");
}

// The exit code for what app.parse() threw, after printing what CLI11 prints for it: 0 for
// --help and --version, a command's own code (thrown as CLI::RuntimeError, its message already
// printed) as it is, kUsageError for every mistake on the command line.
inline int exitCode(const CLI::App& app, const CLI::ParseError& error, std::ostream& out, std::ostream& err) {
    if (dynamic_cast<const CLI::RuntimeError*>(&error) != nullptr) {
        return error.get_exit_code();
    }
    return app.exit(error, out, err) == 0 ? 0 : kUsageError;
}

namespace detail {

inline std::string formatBound(double value) {
    char text[32];
    // Whole bounds in full (1000000000000, not 1e+12).
    std::snprintf(text, sizeof text, value == std::floor(value) && std::fabs(value) < 1e15 ? "%.0f" : "%.6g", value);
    return text;
}

} // namespace detail

// A finite number in [min, max], or in (min, max] when minIncluded is false ("must be at least
// 0, got -5"; CLI11 puts the option's name in front). Its own check rather than CLI::Range,
// which prints an unbounded maximum as its 309 digits, and lets NaN through.
inline CLI::Validator numberIn(double min, double max = std::numeric_limits<double>::infinity(),
                               bool minIncluded = true) {
    const bool unbounded = max == std::numeric_limits<double>::infinity();
    const std::string range = (minIncluded ? (unbounded ? "at least " : "between ") : "greater than ")
                              + detail::formatBound(min)
                              + (unbounded ? "" : (minIncluded ? " and " : " and at most ") + detail::formatBound(max));
    return CLI::Validator(
        [min, max, minIncluded, range](std::string& text) -> std::string {
            char* end = nullptr;
            errno = 0;
            const double value = std::strtod(text.c_str(), &end);
            if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value)) {
                return "'" + text + "' is not a number";
            }
            if (value < min || (!minIncluded && value == min) || value > max) {
                return "must be " + range + ", got " + text;
            }
            return {};
        },
        "NUMBER " + range);
}

// A whole number in [min, max]: an unsigned option given "-1" would otherwise wrap around to
// 18446744073709551615 (and `record --epochs -1` would try to run that many).
inline CLI::Validator wholeNumberIn(std::uint64_t min, std::uint64_t max) {
    const std::string range = "between " + std::to_string(min) + " and " + std::to_string(max);
    return CLI::Validator(
        [min, max, range](std::string& text) -> std::string {
            const bool negative = text.size() > 1 && text[0] == '-'
                                  && text.find_first_not_of("0123456789", 1) == std::string::npos;
            if (negative) {
                return "must be " + range + ", got " + text;
            }
            if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
                return "must be a whole number " + range + ", got " + text;
            }
            errno = 0;
            const unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
            if (errno == ERANGE || value < min || value > max) {
                return "must be " + range + ", got " + text;
            }
            return {};
        },
        "INTEGER " + range);
}

} // namespace starscope::cli
