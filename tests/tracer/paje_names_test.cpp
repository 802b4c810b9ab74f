// The Paje reader's name interning and its event-definition lookup by small numbers.

#include "tests/support/test_support.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/readers/paje/paje_names.hpp"
#include "tracer/readers/read_trace.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <string>

namespace starscope::tracer {
namespace {

using detail::paje::NameIds;
using starscope::testing::TempDir;

TEST(PajeNameIds, DenseIdsInOrderOfFirstUse) {
    NameIds ids;
    EXPECT_EQ(ids.intern("WS"), 0U);
    EXPECT_EQ(ids.intern("CPU0"), 1U);
    EXPECT_EQ(ids.intern("WS"), 0U);
    EXPECT_EQ(ids.intern(""), 2U);
    EXPECT_EQ(ids.intern(std::string_view("a\0b", 3)), 3U); // a NUL inside is part of the name
    EXPECT_EQ(ids.intern("a"), 4U);
    EXPECT_EQ(ids.size(), 5U);
    EXPECT_EQ(ids[1], "CPU0");
    EXPECT_EQ(ids[3], std::string("a\0b", 3));
}

TEST(PajeNameIds, IdsSurviveTheTableGrowing) {
    NameIds ids;
    constexpr std::uint32_t kNames = 20'000; // many doublings of the slot table
    for (std::uint32_t i = 0; i < kNames; ++i) {
        ASSERT_EQ(ids.intern("name " + std::to_string(i)), i);
    }
    for (std::uint32_t i = 0; i < kNames; i += 997) {
        EXPECT_EQ(ids.intern("name " + std::to_string(i)), i);
        EXPECT_EQ(ids[i], "name " + std::to_string(i));
    }
    EXPECT_EQ(ids.size(), kNames);
}

// Event ids are strings: "7" and "07" are two definitions, even though "7" is found by value.
TEST(PajeEventIds, NumbersWithALeadingZeroAreOtherIds) {
    TempDir dir;
    const auto path = dir / "ids.trace";
    // The export's definitions (7 creates a container), and three more.
    std::ofstream(path, std::ios::binary) << pajeEventDefinitions() << R"(%EventDef PajeSetState 07
% Time date
% Container string
% Type string
% Value string
%EndEventDef
%EventDef PajeSetVariable 99
% Time date
% Container string
% Type string
% Value double
%EndEventDef
%EventDef PajeSetState x7
% Time date
% Container string
% Type string
% Value string
%EndEventDef
1 P 0 "Program"
1 W P "Worker"
3 S W "State"
7 0 p P 0 "program"
7 0 w0 W p "CPU0"
07 1.0 w0 S Sleeping
99 2.0 w0 S 4
x7 3.0 w0 S Sleeping
99 5.0 w0 S 4
)";
    const auto trace = readTrace(path);
    ASSERT_TRUE(trace) << trace.error().describe();
    ASSERT_EQ(trace->lanes.size(), 1U);
    EXPECT_EQ(trace->lanes[0].name, "CPU 0");
    // Both state lines read (a creation read as a state would fail on its fields), and the last
    // variable line ends the trace: its time counts though the variable is only counted.
    ASSERT_EQ(trace->lanes[0].spans().size(), 2U);
    EXPECT_EQ(trace->lanes[0].spans()[0].start, 1'000'000);
    EXPECT_EQ(trace->lanes[0].spans()[1].start, 3'000'000);
    EXPECT_EQ(trace->end, 5'000'000);
    EXPECT_EQ(trace->metadata.at("paje.variable_events"), "2");
}

TEST(PajeEventIds, AnUndefinedSmallNumberIsRefused) {
    TempDir dir;
    const auto path = dir / "undefined.trace";
    std::ofstream(path, std::ios::binary)
        << "%EventDef PajeDefineContainerType 1\n% Alias string\n% Type string\n"
           "% Name string\n%EndEventDef\n1 P 0 \"Program\"\n5 1.0 x y\n";
    const auto trace = readTrace(path);
    ASSERT_FALSE(trace);
    EXPECT_NE(trace.error().message.find("event id \"5\" has no %EventDef"), std::string::npos)
        << trace.error().describe();
}

} // namespace
} // namespace starscope::tracer
