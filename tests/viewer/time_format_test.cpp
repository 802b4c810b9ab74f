#include "viewer/core/format/time_format.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <set>
#include <string>

using namespace starscope::viewer;

TEST(TimeFormat, UnitFollowsMagnitude) {
    EXPECT_EQ(unitFor(999.0), TimeUnit::Ns);
    EXPECT_EQ(unitFor(1'000.0), TimeUnit::Us);
    EXPECT_EQ(unitFor(2.5e6), TimeUnit::Ms);
    EXPECT_EQ(unitFor(3e9), TimeUnit::S);
    EXPECT_EQ(unitFor(-3e9), TimeUnit::S);
}

TEST(TimeFormat, StepsAreOneTwoFiveAndNeverTooMany) {
    for (double range : {7.0, 95.0, 1234.0, 5e5, 3.3e7, 8e9, 1.7e11}) {
        const auto plan = planTicks(0.0, range, 8);
        const double mantissa = plan.stepNs / std::pow(10.0, std::floor(std::log10(plan.stepNs)));
        EXPECT_TRUE(std::abs(mantissa - 1.0) < 1e-9 || std::abs(mantissa - 2.0) < 1e-9
                    || std::abs(mantissa - 5.0) < 1e-9)
            << range << " -> " << plan.stepNs;
        EXPECT_LE(range / plan.stepNs, 8.0 + 1e-9) << range;
        EXPECT_GT(range / plan.stepNs, 8.0 / 5.0 - 1e-9) << range;
    }
    EXPECT_DOUBLE_EQ(planTicks(0.0, 3.0, 10).stepNs, 1.0);
}

TEST(TimeFormat, LabelsUseTheUnitOfTheWindow) {
    const auto ms = planTicks(0.0, 10e6, 5);
    EXPECT_EQ(ms.unit, TimeUnit::Ms);
    EXPECT_EQ(formatTick(0.0, ms), "0");
    EXPECT_EQ(formatTick(2e6, ms), "2 ms");
    const auto us = planTicks(0.0, 50e3, 5);
    EXPECT_EQ(formatTick(20e3, us), "20 us");
    const auto ns = planTicks(100.0, 180.0, 4);
    EXPECT_EQ(formatTick(120.0, ns), "120 ns");
    const auto s = planTicks(0.0, 12e9, 6);
    EXPECT_EQ(formatTick(4e9, s), "4 s");
}

TEST(TimeFormat, DeepZoomLabelsStayDistinct) {
    // A 10 us window 5 s into the trace: the labels need microsecond decimals of seconds.
    const double start = 5e9;
    const auto plan = planTicks(start, start + 10e3, 5);
    EXPECT_EQ(plan.unit, TimeUnit::S);
    std::set<std::string> labels;
    for (double t = start; t <= start + 10e3; t += plan.stepNs) {
        labels.insert(formatTick(t, plan));
    }
    EXPECT_EQ(labels.size(), static_cast<std::size_t>(std::floor(10e3 / plan.stepNs)) + 1);
    EXPECT_EQ(formatTick(start + 2e3, plan), "5.000002 s");
}

// The viewer prints durations as the CLI does: the tracer's one formatter.
TEST(TimeFormat, DurationsAreTheTracersFormat) {
    EXPECT_EQ(formatDuration(850.0), "850 ns");
    EXPECT_EQ(formatDuration(87'100.0), "87.1 us");
    EXPECT_EQ(formatDuration(1.204e9), "1.204 s");
    EXPECT_EQ(formatDuration(412.5e6), "412.500 ms");
    for (const starscope::tracer::TimeNs ns : std::initializer_list<starscope::tracer::TimeNs>{7, 999, 87'100, 12'345'678, 1'204'000'000}) {
        EXPECT_EQ(formatDuration(static_cast<double>(ns)), starscope::tracer::formatDuration(ns)) << ns;
    }
}

// A Paje trace read finer than nanoseconds (ticks of 0.1 ps): sub-nanosecond steps and durations.
TEST(TimeFormat, SubNanosecondTicks) {
    EXPECT_EQ(formatDuration(0.3), "300.0 ps");
    EXPECT_EQ(formatDuration(14.5), "14.500 ns");
    // As the CLI prints a Paje trace read at 0.1 ps.
    EXPECT_EQ(formatDuration(0.3), starscope::tracer::formatDuration(3'000, 10'000'000'000'000));
    EXPECT_EQ(formatDuration(14.5), starscope::tracer::formatDuration(145'000, 10'000'000'000'000));
    const auto plan = planTicks(0.0, 5.0, 5, 1e-4);
    EXPECT_DOUBLE_EQ(plan.stepNs, 1.0);
    const auto fine = planTicks(0.0, 0.5, 5, 1e-4);
    EXPECT_NEAR(fine.stepNs, 0.1, 1e-12);
    EXPECT_EQ(formatTick(0.3, fine), "0.3 ns");
    // Never closer than one tick of the trace.
    EXPECT_DOUBLE_EQ(planTicks(0.0, 1e-4, 8, 1e-4).stepNs, 1e-4);
}

// Details give points in time to the tick: a 223 us task at 1.78 s used to start and end at
// "1.780 s" both.
TEST(TimeFormat, InstantsKeepEveryDigitOfTheirTick) {
    EXPECT_EQ(formatInstant(1'780'123'456.0), "1.780 123 456 s");
    EXPECT_EQ(formatInstant(1'780'346'456.0), "1.780 346 456 s");
    EXPECT_EQ(formatInstant(52'000'017.0), "52.000 017 ms");
    EXPECT_EQ(formatInstant(2'222.0), "2.222 us");
    EXPECT_EQ(formatInstant(7.0), "7 ns");
    EXPECT_EQ(formatInstant(-1'500'000.0), "-1.500 000 ms");
    // A Paje trace read at 0.1 ps: its ticks' digits too.
    EXPECT_EQ(formatInstant(14.5, 1e-4), "14.500 0 ns");
}
