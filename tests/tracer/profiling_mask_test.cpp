// FxT profiling stopped and restarted (starpu_fxt_stop_profiling / start_profiling): that time
// is "Not profiled" on every lane, never sleeping, idle, part of a barrier or of an efficiency.
// Checked on golden traces of StarPU 1.3.10 and 1.4.12 and on a trace recorded now with the
// StarPU the tests are built against, each against its own starpu_fxt_tool: executed work is
// identical; the time starpu_fxt_tool draws as the last state before the stop is ours
// "Not profiled".

#include "tests/support/test_support.hpp"
#include "tests/tracer/trace_checks.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/model/time_unit.hpp"
#include "tracer/readers/read_trace.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace starscope::tracer {
namespace {

using namespace testing;

// In nanoseconds whatever the trace's tick (a Paje trace may be read at a finer one).
TimeNs notProfiledNs(const Trace& trace) {
    return summarize(trace).workerTotals.notProfiled / (ticksPerSecond(trace) / kNsPerSecond);
}

TEST(ProfilingMask, GoldenStarpu13) {
    expectProfilingMaskHonoured(goldenRun("masked13"));
}

TEST(ProfilingMask, GoldenStarpu14) {
    expectProfilingMaskHonoured(goldenRun("masked14"));
}

TEST(ProfilingMask, ExportersKeepNotProfiledApart) {
    const auto trace = readTrace(goldenRun("masked14") / "prof_file__0");
    ASSERT_TRUE(trace) << trace.error().describe();
    std::ostringstream csv;
    writeSpansCsv(*trace, csv);
    EXPECT_NE(csv.str().find(",not_profiled,"), std::string::npos);
    std::ostringstream chrome;
    writeChromeJson(*trace, chrome);
    EXPECT_NE(chrome.str().find("\"cat\":\"not_profiled\""), std::string::npos);

    // Paje round trip: the state keeps its name and class, and its time.
    starscope::testing::TempDir dir;
    {
        std::ofstream out(dir / "masked.trace");
        writePaje(*trace, out);
    }
    const auto back = readTrace(dir / "masked.trace");
    ASSERT_TRUE(back) << back.error().describe();
    const TimeNs exported = notProfiledNs(*trace);
    EXPECT_LE(std::abs(notProfiledNs(*back) - exported), exported / 1000) << notProfiledNs(*back) << " ns read back, "
                                                                           << exported << " ns exported";
}

} // namespace
} // namespace starscope::tracer
