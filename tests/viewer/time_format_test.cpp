#include "viewer/core/time_format.hpp"

#include <gtest/gtest.h>

#include <cmath>
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

TEST(TimeFormat, DurationsKeepThreeSignificantDecimals) {
    EXPECT_EQ(formatDuration(850.0), "850 ns");
    EXPECT_EQ(formatDuration(87'100.0), "87.10 us");
    EXPECT_EQ(formatDuration(1.204e9), "1.204 s");
    EXPECT_EQ(formatDuration(412.5e6), "412.5 ms");
}

// A Paje trace read finer than nanoseconds (ticks of 0.1 ps): sub-nanosecond steps and durations.
TEST(TimeFormat, SubNanosecondTicks) {
    EXPECT_EQ(formatDuration(0.3), "0.300 ns");
    EXPECT_EQ(formatDuration(14.5), "14.50 ns");
    const auto plan = planTicks(0.0, 5.0, 5, 1e-4);
    EXPECT_DOUBLE_EQ(plan.stepNs, 1.0);
    const auto fine = planTicks(0.0, 0.5, 5, 1e-4);
    EXPECT_NEAR(fine.stepNs, 0.1, 1e-12);
    EXPECT_EQ(formatTick(0.3, fine), "0.3 ns");
    // Never closer than one tick of the trace.
    EXPECT_DOUBLE_EQ(planTicks(0.0, 1e-4, 8, 1e-4).stepNs, 1e-4);
}
