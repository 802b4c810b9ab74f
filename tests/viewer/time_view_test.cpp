#include "viewer/core/layout/time_view.hpp"

#include <gtest/gtest.h>

using starscope::viewer::TimeView;
using starscope::viewer::wheelZoomFactor;

namespace {

constexpr double kTol = 1e-6;

TimeView view(double start, double end, double left = 10.0, double width = 1000.0) {
    return TimeView{start, end, left, width};
}

} // namespace

TEST(TimeView, MapsTimeToPixelAndBack) {
    const auto v = view(1'000.0, 11'000.0);
    EXPECT_NEAR(v.nsPerPixel(), 10.0, kTol);
    EXPECT_NEAR(v.toPixel(1'000.0), 10.0, kTol);
    EXPECT_NEAR(v.toPixel(11'000.0), 1010.0, kTol);
    EXPECT_NEAR(v.toPixel(6'000.0), 510.0, kTol);
    for (double px : {0.0, 10.0, 333.3, 1010.0, 2000.0}) {
        EXPECT_NEAR(v.toPixel(v.toTime(px)), px, kTol);
    }
}

TEST(TimeView, ZoomKeepsTheTimeUnderTheCursor) {
    const auto v = view(0.0, 1e9);
    const double px = 260.0;
    const double anchor = v.toTime(px);
    const auto in = v.zoomedAround(px, 4.0);
    EXPECT_NEAR(in.durationNs(), 0.25e9, 1e-3);
    EXPECT_NEAR(in.toTime(px), anchor, 1e-3);
    const auto out = in.zoomedAround(px, 0.25);
    EXPECT_NEAR(out.startNs, v.startNs, 1e-3);
    EXPECT_NEAR(out.endNs, v.endNs, 1e-3);
}

TEST(TimeView, DeepZoomOnLateTimesStaysPrecise) {
    // 100 s into a trace, a 100 ns window: doubles must still resolve single nanoseconds.
    auto v = view(0.0, 100e9, 0.0, 1600.0);
    for (int i = 0; i < 40; ++i) {
        v = v.zoomedAround(1500.0, 2.0);
    }
    EXPECT_LT(v.durationNs(), 100.0);
    EXPECT_NEAR(v.toTime(v.toPixel(v.startNs + 37.0)), v.startNs + 37.0, 1e-3);
}

TEST(TimeView, PanMovesByPixels) {
    const auto v = view(0.0, 1'000.0);
    const auto p = v.pannedBy(100.0);
    EXPECT_NEAR(p.startNs, 100.0, kTol);
    EXPECT_NEAR(p.endNs, 1'100.0, kTol);
    const auto back = p.pannedBy(-100.0);
    EXPECT_NEAR(back.startNs, 0.0, kTol);
}

TEST(TimeView, ShowingOrdersAndWidensEmptyRanges) {
    const auto v = view(0.0, 1.0).showing(500.0, 200.0);
    EXPECT_NEAR(v.startNs, 200.0, kTol);
    EXPECT_NEAR(v.endNs, 500.0, kTol);
    const auto point = v.showing(300.0, 300.0, 10.0);
    EXPECT_NEAR(point.startNs, 295.0, kTol);
    EXPECT_NEAR(point.endNs, 305.0, kTol);
}

TEST(TimeView, ClampKeepsTheWindowInsideTheTrace) {
    const auto left = view(-500.0, 500.0).clampedTo(0.0, 10'000.0);
    EXPECT_NEAR(left.startNs, 0.0, kTol);
    EXPECT_NEAR(left.endNs, 1'000.0, kTol);
    const auto right = view(9'800.0, 10'800.0).clampedTo(0.0, 10'000.0);
    EXPECT_NEAR(right.startNs, 9'000.0, kTol);
    EXPECT_NEAR(right.endNs, 10'000.0, kTol);
    const auto wide = view(-1e6, 1e6).clampedTo(0.0, 10'000.0, 1.0, 100.0);
    EXPECT_NEAR(wide.startNs, -100.0, kTol);
    EXPECT_NEAR(wide.endNs, 10'100.0, kTol);
    const auto tiny = view(5'000.0, 5'000.1).clampedTo(0.0, 10'000.0, 10.0);
    EXPECT_NEAR(tiny.durationNs(), 10.0, kTol);
    EXPECT_NEAR(tiny.startNs, 4'995.05, 1e-3);
}

TEST(TimeView, WheelNotchesCompose) {
    EXPECT_NEAR(wheelZoomFactor(120.0), 1.25, kTol);
    EXPECT_NEAR(wheelZoomFactor(-120.0), 0.8, kTol);
    EXPECT_NEAR(wheelZoomFactor(240.0), wheelZoomFactor(120.0) * wheelZoomFactor(120.0), kTol);
    EXPECT_NEAR(wheelZoomFactor(0.0), 1.0, kTol);
}
