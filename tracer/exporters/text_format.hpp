#pragma once
// Formatting shared by the text exporters: exact decimals of integer ticks and span labels.

#include "tracer/model/trace.hpp"

#include <cstdint>
#include <string>

namespace starscope::tracer::detail {

inline constexpr std::int64_t kMsPerSecond = 1'000;
inline constexpr std::int64_t kUsPerSecond = 1'000'000;

// Exact decimal of trace ticks in another unit (unitsPerSecond: 1e3 for ms, 1e6 for us, 1e9
// for ns), no float rounding: as many decimals as the trace's unit has below it (time_unit.hpp).
std::string fixed(TimeNs ticks, std::int64_t ticksPerSecond, std::int64_t unitsPerSecond);

// The codelet name of a task, empty when none.
std::string codeletOf(const Trace& trace, const Task* task);
// Name shown for a span: a running task shows its codelet, as in starpu_fxt_tool's output.
std::string spanLabel(const Trace& trace, const Lane& lane, const Span& span);

} // namespace starscope::tracer::detail
