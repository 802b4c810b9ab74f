// FxT profiling stopped and restarted (starpu_fxt_stop_profiling / start_profiling): that time
// is "Not profiled" on every lane, never sleeping, idle, part of a barrier or of an efficiency.
// Checked on golden traces of StarPU 1.3.10 and 1.4.12 and on a trace recorded now with the
// StarPU the tests are built against, each against its own starpu_fxt_tool: executed work is
// identical; the time starpu_fxt_tool draws as the last state before the stop is ours
// "Not profiled".

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/model/time_unit.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace starscope::tracer {
namespace {

using namespace testing;

TimeNs markerTime(const Trace& trace, std::string_view text) {
    const auto it = std::find_if(trace.markers.begin(), trace.markers.end(),
                                 [&](const MarkerEvent& m) { return trace.textOf(m) == text; });
    return it == trace.markers.end() ? TimeNs{-1} : TimeNs{it->time};
}

// In nanoseconds whatever the trace's tick (a Paje trace may be read at a finer one).
TimeNs notProfiledNs(const Trace& trace) {
    return summarize(trace).workerTotals.notProfiled / (ticksPerSecond(trace) / kNsPerSecond);
}

// The whole check, for a run folder holding prof_file__0 and its own version's paje.trace.
void expectMaskHonoured(const std::filesystem::path& run) {
    const auto fxt = readTrace(run / "prof_file__0");
    const auto paje = readTrace(run / "paje.trace");
    ASSERT_TRUE(fxt) << fxt.error().describe();
    ASSERT_TRUE(paje) << paje.error().describe();

    const TimeNs stop = markerTime(*fxt, "stop_profiling");
    const TimeNs start = markerTime(*fxt, "start_profiling");
    ASSERT_GE(stop, 0) << "no stop_profiling event in " << run;
    ASSERT_GT(start, stop);

    // Every worker is "Not profiled" from the stop on, at least until the restart, and
    // nothing else is drawn on it in between.
    std::size_t workers = 0;
    for (const auto& lane : fxt->lanes) {
        if (!lane.isWorker()) {
            continue;
        }
        ++workers;
        bool covered = false;
        for (const auto& span : lane.spans()) {
            const auto cls = fxt->states[span.state].cls;
            if (cls == StateClass::NotProfiled) {
                covered = covered || (span.start == stop && span.end >= start);
                EXPECT_EQ(fxt->states[span.state].name, kNotProfiledState);
            } else {
                EXPECT_TRUE(span.end <= stop || span.start >= start)
                    << lane.name << ": " << fxt->states[span.state].name << " span [" << span.start << ", "
                    << span.end << ") inside the unprofiled stretch [" << stop << ", " << start << ")";
            }
        }
        EXPECT_TRUE(covered) << lane.name << " is not \"Not profiled\" over [" << stop << ", " << start << ")";
    }
    EXPECT_EQ(workers, 2U);

    // Same executed work as the version's own starpu_fxt_tool; its time drawn as the last
    // state before the stop is ours "Not profiled", never sleeping.
    expectSameWorkAsStarpuFxtTool(*fxt, *paje);

    // No barrier is found where nothing was recorded, and the efficiencies ignore that time.
    const auto summary = summarize(*fxt);
    EXPECT_GT(summary.workerTotals.notProfiled, 0);
    for (const auto& barrier : findBarriers(*fxt)) {
        EXPECT_TRUE(barrier.end <= stop || barrier.start >= start)
            << "barrier [" << barrier.start << ", " << barrier.end << ") inside the unprofiled stretch";
    }
    const double tt = static_cast<double>(summary.workerTotals.executing);
    EXPECT_GT(summary.efficiencies.pipeline, 0.0);
    EXPECT_LE(summary.efficiencies.pipeline * tt, tt + static_cast<double>(summary.workerTotals.overhead));
    const bool warned = std::any_of(fxt->warnings.begin(), fxt->warnings.end(), [](const std::string& w) {
        return w.find("profiling was stopped") != std::string::npos;
    });
    EXPECT_TRUE(warned);
}

TEST(ProfilingMask, GoldenStarpu13) { expectMaskHonoured(goldenRun("masked13")); }

TEST(ProfilingMask, GoldenStarpu14) { expectMaskHonoured(goldenRun("masked14")); }

TEST(ProfilingMask, FreshRecordingWithTheBuiltStarpu) {
    starscope::testing::TempDir dir;
    const auto run = dir / "run";
    ASSERT_EQ(recordSample(run, "--batches 4 --tasks 8 --task-us 300 --load-us 2000 --gate-us 3000 --ncpu 2 "
                                "--chains 2 --unprofiled-batch 1"),
              0)
        << starscope::testing::readFile(dir.path() / "run.log");
    const auto files = findProfFiles(run);
    ASSERT_EQ(files.size(), 1U);
    std::filesystem::rename(files.front(), run / "prof_file__0");
    ASSERT_EQ(runStarpuFxtTool(run / "prof_file__0", run), 0) << starscope::testing::readFile(run / "tool.log");
    expectMaskHonoured(run);
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
