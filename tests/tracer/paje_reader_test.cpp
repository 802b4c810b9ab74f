// The Paje reader on starpu_fxt_tool's output and on hand-written traces of "other tools".

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/model/time_unit.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/readers/paje/paje_reader.hpp"
#include "tracer/readers/read_trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

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

// starpu_fxt_tool names user threads "UserThread<tid>": the first of a program is its main
// thread, the others are numbered as the FxT reader numbers them, never shown by their tid.
TEST(PajeReader, UserThreadsGetReadableNames) {
    TempDir dir;
    const std::string body = std::string(kHeader) + "101 UT P \"User Thread\"\n"
                             "102 UST UT \"User Thread State\"\n"
                             "103 s UST \"Submitting task\" \"0 0 1\"\n"
                             "107 0.0 u1 UT p \"UserThread140512345678901\"\n"
                             "107 0.0 u2 UT p \"UserThread94144871875760\"\n"
                             "110 u1 1.0 UST s x\n"
                             "110 u2 1.5 UST s x\n"
                             "110 u1 2.0 UST s x\n";
    const auto trace = readPaje(write(dir, "threads.paje", body));
    ASSERT_TRUE(trace) << trace.error().describe();
    std::vector<std::string> users;
    for (const auto& lane : trace->lanes) {
        if (lane.kind == LaneKind::MainThread) {
            users.push_back(lane.name);
        }
    }
    EXPECT_EQ(users, (std::vector<std::string>{"main", "thread 2"}));
}

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
    EXPECT_EQ(trace->states[base[0].state].name, "Running code"); // entity alias resolved
    EXPECT_EQ(base[0].start, 1'000'000);
    EXPECT_EQ(base[0].end, 2'000'000);
    EXPECT_EQ(trace->states[base[1].state].name, "Waiting");
    EXPECT_EQ(base[1].end, 4'000'000); // reset state ends it
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
    EXPECT_EQ(trace->textOf(trace->markers[0]), "hello world");
    EXPECT_EQ(trace->markers[0].time, 3'500'000);
    EXPECT_EQ(trace->metadata.at("paje.variable_events"), "2");
    EXPECT_EQ(trace->metadata.at("paje.link_events"), "2");
    EXPECT_EQ(trace->end, 7'000'000);
    EXPECT_EQ(base[2].end, 7'000'000); // still open at the end of the trace
}

// Spans hold 48-bit times: a trace longer than that (about 39 hours in ns) is refused naming
// the file, not read with wrapped times; one just within it reads whole.
TEST(PajeReader, TraceLongerThanTheModelHoldsIsRefused) {
    TempDir dir;
    const double lastMs = static_cast<double>(kMaxTraceTime) / 1e6;
    const std::string within = std::string(kHeader) + "110 t1 1.0 ST r x\n110 t1 "
                               + std::to_string(std::floor(lastMs) - 1.0) + " ST w x\n";
    const auto fits = readTrace(write(dir, "long.paje", within));
    ASSERT_TRUE(fits) << fits.error().describe();
    ASSERT_FALSE(fits->lanes.empty());
    EXPECT_EQ(fits->end, static_cast<TimeNs>(std::floor(lastMs) - 1.0) * 1'000'000);
    const std::string beyond = std::string(kHeader) + "110 t1 1.0 ST r x\n110 t1 "
                               + std::to_string(lastMs + 1000.0) + " ST w x\n";
    const auto trace = readTrace(write(dir, "too_long.paje", beyond));
    ASSERT_FALSE(trace);
    EXPECT_EQ(trace.error().code, ErrorCode::Unsupported);
    EXPECT_NE(trace.error().message.find("39 hours"), std::string::npos)
        << trace.error().describe();
    EXPECT_NE(trace.error().describe().find("too_long.paje"), std::string::npos);
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

// pajeng refuses both: lines that refer to such a container would land on another one or on none.
TEST(PajeReader, ContainerCreatedTwiceOrInAnUncreatedOneNamesTheLine) {
    TempDir dir;
    const auto headerLines = std::count(kHeader, kHeader + std::strlen(kHeader), '\n');
    const std::string good = std::string(kHeader) + "110 t1 1.0 ST r x\n";
    for (const auto& [line, says] :
         {std::pair{"107 0.0 t1 TH p \"thread one again\"\n", "container \"t1\" is created twice"},
          std::pair{"107 0.0 t3 TH q \"thread three\"\n", "container \"t3\" is in container \"q\", which was never created"}}) {
        const auto trace = readPaje(write(dir, "bad.paje", good + line + "110 t1 2.0 ST w x\n"));
        ASSERT_FALSE(trace) << line;
        EXPECT_EQ(trace.error().code, ErrorCode::Corrupt);
        EXPECT_EQ(trace.error().message, "line " + std::to_string(headerLines + 2) + ": " + says);
        EXPECT_EQ(trace.error().offset, good.size());
    }
}

// StarPU names a process's containers "<rank>_...": a file where only some are so named cannot
// say whose the others are.
TEST(PajeReader, RanksOfSomeContainersOnlyAreReadAsOneProcess) {
    TempDir dir;
    const std::string body = std::string(kHeader) + "107 0.0 0_t3 TH p \"0_thread\"\n110 t1 1.0 ST r x\n"
                                                    "110 0_t3 1.0 ST w x\n109 1.5 EV p \"ss1:batch_begin epoch=0 batch=0 slot=0\"\n"
                                                    "110 t1 2.0 ST w x\n";
    const auto trace = readPaje(write(dir, "mixed.paje", body));
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_TRUE(trace->ranks.empty());
    for (const auto& lane : trace->lanes) {
        EXPECT_EQ(lane.rank, -1) << lane.name;
    }
    EXPECT_TRUE(std::any_of(trace->warnings.begin(), trace->warnings.end(),
                            [](const std::string& w) { return w.find("read as one process") != std::string::npos; }));
    ASSERT_TRUE(writeNativeFile(*trace, dir / "mixed.sstrace"));
    const auto back = readNative(dir / "mixed.sstrace");
    ASSERT_TRUE(back) << back.error().describe();
}

// starpu_fxt_tool's clocks, aligned by a barrier, are not exact: a short message may end before
// it starts. It takes no time then, as the prof files' merge has it, and the trace reads back.
TEST(PajeReader, MessageEndingBeforeItStartsTakesNoTime) {
    TempDir dir;
    const std::string header(kHeader);
    const std::string body = header.substr(0, header.find("107 0.0 p ")) + "106 MPIL P TH TH \"MPI communication\"\n"
                             "107 0.0 0_p P 0 \"0_program\"\n107 0.0 0_t TH 0_p \"0_thread\"\n"
                             "107 0.0 1_p P 0 \"1_program\"\n107 0.0 1_t TH 1_p \"1_thread\"\n"
                             "110 0_t 1.0 ST r x\n110 1_t 1.0 ST r x\n"
                             "130 2.0 0_p MPIL 0_t 64 m1\n131 1.5 0_p MPIL 1_t 64 m1\n"
                             "110 0_t 3.0 ST w x\n110 1_t 3.0 ST w x\n";
    const auto trace = readPaje(write(dir, "ranks.paje", body));
    ASSERT_TRUE(trace) << trace.error().describe();
    ASSERT_EQ(trace->ranks.size(), 2U);
    ASSERT_EQ(trace->messages.size(), 1U);
    EXPECT_EQ(trace->messages[0].start, 2'000'000);
    EXPECT_EQ(trace->messages[0].end, 2'000'000);
    ASSERT_TRUE(writeNativeFile(*trace, dir / "ranks.sstrace"));
    const auto back = readNative(dir / "ranks.sstrace");
    ASSERT_TRUE(back) << back.error().describe();
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

// Long runs of event lines are prepared in batches on another thread while the previous batch
// is applied: a definition met half-way (an id given another field order) must hold from its
// line on, variables be counted and states kept in file order, and a bad line far in be named by
// its own line number and offset.
TEST(PajeReader, LinesAcrossManyBatchesKeepFileOrder) {
    TempDir dir;
    constexpr int kStates = 60'000;
    std::string body = kHeader;
    std::size_t lines = static_cast<std::size_t>(std::count(body.begin(), body.end(), '\n'));
    int variables = 0;
    for (int i = 0; i < kStates; ++i) {
        const char* value = i % 2 == 0 ? "r" : "w";
        if (i == kStates / 2) {
            body += "%EventDef PajeSetState 110\n% Value string\n% Time date\n% Type string\n% "
                    "Container string\n"
                    "%EndEventDef\n";
            lines += 6;
        }
        body += i < kStates / 2
                    ? "110 t1 " + std::to_string(i) + " ST " + value + " x\n"
                    : std::string("110 ") + value + " " + std::to_string(i) + " ST t1\n";
        ++lines;
        if (i % 3 == 0) {
            body += "# a comment\n120 " + std::to_string(i) + ".5 p MEM 1\n\n";
            lines += 3;
            ++variables;
        }
    }
    body += "120 " + std::to_string(kStates) + " p MEM 1\n";
    ++lines;
    ++variables;
    const auto good = write(dir, "long.paje", body);
    const auto bad = write(dir, "bad.paje", body + "110 r 1.0 ST\n");
    // Prepared on this thread (1, and 0: the reader's choice) and on another one (2): the same.
    for (const unsigned threads : {0U, 1U, 2U}) {
        SCOPED_TRACE("ReadOptions::threads = " + std::to_string(threads));
        ReadOptions options;
        options.threads = threads;
        const auto trace = readPaje(good, options);
        const auto refused = readPaje(bad, options);
        ASSERT_TRUE(trace) << trace.error().describe();
        const auto& t1 = trace->lanes[0].name == "thread one" ? trace->lanes[0] : trace->lanes[1];
        ASSERT_EQ(t1.levels.size(), 1U);
        const auto& base = t1.levels[0];
        for (int i = 0; i < kStates; ++i) {
            ASSERT_LT(static_cast<std::size_t>(i), base.size()) << "state " << i;
            const auto& span = base[static_cast<std::size_t>(i)];
            ASSERT_EQ(span.start, TimeNs{i} * 1'000'000) << "state " << i;
            ASSERT_EQ(trace->states[span.state].name, i % 2 == 0 ? "Running code" : "Waiting")
                << "state " << i;
        }
        EXPECT_EQ(trace->metadata.at("paje.variable_events"), std::to_string(variables));
        EXPECT_EQ(trace->end, TimeNs{kStates} * 1'000'000); // the last variable's date

        ASSERT_FALSE(refused);
        EXPECT_EQ(refused.error().code, ErrorCode::Corrupt);
        EXPECT_EQ(refused.error().offset, body.size());
        EXPECT_NE(refused.error().message.find("line " + std::to_string(lines + 1) + ":"),
                  std::string::npos)
            << refused.error().message;
        EXPECT_NE(refused.error().message.find("fields"), std::string::npos)
            << refused.error().message;
    }
}

TEST(PajeReader, StarpuPajeTraceGivesTasksWithJobIds) {
    const auto trace = readTrace(smallPaje());
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_EQ(trace->metadata.at("format"), "paje");
    // starpu_fxt_tool ends its links 1e-9 ms after they start: that must not make its traces
    // picoseconds, only dates of states and events choose the unit.
    EXPECT_EQ(ticksPerSecond(*trace), kNsPerSecond);
    std::size_t spins = 0;
    for (const auto& task : trace->tasks) {
        EXPECT_LT(task.jobId, std::uint64_t{1} << 62) << "a task without its JobId";
        spins += trace->codeletOf(task) == "sample_spin" ? 1U : 0U;
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

// A trace that declares StarPU's "prog_event" type is StarPU's: only its user event types are
// markers, its pushes, pops and data registrations (one new address or job id each) are not.
// A trace of another tool keeps every event.
TEST(PajeReader, StarpuRuntimeEventsAreNoMarkers) {
    TempDir dir;
    const std::string events =
        "109 1.0 prog_event p first\n109 2.0 register p 5606a24a8360\n109 3.0 pu p 17\n"
        "109 4.0 prog_event p second\n109 5.0 po p 17\n";
    const auto starpu = readTrace(write(dir, "starpu.paje",
                                        std::string(kHeader) + "104 prog_event P Program\n"
                                            + "104 register P Register\n" + events));
    ASSERT_TRUE(starpu) << starpu.error().describe();
    ASSERT_EQ(starpu->markers.size(), 2U);
    EXPECT_EQ(starpu->markers[0].time, 1'000'000);
    EXPECT_EQ(starpu->markers[1].time, 4'000'000);
    const auto other = readTrace(write(dir, "other.paje", std::string(kHeader) + events));
    ASSERT_TRUE(other) << other.error().describe();
    EXPECT_EQ(other->markers.size(), 5U);
}

std::filesystem::path pajeData(const std::string& name) {
    return starscope::testing::testDataDir() / "tracer" / "paje" / name;
}

const StateInfo& stateOf(const Trace& trace, const Span& span) {
    return trace.states[span.state];
}

TEST(PajeReader, OldFieldNamesResolveEntityValues) {
    // ContainerType / EntityType instead of Type: StarPU's older traces and the Paje spec.
    const auto trace = readPaje(pajeData("old_field_names.paje"));
    ASSERT_TRUE(trace) << trace.error().describe();
    ASSERT_EQ(trace->lanes.size(), 1U);
    const auto& spans = trace->lanes[0].spans();
    ASSERT_EQ(spans.size(), 4U);
    EXPECT_EQ(stateOf(*trace, spans[0]).name, "Scheduling");
    EXPECT_EQ(stateOf(*trace, spans[1]).name, "Sleeping");
    EXPECT_EQ(stateOf(*trace, spans[1]).cls, StateClass::Sleeping);
    EXPECT_EQ(stateOf(*trace, spans[2]).name, "Idle");
    EXPECT_EQ(stateOf(*trace, spans[2]).cls, StateClass::Sleeping);
    EXPECT_EQ(trace->lanes[0].kind, LaneKind::CpuWorker);
    EXPECT_EQ(trace->lanes[0].workerId, 0);
}

TEST(PajeReader, OldLinkFieldNamesAndNesting) {
    const auto trace = readPaje(pajeData("nested_links.paje"));
    ASSERT_TRUE(trace) << trace.error().describe();
    ASSERT_EQ(trace->lanes.size(), 2U);
    const auto& one = trace->lanes[0].name == "thread one" ? trace->lanes[0] : trace->lanes[1];
    ASSERT_EQ(one.levels.size(), 3U);
    EXPECT_EQ(stateOf(*trace, one.levels[1][0]).name, "Waiting");
    EXPECT_EQ(one.levels[2][0].start, 1'500'000);
    EXPECT_EQ(trace->metadata.at("paje.link_events"), "2");
    EXPECT_EQ(trace->spanCount(), 7U);
}

// starpu_fxt_tool's shape of a machine with a GPU: the CUDA worker is "CUDA 0" as the FxT reader
// names it, the thread driving it ("T0") no worker and its "Executing" (a part of its worker's
// task) no state of anyone's, the memory manager a memory-node lane with the copy, the link a
// transfer between the nodes.
TEST(PajeReader, AGpuMachineReadsAsFromItsProfFile) {
    const auto trace = readPaje(pajeData("cuda_worker_set.paje"));
    ASSERT_TRUE(trace) << trace.error().describe();
    std::vector<std::string> names;
    for (const auto& lane : trace->lanes) {
        names.push_back(lane.name);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"CUDA 0", "CPU 0", "Memory node 1"}));
    const auto& cuda = trace->lanes[0];
    EXPECT_EQ(cuda.kind, LaneKind::CudaWorker);
    EXPECT_EQ(cuda.memoryNode, 1);
    EXPECT_EQ(cuda.workerId, 0);
    ASSERT_EQ(trace->tasks.size(), 1U);
    EXPECT_EQ(trace->tasks[0].start, 600'000);
    EXPECT_EQ(trace->tasks[0].end, 2'600'000);
    EXPECT_EQ(trace->codeletOf(trace->tasks[0]), "GEMM");
    const auto& memory = trace->lanes[2];
    EXPECT_EQ(memory.kind, LaneKind::MemoryNode);
    EXPECT_FALSE(memory.isWorker());
    EXPECT_EQ(memory.memoryNode, 1);
    ASSERT_EQ(memory.spans().size(), 1U);
    EXPECT_EQ(stateOf(*trace, memory.spans()[0]).name, "DriverCopy");
    EXPECT_EQ(memory.spans()[0].duration(), 400'000);
    ASSERT_EQ(trace->transfers.size(), 1U);
    EXPECT_EQ(trace->transfers[0], (Transfer{-1, 0, 1, TransferKind::Fetch, 200'000, 600'000, 4096, 0}));
    // The thread's own "Overhead" and "Executing" are on no lane.
    for (const auto& lane : trace->lanes) {
        for (const auto& span : lane.spans()) {
            EXPECT_NE(stateOf(*trace, span).name, "Overhead") << lane.name;
        }
    }
}

// Dates in seconds with ten decimals, read as milliseconds: 0.3 ns, 0.7 ns... Rounded to
// nanoseconds, four of the eight states vanished and the others changed length.
TEST(PajeReader, SubNanosecondDatesKeepEveryStateExactly) {
    const auto trace = readPaje(pajeData("sub_nanosecond.paje"));
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_EQ(ticksPerSecond(*trace), 10'000'000'000'000); // 1e-10 ms ticks
    ASSERT_EQ(trace->lanes.size(), 1U);
    const auto& spans = trace->lanes[0].spans();
    const std::vector<TimeNs> expected = {3, 7, 5, 9, 2, 14, 5, 5};
    ASSERT_EQ(spans.size(), expected.size());
    for (std::size_t i = 0; i < spans.size(); ++i) {
        EXPECT_EQ(spans[i].duration(), expected[i]) << "span " << i;
        EXPECT_EQ(stateOf(*trace, spans[i]).name, i % 2 == 0 ? "a" : "b");
    }
    EXPECT_EQ(trace->end, 50);

    // Exported and read again, nothing moves; the native format keeps the unit.
    TempDir dir;
    std::ostringstream paje;
    writePaje(*trace, paje);
    const auto again = readPaje(write(dir, "again.paje", paje.str()));
    ASSERT_TRUE(again) << again.error().describe();
    EXPECT_EQ(ticksPerSecond(*again), ticksPerSecond(*trace));
    ASSERT_EQ(again->lanes.size(), 1U);
    EXPECT_EQ(again->lanes[0].spans(), spans);
    std::ofstream(dir / "t.native", std::ios::binary) << [&] {
        std::ostringstream out;
        writeNative(*trace, out);
        return out.str();
    }();
    const auto native = readNative(dir / "t.native");
    ASSERT_TRUE(native) << native.error().describe();
    EXPECT_EQ(ticksPerSecond(*native), ticksPerSecond(*trace));
    EXPECT_EQ(native->lanes[0].spans(), spans);
}

TEST(PajeReader, ExactDatesInAnySpelling) {
    TempDir dir;
    const std::string body = std::string(kHeader) + "110 t1 1.5e-3 ST r x\n" // 1.5 us
                             + "110 t1 +0.00200 ST w x\n" + "110 t1 3 ST r x\n" + "113 4 t1 ST\n";
    const auto trace = readPaje(write(dir, "spellings.paje", body));
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_EQ(ticksPerSecond(*trace), kNsPerSecond);
    EXPECT_FALSE(trace->metadata.contains(std::string(kTicksPerSecondMetadata)));
    const auto& spans = trace->lanes[0].spans();
    ASSERT_EQ(spans.size(), 3U);
    EXPECT_EQ(spans[0].start, 1'500);
    EXPECT_EQ(spans[1].start, 2'000);
    EXPECT_EQ(spans[2].start, 3'000'000);
    for (const char* bad : {"1.2.3", "1e", "--1", "1e400", "0x10", "12345678901234567890123"}) {
        const auto broken =
            readPaje(write(dir, "bad.paje", std::string(kHeader) + "110 t1 " + bad + " ST r x\n"));
        ASSERT_FALSE(broken) << bad;
        EXPECT_NE(broken.error().message.find("bad time"), std::string::npos) << bad;
    }
}

// Many states at one instant on one lane, and many containers: both once took quadratic time.
// Here only the result is checked (bench/tracer/paje_bench.cpp measures the time).
TEST(PajeReader, ManySameInstantCodeletStartsAndContainers) {
    TempDir dir;
    std::string body = std::string(kHeader) + "101 W TH \"Worker\"\n102 WS W \"Worker State\"\n";
    constexpr int kWorkers = 300;
    for (int w = 0; w < kWorkers; ++w) {
        body += "107 0.0 w" + std::to_string(w) + " W t1 CPU" + std::to_string(w) + "\n";
    }
    for (int w = 0; w < kWorkers; ++w) {
        // A codelet start plainly, then with its job id (as starpu_fxt_tool), at one instant.
        body += "110 w" + std::to_string(w) + " 1.0 WS codelet x\n";
    }
    const auto trace = readPaje(write(dir, "many.paje", body));
    ASSERT_TRUE(trace) << trace.error().describe();
    std::size_t workers = 0;
    for (const auto& lane : trace->lanes) {
        if (lane.kind == LaneKind::CpuWorker) {
            EXPECT_EQ(lane.name, "CPU " + std::to_string(lane.workerId));
            ++workers;
        }
    }
    EXPECT_EQ(workers, static_cast<std::size_t>(kWorkers));
    EXPECT_EQ(trace->tasks.size(), static_cast<std::size_t>(kWorkers));
}

// pj_dump (pajeng), the reference Paje reader: "State, container, type, start, end, duration,
// imbrication, value" lines. pj_dump ends the trace at the date of the file's last line, even
// when earlier lines (starpu_fxt_tool writes its variables last) hold later states: it drops or
// clips those, where we keep them. So both sides count the states that start before that end
// and last longer than zero (the model drops zero-length states).
struct Reference {
    std::map<std::string, std::size_t> counts; // per container
    long double endMs = 0;
};

Reference pjDump(const std::filesystem::path& file, const TempDir& dir) {
    const auto out = dir / "pj_dump.out";
    const int status = starscope::testing::runCommand("pj_dump --no-strict --float-precision=15 '"
                                                      + file.string() + "' > '" + out.string()
                                                      + "' 2> '" + out.string() + ".err'");
    EXPECT_EQ(status, 0) << "pj_dump failed on " << file << ": "
                         << starscope::testing::readFile(out.string() + ".err");
    std::vector<std::vector<std::string>> lines;
    std::istringstream in(starscope::testing::readFile(out));
    Reference ref;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> fields;
        std::istringstream cells(line);
        for (std::string cell; std::getline(cells, cell, ',');) {
            const auto first = cell.find_first_not_of(' ');
            fields.push_back(first == std::string::npos ? "" : cell.substr(first));
        }
        if (fields.size() >= 6 && fields[0] == "Container" && fields[1] == "0") {
            ref.endMs = std::max(ref.endMs, std::stold(fields[4]));
        }
        lines.push_back(std::move(fields));
    }
    for (const auto& f : lines) {
        if (f.size() >= 6 && f[0] == "State" && std::stold(f[4]) > std::stold(f[3])
            && std::stold(f[3]) < ref.endMs) {
            ++ref.counts[f[1]];
        }
    }
    return ref;
}

TEST(PajeReader, StateCountsMatchPjDump) {
    if (starscope::testing::runCommand("command -v pj_dump > /dev/null 2>&1") != 0) {
        GTEST_SKIP() << "pj_dump is not installed (Debian package pajeng; "
                        "scripts/install_packages.sh installs it)";
    }
    TempDir dir;
    // pj_dump refuses dates out of order; this one is in order, with nesting and a destroy.
    const auto other = write(dir, "other.paje",
                             std::string(kHeader)
                                 + "110 t2 0.5 ST r x\n110 t1 1.0 ST r x\n"
                                   "110 t1 2.0 ST w \"c\"\n111 2.5 t1 ST \"nested value\"\n"
                                   "112 3.0 t1 ST\n108 5.0 t2 TH\n110 t1 6.0 ST r x\n"
                                   "120 7.0 p MEM 1\n");
    for (const auto& file :
         {smallPaje(), pajeData("old_field_names.paje"), pajeData("sub_nanosecond.paje"),
          pajeData("nested_links.paje"), other}) {
        SCOPED_TRACE(file.string());
        const auto reference = pjDump(file, dir);
        const auto trace = readPaje(file);
        ASSERT_TRUE(trace) << trace.error().describe();
        const long double ticksPerMs = static_cast<long double>(ticksPerSecond(*trace)) / 1000;
        // Our lanes are per container and state type, named for display ("CPU 0", "main"):
        // compare the per-container counts as a multiset, and the totals.
        std::vector<std::size_t> theirs;
        std::size_t theirTotal = 0;
        for (const auto& [container, count] : reference.counts) {
            theirs.push_back(count);
            theirTotal += count;
        }
        std::vector<std::size_t> ours;
        std::size_t ourTotal = 0;
        for (const auto& lane : trace->lanes) {
            std::size_t count = 0;
            for (const auto& level : lane.levels) {
                count += static_cast<std::size_t>(
                    std::count_if(level.begin(), level.end(), [&](const Span& span) {
                        return static_cast<long double>(span.start) < reference.endMs * ticksPerMs;
                    }));
            }
            if (count > 0) {
                ours.push_back(count);
                ourTotal += count;
            }
        }
        std::sort(theirs.begin(), theirs.end());
        std::sort(ours.begin(), ours.end());
        EXPECT_GT(theirTotal, 0U);
        EXPECT_EQ(ourTotal, theirTotal);
        EXPECT_EQ(ours, theirs);
    }
}

// Reading a Paje file holds a few MiB of it in the process at a time, not the whole text on top
// of the model: the reader lets go of what it has applied.
TEST(PajeReader, ReadingHoldsAStepOfTheFileNotAllOfIt) {
    const Trace trace = regularLanes(16, std::size_t{1} << 16, 10000, 2);
    TempDir dir;
    const auto file = dir / "big.trace";
    {
        std::ofstream out(file, std::ios::binary);
        writePaje(trace, out);
    }
    ASSERT_GT(std::filesystem::file_size(file), std::uintmax_t{40} << 20);
    starscope::testing::ResidentFileSampler held;
    ReadOptions options;
    options.progress = held.progress();
    const auto back = readPaje(file, options);
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(back->spanCount(), trace.spanCount());
    EXPECT_GT(held.samples, 32);
    // A step is 4 MiB, and a batch of lines ahead of it.
    EXPECT_LE(held.heldKib(), 12U << 10) << "the reader held " << held.heldKib() / 1024 << " MiB of the file";
}

} // namespace
} // namespace starscope::tracer
