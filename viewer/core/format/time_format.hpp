#pragma once
// Tick placement and time labels for the time axis: the unit follows the magnitude of the
// visible times (ns, us, ms, s) and the decimals follow the tick step, so neighbouring labels
// always differ. Durations are printed by the tracer's one formatter, as the CLI prints them.

#include "tracer/analysis/stats.hpp"
#include "tracer/report/duration_format.hpp"

#include <cmath>
#include <string>

namespace starscope::viewer {

enum class TimeUnit { Ns, Us, Ms, S };

double unitScaleNs(TimeUnit unit);
const char* unitSuffix(TimeUnit unit);
// The largest unit in which magnitudeNs is at least 1 (ns for anything below 1 us).
TimeUnit unitFor(double magnitudeNs);

struct TickPlan {
    double stepNs = 1.0;   // 1, 2 or 5 times a power of ten, never below 1 ns
    TimeUnit unit = TimeUnit::Ns;
    int decimals = 0;
};

// Ticks for the window [startNs, endNs] with at most about maxTicks ticks, never closer than
// minStepNs (one tick of the trace: 1 ns, or less for a Paje trace read finer).
TickPlan planTicks(double startNs, double endNs, int maxTicks, double minStepNs = 1.0);
// "12.5 ms" in the plan's unit and decimals; exactly "0" for zero.
std::string formatTick(double ns, const TickPlan& plan);
// A stretch of the time axis (ns, not necessarily whole) in the tracer's duration format
// (tracer::formatDuration): "87.1 us", "1.204 s"; whole nanoseconds below 1 us ("7 ns"),
// fractions only when the value has them ("14.500 ns", "300.0 ps").
// A point in time to its last digit, in the unit of its magnitude, decimals grouped by three:
// "1.780 123 456 s", "52.000 017 ms". Two tasks 223 us apart at 1.78 s both read "1.780 s" in
// the duration format; a task's details tell them apart. resolutionNs: one tick of the trace
// (below 1 for a Paje trace read finer than ns, whose extra digits are then given too).
std::string formatInstant(double ns, double resolutionNs = 1.0);
inline std::string formatDuration(double ns) { return tracer::formatDurationNs(ns, ns != std::round(ns)); }

} // namespace starscope::viewer
