// Arrows between (time, row) points: drawn in their colour where the axes put them, a head at
// the "to" end, cut to the plot when their ends lie far outside it, and found again by a
// click on an end or on the shaft.

#include "tests/viewer/qt_test_environment.hpp"
#include "viewer/gui/chart/link_plottable.hpp"

#include <gtest/gtest.h>

#include <QImage>

#include <cmath>
#include <memory>

using namespace starscope::viewer;

namespace {

constexpr int kWidth = 800;
constexpr int kHeight = 400;
const QColor kBlue(20, 60, 230);
const QColor kOrange(240, 130, 0);

struct Plot {
    std::unique_ptr<QCustomPlot> plot = std::make_unique<QCustomPlot>();
    LinkPlottable* links = new LinkPlottable(plot->xAxis, plot->yAxis);

    Plot() {
        plot->resize(kWidth, kHeight);
        plot->xAxis->setRange(0.0, 1000.0);
        plot->yAxis->setRange(-0.5, 3.5);
        plot->yAxis->setRangeReversed(true);
    }
    QImage picture() {
        plot->replot(QCustomPlot::rpImmediateRefresh);
        return plot->toPixmap(kWidth, kHeight, 1.0).toImage();
    }
    QPointF at(double time, double row) const {
        return {plot->xAxis->coordToPixel(time), plot->yAxis->coordToPixel(row)};
    }
};

bool near(const QColor& actual, const QColor& expected, int tolerance = 40) {
    return std::abs(actual.red() - expected.red()) <= tolerance && std::abs(actual.green() - expected.green()) <= tolerance
           && std::abs(actual.blue() - expected.blue()) <= tolerance;
}

// Pixels of colour within a few pixels of p (lines are antialiased).
bool colourAround(const QImage& image, const QPointF& p, const QColor& colour, int radius = 2) {
    for (int dy = -radius; dy <= radius; ++dy) {
        for (int dx = -radius; dx <= radius; ++dx) {
            const int x = static_cast<int>(std::lround(p.x())) + dx;
            const int y = static_cast<int>(std::lround(p.y())) + dy;
            if (image.rect().contains(x, y) && near(image.pixelColor(x, y), colour)) {
                return true;
            }
        }
    }
    return false;
}

int countColour(const QImage& image, const QColor& colour) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            count += near(image.pixelColor(x, y), colour, 20) ? 1 : 0;
        }
    }
    return count;
}

} // namespace

TEST(LinkGeometry, DistanceToASegmentIsToItsNearestPoint) {
    EXPECT_DOUBLE_EQ(distanceToSegment({5, 3}, {0, 0}, {10, 0}), 3.0);
    EXPECT_DOUBLE_EQ(distanceToSegment({-3, 4}, {0, 0}, {10, 0}), 5.0);    // beyond the start
    EXPECT_DOUBLE_EQ(distanceToSegment({13, -4}, {0, 0}, {10, 0}), 5.0);   // beyond the end
    EXPECT_DOUBLE_EQ(distanceToSegment({3, 4}, {0, 0}, {0, 0}), 5.0);      // a point
}

TEST(LinkPlottable, DrawsEachLinkInItsColourBetweenItsEnds) {
    Plot p;
    p.links->setLinks({{100.0, 0.0, 500.0, 2.0, kBlue}, {600.0, 3.0, 900.0, 1.0, kOrange}});
    const QImage image = p.picture();
    for (const double share : {0.25, 0.5, 0.75}) {
        EXPECT_TRUE(colourAround(image, p.at(100.0 + 400.0 * share, 2.0 * share), kBlue)) << share;
        EXPECT_TRUE(colourAround(image, p.at(600.0 + 300.0 * share, 3.0 - 2.0 * share), kOrange)) << share;
    }
    // Nothing between the two links, nor above the first.
    EXPECT_FALSE(colourAround(image, p.at(550.0, 0.5), kBlue, 4));
    EXPECT_FALSE(colourAround(image, p.at(300.0, 3.0), kBlue, 4));
    // The head: a filled triangle at the "to" end, more colour around its middle than around
    // the middle of the shaft.
    const auto blueAround = [&](QPointF centre) {
        int n = 0;
        for (int dy = -6; dy <= 6; ++dy) {
            for (int dx = -6; dx <= 6; ++dx) {
                n += near(image.pixelColor(static_cast<int>(centre.x()) + dx, static_cast<int>(centre.y()) + dy), kBlue, 20);
            }
        }
        return n;
    };
    const QPointF tip = p.at(500.0, 2.0);
    const QPointF tail = p.at(100.0, 0.0);
    const double length = std::hypot(tip.x() - tail.x(), tip.y() - tail.y());
    const QPointF headMiddle = tip + (tail - tip) * (7.0 / length);
    EXPECT_GT(blueAround(headMiddle), blueAround((tip + tail) / 2.0) + 10);

    p.links->clearLinks();
    EXPECT_EQ(countColour(p.picture(), kBlue), 0);
}

TEST(LinkPlottable, LinksWhoseEndsAreFarOutsideThePlotAreCutToIt) {
    Plot p;
    // Zoomed in a million times on [500, 500.001]: both ends lie hundreds of millions of
    // pixels away, the shaft crosses the plot.
    p.plot->xAxis->setRange(500.0, 500.001);
    p.links->setLinks({{0.0, 0.0, 1000.0, 3.0, kBlue}});
    const QImage image = p.picture();
    EXPECT_TRUE(colourAround(image, p.at(500.0005, 1.5), kBlue, 3));
    EXPECT_GT(countColour(image, kBlue), 20);

    // Entirely outside (left of the window): nothing drawn.
    p.links->setLinks({{0.0, 0.0, 400.0, 3.0, kBlue}});
    EXPECT_EQ(countColour(p.picture(), kBlue), 0);
}

TEST(LinkPlottable, HitTestFindsTheEndOrTheShaftUnderTheCursor) {
    Plot p;
    p.links->setLinks({{100.0, 0.0, 500.0, 2.0, kBlue}, {100.0, 3.0, 500.0, 3.0, kOrange}});
    p.picture();
    const auto atTo = p.links->hitTest(p.at(500.0, 2.0) + QPointF(2, 1));
    ASSERT_TRUE(atTo);
    EXPECT_EQ(atTo->link, 0u);
    EXPECT_EQ(atTo->part, LinkPart::To);
    const auto atFrom = p.links->hitTest(p.at(100.0, 3.0) + QPointF(-1, 3));
    ASSERT_TRUE(atFrom);
    EXPECT_EQ(atFrom->link, 1u);
    EXPECT_EQ(atFrom->part, LinkPart::From);
    const auto onShaft = p.links->hitTest(p.at(300.0, 3.0) + QPointF(0, 4));
    ASSERT_TRUE(onShaft);
    EXPECT_EQ(onShaft->link, 1u);
    EXPECT_EQ(onShaft->part, LinkPart::Shaft);
    EXPECT_NEAR(onShaft->distancePx, 4.0, 0.5);
    EXPECT_FALSE(p.links->hitTest(p.at(300.0, 2.5)));
    EXPECT_FALSE(p.links->hitTest(p.at(300.0, 3.0) + QPointF(0, 10), 6.0));
    EXPECT_TRUE(p.links->hitTest(p.at(300.0, 3.0) + QPointF(0, 10), 12.0));
}
