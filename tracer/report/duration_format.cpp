#include "tracer/report/duration_format.hpp"

#include <cmath>
#include <cstdio>

namespace starscope::tracer {

std::string formatDuration(TimeNs ticks, std::int64_t ticksPerSecond) {
    return formatDurationNs(toSeconds(ticks, ticksPerSecond) * 1e9, ticksPerSecond > kNsPerSecond);
}

std::string formatDurationNs(double ns, bool subNanosecond) {
    char buffer[48];
    const double a = ns < 0 ? -ns : ns;
    if (a >= 1e9) {
        std::snprintf(buffer, sizeof buffer, "%.3f s", ns / 1e9);
    } else if (a >= 1e6) {
        std::snprintf(buffer, sizeof buffer, "%.3f ms", ns / 1e6);
    } else if (a >= 1e3) {
        std::snprintf(buffer, sizeof buffer, "%.1f us", ns / 1e3);
    } else if (!subNanosecond) {
        // Exact for a trace in ns: below 1 us, ns is a whole number to far within a half.
        std::snprintf(buffer, sizeof buffer, "%lld ns", std::llround(ns));
    } else if (a >= 1) {
        std::snprintf(buffer, sizeof buffer, "%.3f ns", ns);
    } else {
        std::snprintf(buffer, sizeof buffer, "%.1f ps", ns * 1e3);
    }
    return buffer;
}

} // namespace starscope::tracer
