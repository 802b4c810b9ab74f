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

// Read as two processes of one run, each file's warning names the file it is about (it read
// "0_FxT profiling was stopped ...", the lane prefix of rank 0).
TEST(ProfilingMask, TheWarningOfEachFileNamesIt) {
    starscope::testing::TempDir dir;
    const std::vector<std::filesystem::path> files{dir / "prof_file__0", dir / "prof_file__1"};
    for (const auto& file : files) {
        std::filesystem::copy_file(goldenRun("masked13") / "prof_file__0", file);
    }
    const auto trace = readTrace(files);
    ASSERT_TRUE(trace) << trace.error().describe();
    for (const auto& file : files) {
        const bool named =
            std::any_of(trace->warnings.begin(), trace->warnings.end(), [&](const std::string& w) {
                return w.starts_with(file.string() + ": FxT profiling was stopped ");
            });
        EXPECT_TRUE(named) << file;
    }
    for (const auto& w : trace->warnings) {
        EXPECT_FALSE(w.starts_with("0_") || w.starts_with("1_")) << w;
    }
}

} // namespace
} // namespace starscope::tracer
