#pragma once
// The unit of a trace's times. TimeNs values are integer ticks of 1/ticksPerSecond second:
// nanoseconds for every FxT and native trace, finer when a Paje file's timestamps carry more
// decimals than nanoseconds hold (times in seconds written with 10 or 12 decimals, say), so
// that sub-nanosecond states are kept instead of rounded away.
//
// The unit travels in Trace::metadata under one key, so the native format carries it without a
// new field or version. Read it only through ticksPerSecond(): absent means nanoseconds.

#include "tracer/model/trace.hpp"

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace starscope::tracer {

inline constexpr std::int64_t kNsPerSecond = 1'000'000'000;
// Metadata key holding the decimal ticks per second (a power of ten, 1e9 to 1e18) when the
// reader needed a unit finer than nanoseconds.
inline constexpr std::string_view kTicksPerSecondMetadata = "time.ticks_per_second";

// Ticks per second of the trace's times; nanoseconds unless the reader recorded a finer unit.
// A value that is no power of ten in [1e9, 1e18] (a hand-edited native file) reads as ns.
inline std::int64_t ticksPerSecond(const Trace& trace) {
    const auto it = trace.metadata.find(std::string(kTicksPerSecondMetadata));
    if (it == trace.metadata.end()) {
        return kNsPerSecond;
    }
    std::int64_t value = 0;
    const auto& text = it->second;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size() || value < kNsPerSecond) {
        return kNsPerSecond;
    }
    for (std::int64_t p = kNsPerSecond; p > 0; p = p <= INT64_MAX / 10 ? p * 10 : 0) {
        if (p == value) {
            return value;
        }
    }
    return kNsPerSecond;
}

// Decimal digits of one tick in nanoseconds: 0 for ns, 3 for ps...
inline int subNsDigits(std::int64_t ticksPerSecond) {
    int digits = 0;
    for (std::int64_t p = ticksPerSecond; p > kNsPerSecond; p /= 10) {
        ++digits;
    }
    return digits;
}

// A duration in nanoseconds (a user's threshold, say) in the trace's ticks.
inline TimeNs ticksFromNs(TimeNs ns, std::int64_t ticksPerSecond) {
    return ns * (ticksPerSecond / kNsPerSecond);
}

// Nanoseconds in one tick (1 for ns, 0.001 for ps): for displays that work in (fractional) ns.
inline double nsPerTick(const Trace& trace) {
    return static_cast<double>(kNsPerSecond) / static_cast<double>(ticksPerSecond(trace));
}

// Ticks as (fractional) seconds, for display and for formats that speak in seconds.
inline double toSeconds(TimeNs ticks, std::int64_t ticksPerSecond) {
    return static_cast<double>(ticks) / static_cast<double>(ticksPerSecond);
}

} // namespace starscope::tracer
