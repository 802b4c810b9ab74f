// The marker grammar both the runtime (writer) and the tracer (reader) rely on.

#include "common/markers.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace markers = starscope::markers;

TEST(Markers, FormatWritesOnlyTheFieldsThatApply) {
    markers::Marker batch{markers::Kind::BatchBegin, 0, 3, 1, -1, {}};
    EXPECT_EQ(markers::format(batch), "ss1:batch_begin epoch=0 batch=3 slot=1");
    markers::Marker reset{markers::Kind::ResetWaitEnd, -1, -1, -1, 42, "batch0"};
    EXPECT_EQ(markers::format(reset), "ss1:reset_wait_end handles=42 arena=batch0");
}

TEST(Markers, EveryKindRoundTrips) {
    for (int k = 0; k <= static_cast<int>(markers::Kind::PrefetchEnd); ++k) {
        markers::Marker marker{static_cast<markers::Kind>(k), 2, 7, 0, 10, "loader1"};
        const auto parsed = markers::parse(markers::format(marker));
        ASSERT_EQ(parsed.status, markers::ParseStatus::Ok) << markers::format(marker);
        EXPECT_EQ(parsed.marker, marker);
    }
}

TEST(Markers, OtherUserEventsAreNotMarkers) {
    EXPECT_EQ(markers::parse("fxt flush").status, markers::ParseStatus::NotAMarker);
    EXPECT_EQ(markers::parse("start_profiling").status, markers::ParseStatus::NotAMarker);
    EXPECT_EQ(markers::parse("ssx:batch_begin").status, markers::ParseStatus::NotAMarker);
    EXPECT_EQ(markers::parse("").status, markers::ParseStatus::NotAMarker);
}

TEST(Markers, ANewerGrammarIsRefusedNotMisread) {
    EXPECT_EQ(markers::parse("ss2:batch_begin epoch=0").status, markers::ParseStatus::TooNew);
}

TEST(Markers, DamagedMarkersAreMalformed) {
    EXPECT_EQ(markers::parse("ss1:no_such_kind").status, markers::ParseStatus::Malformed);
    EXPECT_EQ(markers::parse("ss1:batch_begin epoch=").status, markers::ParseStatus::Malformed);
    EXPECT_EQ(markers::parse("ss1:batch_begin epoch=x").status, markers::ParseStatus::Malformed);
    EXPECT_EQ(markers::parse("ss1:batch_begin epoch=-1").status, markers::ParseStatus::Malformed);
    EXPECT_EQ(markers::parse("ss1:batch_begin =3").status, markers::ParseStatus::Malformed);
}

TEST(Markers, UnknownKeysOfTheSameVersionAreSkipped) {
    const auto parsed = markers::parse("ss1:batch_end epoch=1 batch=2 color=blue");
    ASSERT_EQ(parsed.status, markers::ParseStatus::Ok);
    EXPECT_EQ(parsed.marker.epoch, 1);
    EXPECT_EQ(parsed.marker.batch, 2);
}

// A reader keeps a marker's text only when format() would not give it back: formatsAs answers
// that without formatting, for texts as recorded and texts written otherwise.
TEST(Markers, FormatsAsTellsWhatFormatWouldWrite) {
    const std::vector<markers::Marker> all = {
        {markers::Kind::BatchBegin, 0, 3, 1, -1, {}},
        {markers::Kind::ResetWaitEnd, -1, -1, -1, 42, "batch0"},
        {markers::Kind::PrefetchEnd, 12, 345, 0, 1234567890123, "loader1"},
        {markers::Kind::LoadBegin, -1, -1, -1, -1, {}},
    };
    const std::vector<std::string> texts = {
        "ss1:batch_begin epoch=0 batch=3 slot=1", "ss1:batch_begin batch=3 epoch=0 slot=1",
        "ss1:batch_begin epoch=00 batch=3 slot=1", "ss1:batch_begin epoch=0 batch=3 slot=1 ",
        "ss1:batch_begin epoch=0 batch=3", "ss1:batch_begin epoch=0 batch=3 slot=1 color=blue",
        "ss1:reset_wait_end handles=42 arena=batch0", "ss1:reset_wait_end handles=42 arena=batch",
        "ss1:reset_wait_end handles=42 arena=batch01", "ss1:load_begin", "ss1:load_begin ", "ss01:load_begin",
        "ss1:prefetch_end epoch=12 batch=345 slot=0 handles=1234567890123 arena=loader1", "",
    };
    for (const auto& marker : all) {
        for (const auto& text : texts) {
            EXPECT_EQ(markers::formatsAs(marker, text), markers::format(marker) == text) << text;
        }
        EXPECT_TRUE(markers::formatsAs(marker, markers::format(marker)));
    }
}
