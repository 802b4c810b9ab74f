// starscope's one duration format, as the CLI, the run figures and the viewer print durations.

#include "tracer/report/duration_format.hpp"

#include <gtest/gtest.h>

namespace starscope::tracer {
namespace {

TEST(DurationFormat, FormatDuration) {
    EXPECT_EQ(formatDuration(999), "999 ns");
    EXPECT_EQ(formatDuration(87'100), "87.1 us");
    EXPECT_EQ(formatDuration(12'345'678), "12.346 ms");
    EXPECT_EQ(formatDuration(1'204'000'000), "1.204 s");
}

TEST(DurationFormat, BelowANanosecondOnlyForTracesOfAFinerUnit) {
    // 300 ticks of a trace in picoseconds.
    EXPECT_EQ(formatDuration(300, 1'000'000'000'000), "300.0 ps");
    EXPECT_EQ(formatDurationNs(7.0, false), "7 ns");
    EXPECT_EQ(formatDurationNs(7.0, true), "7.000 ns");
}

} // namespace
} // namespace starscope::tracer
