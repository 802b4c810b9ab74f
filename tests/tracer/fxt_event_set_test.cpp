// StarPU 1.4's FxT event categories (tracer/model/fxt_event_set.hpp): the names STARPU_FXT_EVENTS
// takes, parsed and printed back; and the FxT reader's warnings when a trace's key mask left out
// a category a figure needs, on a trace recorded with
// `starscope record --events TASK,TASK_VERBOSE,WORKER,EVENT` (tests/data/tracer/events14).

#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/model/fxt_event_set.hpp"
#include "tracer/readers/read_trace.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace starscope::tracer {
namespace {

using testing::goldenRun;

TEST(FxtEventSet, ParsesStarpusNamesAndPrintsThemBackInBitOrder) {
    const auto set = FxtEventSet::parse(" worker| task ,EVENT");
    ASSERT_TRUE(set);
    EXPECT_EQ(set->text(), "TASK,WORKER,EVENT");
    EXPECT_TRUE(set->has(FxtCategory::Meta)); // StarPU keeps its meta events on
    EXPECT_FALSE(set->has(FxtCategory::Dsm));
    // The mask is StarPU's: FUT_KEYMASK0 (META) | 2 (TASK) | 6 (WORKER) | 14 (EVENT).
    EXPECT_EQ(set->mask(), 0x4045U);
    EXPECT_EQ(FxtEventSet::parse(set->text()), set);
}

TEST(FxtEventSet, AllIsStarpusDefaultAndTheDefaultIsASmallerSet) {
    EXPECT_EQ(FxtEventSet::parse("ALL"), FxtEventSet::all());
    EXPECT_EQ(FxtEventSet::all().text(), "all");
    EXPECT_FALSE(FxtEventSet::all().has(FxtCategory::TaskVerboseExtra));
    EXPECT_EQ(FxtEventSet::starscopeDefault().text(),
              "USER,TASK,TASK_VERBOSE,WORKER,WORKER_VERBOSE,DSM,EVENT,MPI");
    // As the 1.4.12 trace's setup event writes it (0x41cf without MPI).
    EXPECT_EQ(FxtEventSet::starscopeDefault().mask(), 0x141cfU);
}

TEST(FxtEventSet, UnknownOrNoNamesAreErrorsThatSayWhatStarpuKnows) {
    std::string error;
    EXPECT_FALSE(FxtEventSet::parse("TASK,SOMETHING", &error));
    EXPECT_NE(error.find("unknown FxT event category 'SOMETHING'"), std::string::npos) << error;
    EXPECT_NE(error.find("WORKER_VERBOSE"), std::string::npos) << error;
    EXPECT_FALSE(FxtEventSet::parse(" , ", &error));
    EXPECT_NE(error.find("no FxT event category"), std::string::npos) << error;
}

bool warns(const Trace& trace, const std::string& what) {
    return std::any_of(trace.warnings.begin(), trace.warnings.end(),
                       [&](const std::string& w) { return w.find(what) != std::string::npos; });
}

TEST(FxtEventSet, TheReaderSaysWhatATraceWithoutACategoryCannotShow) {
    const auto trace = readTrace(goldenRun("events14") / "prof_file__0");
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_TRUE(warns(*trace, "transfers and the pushing-output state not recorded: the trace's "
                              "FxT event set leaves out DSM"));
    EXPECT_TRUE(warns(*trace, "leaves out WORKER_VERBOSE"));
    EXPECT_TRUE(warns(*trace, "leaves out USER"));
    EXPECT_FALSE(warns(*trace, "leaves out TASK"));
    EXPECT_FALSE(warns(*trace, "leaves out EVENT"));
    EXPECT_FALSE(warns(*trace, "StarPU-MPI")); // one process: no message to miss
    EXPECT_FALSE(trace->markers.empty());
}

TEST(FxtEventSet, TracesWithEveryCategoryOrFromStarpu13WarnOfNothing) {
    for (const char* name : {"small14", "masked14", "small", "masked13"}) {
        const auto trace = readTrace(goldenRun(name) / "prof_file__0");
        ASSERT_TRUE(trace) << name << ": " << trace.error().describe();
        EXPECT_FALSE(warns(*trace, "leaves out")) << name;
    }
}

} // namespace
} // namespace starscope::tracer
