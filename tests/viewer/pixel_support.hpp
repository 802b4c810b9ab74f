#pragma once
// Colour checks of rendered pictures, shared by the render tests.

#include "viewer/gui/chart/qt_support.hpp"

#include <gtest/gtest.h>

#include <QColor>

#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace starscope::viewer::testing {

// Source-over of a translucent colour on an opaque one.
inline Rgb over(Rgb below, const QColor& above) {
    const double a = above.alphaF();
    const auto mix = [a](int b, int t) { return static_cast<std::uint8_t>(std::lround(t * a + b * (1.0 - a))); };
    return {mix(below.r, above.red()), mix(below.g, above.green()), mix(below.b, above.blue())};
}

inline ::testing::AssertionResult near(Rgb actual, Rgb expected, int tolerance = 3) {
    if (std::abs(actual.r - expected.r) <= tolerance && std::abs(actual.g - expected.g) <= tolerance
        && std::abs(actual.b - expected.b) <= tolerance) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "pixel (" << int(actual.r) << "," << int(actual.g) << "," << int(actual.b)
                                         << ") expected (" << int(expected.r) << "," << int(expected.g) << ","
                                         << int(expected.b) << ")";
}

} // namespace starscope::viewer::testing
