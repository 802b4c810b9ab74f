// The Paje reader on starpu_fxt_tool's output and on hand-written traces of "other tools".

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace starscope::tracer {
namespace {

using namespace testing;
using starscope::testing::TempDir;

std::filesystem::path write(const TempDir& dir, const std::string& name, const std::string& text) {
    const auto path = dir / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// Arbitrary ids, extra fields, fields in another order, quoted strings with spaces.
constexpr const char* kHeader = R"(# written by some other tool
%EventDef PajeDefineContainerType 101
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineStateType 102
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineEntityValue 103
% Alias string
% Type string
% Name string
% Color color
%EndEventDef
%EventDef PajeDefineEventType 104
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineVariableType 105
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineLinkType 106
% Alias string
% Type string
% StartContainerType string
% EndContainerType string
% Name string
%EndEventDef
%EventDef PajeCreateContainer 107
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajeDestroyContainer 108
% Time date
% Name string
% Type string
%EndEventDef
%EventDef PajeSetState 110
% Container string
% Time date
% Type string
% Value string
% Comment string
%EndEventDef
%EventDef PajePushState 111
% Time date
% Container string
% Type string
% Value string
%EndEventDef
%EventDef PajePopState 112
% Time date
% Container string
% Type string
%EndEventDef
%EventDef PajeResetState 113
% Time date
% Container string
% Type string
%EndEventDef
%EventDef PajeNewEvent 109
% Time date
% Type string
% Container string
% Value string
%EndEventDef
%EventDef PajeSetVariable 120
% Time date
% Container string
% Type string
% Value double
%EndEventDef
%EventDef PajeStartLink 130
% Time date
% Container string
% Type string
% StartContainer string
% Value string
% Key string
%EndEventDef
%EventDef PajeEndLink 131
% Time date
% Container string
% Type string
% EndContainer string
% Value string
% Key string
%EndEventDef
101 P 0 "Process"
101 TH P "Thread"
102 ST TH "Thread State"
103 r ST "Running code" "0 1 0"
103 w ST "Waiting" "1 0 0"
104 EV P "Event"
105 MEM P "Memory"
106 LK P TH TH "Message"
107 0.0 p P 0 "the process"
107 0.0 t1 TH p "thread one"
107 0.0 t2 TH p "thread two"
)";

TEST(PajeReader, ReadsAnyToolsTraceUnsortedWithNesting) {
    TempDir dir;
    const std::string body = std::string(kHeader) +
                             // deliberately out of time order
                             "110 t1 2.0 ST w \"ignored comment\"\n"
                             "110 t1 1.0 ST r x\n"
                             "111 2.5 t1 ST \"nested value\"\n"
                             "112 3.0 t1 ST\n"
                             "113 4.0 t1 ST\n"
                             "110 t2 0.5 ST r x\n"
                             "120 1.5 p MEM 12.5\n"
                             "130 1.0 p LK t1 m 7\n"
                             "131 1.2 p LK t2 m 7\n"
                             "109 3.5 EV p \"hello world\"\n"
                             "108 5.0 t2 TH\n"
                             "110 t1 6.0 ST r x\n"
                             "120 7.0 p MEM 1\n";
    const auto trace = readPaje(write(dir, "other.paje", body));
    ASSERT_TRUE(trace) << trace.error().describe();
    ASSERT_EQ(trace->lanes.size(), 2U);
    const auto& t1 = trace->lanes[0].name == "thread one" ? trace->lanes[0] : trace->lanes[1];
    const auto& t2 = trace->lanes[0].name == "thread one" ? trace->lanes[1] : trace->lanes[0];
    ASSERT_EQ(t1.name, "thread one");
    ASSERT_EQ(t1.levels.size(), 2U);
    const auto& base = t1.levels[0];
    ASSERT_EQ(base.size(), 3U);
    EXPECT_EQ(trace->states[base[0].state].name, "Running code");   // entity alias resolved
    EXPECT_EQ(base[0].start, 1'000'000);
    EXPECT_EQ(base[0].end, 2'000'000);
    EXPECT_EQ(trace->states[base[1].state].name, "Waiting");
    EXPECT_EQ(base[1].end, 4'000'000);   // reset state ends it
    EXPECT_EQ(base[2].start, 6'000'000);
    ASSERT_EQ(t1.levels[1].size(), 1U);
    EXPECT_EQ(trace->states[t1.levels[1][0].state].name, "nested value");
    EXPECT_EQ(t1.levels[1][0].start, 2'500'000);
    EXPECT_EQ(t1.levels[1][0].end, 3'000'000);
    // Destroying the container ends its state.
    ASSERT_EQ(t2.spans().size(), 1U);
    EXPECT_EQ(t2.spans()[0].start, 500'000);
    EXPECT_EQ(t2.spans()[0].end, 5'000'000);
    ASSERT_EQ(trace->markers.size(), 1U);
    EXPECT_EQ(trace->markers[0].text, "hello world");
    EXPECT_EQ(trace->markers[0].time, 3'500'000);
    EXPECT_EQ(trace->metadata.at("paje.variable_events"), "2");
    EXPECT_EQ(trace->metadata.at("paje.link_events"), "2");
    EXPECT_EQ(trace->end, 7'000'000);
    EXPECT_EQ(base[2].end, 7'000'000);   // still open at the end of the trace
}

TEST(PajeReader, UnknownEventIdNamesLineAndOffset) {
    TempDir dir;
    const std::string body = std::string(kHeader) + "999 1.0 t1 ST r\n";
    const auto trace = readPaje(write(dir, "bad.paje", body));
    ASSERT_FALSE(trace);
    EXPECT_EQ(trace.error().code, ErrorCode::Corrupt);
    EXPECT_EQ(trace.error().offset, std::string(kHeader).size());
    EXPECT_NE(trace.error().message.find("999"), std::string::npos);
    EXPECT_NE(trace.error().describe().find("bad.paje"), std::string::npos);
}

TEST(PajeReader, MissingFieldsAndBadTimesAreErrors) {
    TempDir dir;
    auto trace = readPaje(write(dir, "short.paje", std::string(kHeader) + "111 1.0 t1\n"));
    ASSERT_FALSE(trace);
    EXPECT_NE(trace.error().message.find("fields"), std::string::npos);
    trace = readPaje(write(dir, "time.paje", std::string(kHeader) + "111 abc t1 ST r\n"));
    ASSERT_FALSE(trace);
    EXPECT_NE(trace.error().message.find("bad time"), std::string::npos);
    trace = readPaje(write(dir, "open.paje", "%EventDef PajeSetState 1\n% Time date\n"));
    ASSERT_FALSE(trace);
    EXPECT_NE(trace.error().message.find("never closed"), std::string::npos);
}

TEST(PajeReader, StarpuPajeTraceGivesTasksWithJobIds) {
    const auto trace = readTrace(smallPaje());
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_EQ(trace->metadata.at("format"), "paje");
    std::size_t spins = 0;
    for (const auto& task : trace->tasks) {
        EXPECT_LT(task.jobId, std::uint64_t{1} << 62) << "a task without its JobId";
        spins += trace->names.name(task.codelet) == "sample_spin" ? 1U : 0U;
    }
    EXPECT_EQ(spins, 18U);
    EXPECT_EQ(trace->tasks.size(), 20U);
    std::size_t workers = 0;
    for (const auto& lane : trace->lanes) {
        if (lane.kind == LaneKind::CpuWorker) {
            ++workers;
            EXPECT_GE(lane.workerId, 0);
            EXPECT_EQ(lane.name, "CPU " + std::to_string(lane.workerId));
        }
    }
    EXPECT_EQ(workers, 2U);
    std::size_t parsed = 0;
    for (const auto& m : trace->markers) {
        parsed += m.parsed ? 1U : 0U;
    }
    EXPECT_EQ(parsed, 18U);
}

} // namespace
} // namespace starscope::tracer
