// Labels on one line: kept in the order offered where they fit, never overlapping (with the
// gap), never past the line's ends; blocked() agrees with place().

#include "viewer/core/layout/label_layout.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace starscope::viewer;

TEST(LabelLine, KeepsTheFirstOfOverlappingLabelsAndTheGapBetweenThem) {
    LabelLine line(0.0, 100.0, 4.0);
    EXPECT_TRUE(line.place({40.0, 60.0}));
    EXPECT_FALSE(line.place({50.0, 70.0}));    // overlaps
    EXPECT_FALSE(line.place({62.0, 80.0}));    // clear but within the gap
    EXPECT_TRUE(line.place({64.0, 80.0}));
    EXPECT_FALSE(line.place({20.0, 37.0}));    // within the gap on the left
    EXPECT_TRUE(line.place({20.0, 36.0}));
    EXPECT_FALSE(line.place({90.0, 101.0}));   // past the end
    EXPECT_FALSE(line.place({-1.0, 10.0}));    // before the start
    EXPECT_EQ(line.boxes(), (std::vector<LabelBox>{{20.0, 36.0}, {40.0, 60.0}, {64.0, 80.0}}));
}

TEST(LabelLine, BlockedAnchorsCannotBePlaced) {
    LabelLine line(10.0, 200.0, 5.0);
    ASSERT_TRUE(line.place({50.0, 80.0}));
    EXPECT_TRUE(line.blocked(5.0));
    EXPECT_TRUE(line.blocked(201.0));
    EXPECT_TRUE(line.blocked(50.0));
    EXPECT_TRUE(line.blocked(84.0));    // in the gap after the label
    EXPECT_FALSE(line.blocked(85.0));
    EXPECT_FALSE(line.blocked(30.0));
}

TEST(LabelLine, ManyRandomLabelsNeverOverlap) {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> anchor(0.0, 1000.0);
    std::uniform_real_distribution<double> width(10.0, 60.0);
    LabelLine line(0.0, 1000.0, 3.0);
    int kept = 0;
    for (int i = 0; i < 2000; ++i) {
        const double a = anchor(random);
        const double w = width(random);
        const LabelBox box{a - w / 2.0, a + w / 2.0};
        const bool wasBlocked = line.blocked(a);
        const bool placed = line.place(box);
        EXPECT_FALSE(wasBlocked && placed) << "blocked() said no but place() kept it";
        kept += placed ? 1 : 0;
    }
    const auto& boxes = line.boxes();
    EXPECT_EQ(static_cast<int>(boxes.size()), kept);
    EXPECT_GT(kept, 10);
    for (std::size_t i = 1; i < boxes.size(); ++i) {
        EXPECT_GE(boxes[i].left, boxes[i - 1].right + 3.0) << i;
    }
}
