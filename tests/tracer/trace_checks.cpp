#include "tests/tracer/trace_checks.hpp"

#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/readers/read_trace.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <string_view>

namespace starscope::tracer::testing {

namespace {

void expectSameWorkerStates(const Trace& fxt, const Trace& paje) {
    const auto a = workerStateTotals(fxt);
    const auto b = workerStateTotals(paje);
    ASSERT_FALSE(a.empty());
    for (const auto& [key, total] : a) {
        const auto it = b.find(key);
        ASSERT_NE(it, b.end()) << "worker " << std::get<0>(key) << " state " << std::get<2>(key)
                               << " level " << std::get<1>(key) << " missing from the Paje trace";
        EXPECT_LE(std::fabs(static_cast<double>(total - it->second)),
                  0.001 * static_cast<double>(total))
            << "worker " << std::get<0>(key) << " state " << std::get<2>(key) << ": fxt " << total
            << " ns, paje " << it->second << " ns";
    }
    for (const auto& [key, total] : b) {
        EXPECT_TRUE(a.contains(key)) << "state " << std::get<2>(key) << " of worker "
                                     << std::get<0>(key) << " only in the Paje trace";
    }
}

void expectSameExecutedTasks(const Trace& fxt, const Trace& paje) {
    std::map<std::uint64_t, const Task*> byJob;
    for (const auto& task : paje.tasks) {
        byJob[task.jobId] = &task;
    }
    std::size_t executed = 0;
    for (const auto& task : fxt.tasks) {
        if (task.start < 0) {
            continue;
        }
        ++executed;
        const auto it = byJob.find(task.jobId);
        ASSERT_NE(it, byJob.end()) << "job " << task.jobId << " not in the Paje trace";
        const Task& other = *it->second;
        EXPECT_EQ(task.start, other.start) << "job " << task.jobId;
        EXPECT_EQ(task.end, other.end) << "job " << task.jobId;
        EXPECT_EQ(fxt.lanes[static_cast<std::size_t>(task.lane)].workerId,
                  paje.lanes[static_cast<std::size_t>(other.lane)].workerId)
            << "job " << task.jobId;
        EXPECT_EQ(fxt.codeletOf(task), paje.codeletOf(other));
        EXPECT_EQ(fxt.footprintOf(task), paje.footprintOf(other)) << "job " << task.jobId;
    }
    EXPECT_EQ(executed, paje.tasks.size());
}

void expectSameWorkers(const Trace& fxt, const Trace& paje) {
    std::size_t matched = 0;
    for (const auto& lane : fxt.lanes) {
        for (const auto& other : paje.lanes) {
            if (lane.isWorker() && other.isWorker() && lane.workerId == other.workerId) {
                ++matched;
                EXPECT_EQ(lane.name, other.name);
                EXPECT_EQ(lane.kind, other.kind);
                EXPECT_EQ(lane.memoryNode, other.memoryNode);
            }
        }
    }
    EXPECT_EQ(matched, 2U);
}

TimeNs markerTime(const Trace& trace, std::string_view text) {
    const auto it = std::find_if(trace.markers.begin(), trace.markers.end(),
                                 [&](const MarkerEvent& m) { return trace.textOf(m) == text; });
    return it == trace.markers.end() ? TimeNs{-1} : TimeNs{it->time};
}

} // namespace

void expectFxtMatchesPaje(const Trace& fxt, const Trace& paje) {
    expectSameWorkers(fxt, paje);
    expectSameWorkerStates(fxt, paje);
    expectSameExecutedTasks(fxt, paje);
}

void expectProfilingMaskHonoured(const std::filesystem::path& run) {
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
                    << lane.name << ": " << fxt->states[span.state].name << " span [" << span.start
                    << ", " << span.end << ") inside the unprofiled stretch [" << stop << ", "
                    << start << ")";
            }
        }
        EXPECT_TRUE(covered) << lane.name << " is not \"Not profiled\" over [" << stop << ", "
                             << start << ")";
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
            << "barrier [" << barrier.start << ", " << barrier.end
            << ") inside the unprofiled stretch";
    }
    const double tt = static_cast<double>(summary.workerTotals.executing);
    EXPECT_GT(summary.efficiencies.pipeline, 0.0);
    EXPECT_LE(summary.efficiencies.pipeline * tt,
              tt + static_cast<double>(summary.workerTotals.overhead));
    const bool warned =
        std::any_of(fxt->warnings.begin(), fxt->warnings.end(), [](const std::string& w) {
            return w.find("profiling was stopped") != std::string::npos;
        });
    EXPECT_TRUE(warned);
}

} // namespace starscope::tracer::testing
