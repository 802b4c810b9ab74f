// Folded columns stacked by state share: heights that add up to the row, shares kept to
// within a pixel, a fixed top-to-bottom order (work on top, sleeping at the bottom), the
// uncovered part of a fold left to the background.

#include "viewer/core/drawing/state_stack.hpp"

#include <gtest/gtest.h>

#include <numeric>

using namespace starscope::viewer;
using starscope::tracer::StateClass;
using starscope::tracer::TimeNs;
using starscope::tracer::Trace;

namespace {

// States interleaved on purpose: the stack orders them by class, not by id.
Trace traceWithStates() {
    Trace trace;
    trace.stateId("Sleeping", StateClass::Sleeping);       // 0
    trace.stateId("Scheduling", StateClass::Overhead);     // 1
    trace.stateId("Executing", StateClass::Executing);     // 2
    trace.stateId("Submitting", StateClass::User);         // 3
    trace.stateId("Not profiled", StateClass::NotProfiled);// 4
    return trace;
}

int total(const std::vector<StackBand>& bands) {
    return std::accumulate(bands.begin(), bands.end(), 0, [](int sum, const StackBand& b) { return sum + b.pixels; });
}

} // namespace

TEST(StateStack, OrderIsWorkThenRuntimeThenMainThreadThenNotProfiledThenSleeping) {
    const Trace trace = traceWithStates();
    const StateStack stack(trace, Palette(trace));
    EXPECT_EQ(stack.order(), (std::vector<std::uint32_t>{2, 1, 3, 4, 0}));
}

TEST(StateStack, ThirtyPercentSleepingIsThirtyPercentOfTheHeightAtTheBottom) {
    const Trace trace = traceWithStates();
    const Palette palette(trace);
    const StateStack stack(trace, palette);
    std::vector<StackBand> bands;
    const std::vector<TimeNs> times{300, 0, 700, 0, 0};
    stack.stack(times.data(), 1000, 20, bands);
    ASSERT_EQ(bands.size(), 2u);
    EXPECT_EQ(bands[0], (StackBand{palette.stateColour(2), 14, false}));
    EXPECT_EQ(bands[1], (StackBand{kSleepingRed, 6, false}));
}

TEST(StateStack, HeightsAddUpAndEachShareIsWithinOnePixel) {
    const Trace trace = traceWithStates();
    const StateStack stack(trace, Palette(trace));
    std::vector<StackBand> bands;
    for (const int height : {1, 2, 7, 13, 20, 41}) {
        for (TimeNs a = 0; a <= 90; a += 9) {
            const std::vector<TimeNs> times{a, 100 - a, 37, 5, 11};
            const TimeNs covered = 153;
            stack.stack(times.data(), covered, height, bands);
            EXPECT_EQ(total(bands), height) << "height " << height << " a " << a;
            // Sleeping is the last band whenever it got a pixel; its height is its share.
            const double exact = static_cast<double>(a) * height / static_cast<double>(covered);
            const int sleeping = !bands.empty() && bands.back().colour == kSleepingRed ? bands.back().pixels : 0;
            EXPECT_LE(std::abs(sleeping - exact), 1.0) << "height " << height << " a " << a;
        }
    }
}

TEST(StateStack, TimeNoSpanCoversIsAnEmptyBandOnTop) {
    const Trace trace = traceWithStates();
    const Palette palette(trace);
    const StateStack stack(trace, palette);
    std::vector<StackBand> bands;
    const std::vector<TimeNs> times{0, 0, 250, 0, 0};
    stack.stack(times.data(), 1000, 8, bands);   // a quarter of the fold's time is covered
    ASSERT_EQ(bands.size(), 2u);
    EXPECT_TRUE(bands[0].empty);
    EXPECT_EQ(bands[0].pixels, 6);
    EXPECT_EQ(bands[1], (StackBand{palette.stateColour(2), 2, false}));
}

TEST(StateStack, ZeroLengthSpansOnlyGiveOneNeutralBand) {
    const Trace trace = traceWithStates();
    const Palette palette(trace);
    const StateStack stack(trace, palette);
    std::vector<StackBand> bands;
    const std::vector<TimeNs> times(5, 0);
    stack.stack(times.data(), 0, 10, bands);
    ASSERT_EQ(bands.size(), 1u);
    EXPECT_EQ(bands[0].pixels, 10);
    EXPECT_FALSE(bands[0].empty);
    EXPECT_EQ(bands[0].colour, palette.blend(times.data()));
    stack.stack(times.data(), 0, 0, bands);
    EXPECT_TRUE(bands.empty());
}
