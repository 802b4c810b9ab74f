#include "viewer/core/format/command_line.hpp"

#include <gtest/gtest.h>

using namespace starscope::viewer;

TEST(CommandLine, TimesTakeUnits) {
    EXPECT_DOUBLE_EQ(*parseTime("250", "--x"), 250.0);
    EXPECT_DOUBLE_EQ(*parseTime("250ns", "--x"), 250.0);
    EXPECT_DOUBLE_EQ(*parseTime("1.5us", "--x"), 1500.0);
    EXPECT_DOUBLE_EQ(*parseTime("2.5ms", "--x"), 2.5e6);
    EXPECT_DOUBLE_EQ(*parseTime("3s", "--x"), 3e9);
}

TEST(CommandLine, BadTimesNameTheFlagAndTheValue) {
    const auto bad = parseTime("12parsecs", "--threshold");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("--threshold"), std::string::npos);
    EXPECT_NE(bad.error().message.find("'12parsecs'"), std::string::npos);
    EXPECT_FALSE(parseTime("", "--x"));
    EXPECT_FALSE(parseTime("ms", "--x"));
    const auto negative = parseTime("-3ms", "--x");
    ASSERT_FALSE(negative);
    EXPECT_NE(negative.error().message.find("negative"), std::string::npos);
}

TEST(CommandLine, Ranges) {
    EXPECT_EQ(*parseRange("0:2.5ms", "--range"), (TimeRange{0.0, 2.5e6}));
    EXPECT_EQ(*parseRange("1s:1500ms", "--range"), (TimeRange{1e9, 1.5e9}));
    const auto reversed = parseRange("5ms:1ms", "--range");
    ASSERT_FALSE(reversed);
    EXPECT_NE(reversed.error().message.find("END must be after START"), std::string::npos);
    const auto noColon = parseRange("5ms", "--range");
    ASSERT_FALSE(noColon);
    EXPECT_NE(noColon.error().message.find("--range: '5ms'"), std::string::npos);
    EXPECT_FALSE(parseRange("1ms:xyz", "--range"));
}

TEST(CommandLine, Sizes) {
    EXPECT_EQ(*parseSize("1600x900", "--size"), (PixelSize{1600, 900}));
    EXPECT_FALSE(parseSize("1600", "--size"));
    EXPECT_FALSE(parseSize("x900", "--size"));
    EXPECT_FALSE(parseSize("16a0x900", "--size"));
    const auto tiny = parseSize("10x10", "--size");
    ASSERT_FALSE(tiny);
    EXPECT_NE(tiny.error().message.find("between 64 and 16384"), std::string::npos);
}

// --fold: kinds of lanes folded in every rank, and whole ranks; a mistake names the flag.
TEST(CommandLine, FoldNamesKindsOfLanesAndRanks) {
    using starscope::viewer::FoldRequest;
    using starscope::viewer::LaneGroup;
    const auto all = parseFold("all", "--fold");
    ASSERT_TRUE(all);
    EXPECT_EQ(all->kinds, (std::set<LaneGroup>{LaneGroup::CpuWorkers, LaneGroup::CudaWorkers, LaneGroup::OtherWorkers,
                                               LaneGroup::MemoryNodes}));
    const auto some = parseFold("CPU, memory,rank 1", "--fold");
    ASSERT_TRUE(some);
    EXPECT_EQ(*some, (FoldRequest{{LaneGroup::CpuWorkers, LaneGroup::MemoryNodes}, {1}}));
    for (const char* bad : {"", "gpu", "rank", "rank x", "rank -1"}) {
        const auto refused = parseFold(bad, "--fold");
        ASSERT_FALSE(refused) << bad;
        EXPECT_NE(refused.error().message.find("--fold"), std::string::npos);
    }
}
