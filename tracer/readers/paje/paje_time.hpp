#pragma once
// Paje timestamps read exactly. A Paje date is a decimal number (StarPU writes milliseconds with
// nine decimals, other tools seconds with ten or more): reading it through a double and rounding
// to nanoseconds merged or dropped every state shorter than the rounding. Here a date is kept as
// an integer mantissa and its count of decimals; once the whole file is read, the reader picks
// the coarsest integer tick that holds every date exactly (nanoseconds when they suffice).

#include "tracer/model/trace.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace starscope::tracer::detail {

// mantissa * 10^-decimals file units (milliseconds for Paje).
struct PajeStamp {
    std::int64_t mantissa = 0;
    std::int8_t decimals = 0;
    bool truncated = false;   // digits beyond 64 bits were dropped
};

// Parses "12", "-0.5", "85.720468000", "1.5e-07": trailing zeros of the fraction do not count
// as resolution. nullopt for anything else, or a value beyond +-1e12 units.
std::optional<PajeStamp> parsePajeStamp(std::string_view text);

// Chooses the integer tick for a file whose dates need maxDecimals decimals of a millisecond
// and whose largest magnitude is maxAbsMs: nanoseconds (6 decimals) unless finer is needed,
// never finer than int64 can hold over that range.
struct PajeTick {
    int decimals = 6;                              // of a millisecond
    std::int64_t ticksPerSecond = 1'000'000'000;
    bool reduced = false;                          // the file needed finer than int64 allows
};
PajeTick choosePajeTick(int maxDecimals, double maxAbsMs);

// The stamp in ticks of 10^-decimals ms (rounded half away from zero when the stamp is finer).
TimeNs toPajeTicks(const PajeStamp& stamp, int decimals);

// 10^-decimals exactly as std::pow gives it, from a table for the usual counts: a pow per date
// was a tenth of reading a Paje trace.
double negativePowerOfTen(int decimals);

} // namespace starscope::tracer::detail
