#pragma once
// Idleness, the one formula behind every idleness starscope shows (the summary's, its value
// without the trace flushes, each kind of worker's, each worker's share the viewer labels lanes
// with): 1 - executing / capacity over a window, the capacity being the lanes' time there less
// what of it was not recorded. Written once so that the figures add up to each other.

#include "tracer/model/time_unit.hpp"

#include <cstddef>
#include <optional>

namespace starscope::tracer {

// executing: the lanes' executing time; window: the window's length (the makespan's, or less);
// lanes: how many lanes share it; unrecorded: their time in the window whose activity was not
// recorded (no capacity anyone could have used or wasted). None when no capacity is left:
// time that is unknown is neither idle nor busy.
std::optional<double> idleness(TimeNs executing, TimeNs window, std::size_t lanes,
                               TimeNs unrecorded);

} // namespace starscope::tracer
