#pragma once
// starscope's one duration format for people: the CLI's tables, the run figures, the barriers'
// causes and the viewer all print durations through it. Presentation, apart from the analysis,
// which returns times as numbers.

#include "tracer/model/time_unit.hpp"

#include <cstdint>
#include <string>

namespace starscope::tracer {

// Human-readable duration of trace ticks: "12.345 ms", "87.1 us", "1.204 s", "300.0 ps" (below a
// nanosecond only for traces whose unit is finer: pass ticksPerSecond(trace), time_unit.hpp).
std::string formatDuration(TimeNs ticks, std::int64_t ticksPerSecond = kNsPerSecond);
// The same format for nanoseconds that need not be whole ticks (a stretch of the viewer's time
// axis): below 1 us, whole nanoseconds ("7 ns") unless subNanosecond ("7.000 ns", "300.0 ps").
std::string formatDurationNs(double ns, bool subNanosecond);

} // namespace starscope::tracer
