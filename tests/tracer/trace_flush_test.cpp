// FxT's buffer flushes: the thread that wrote the buffer found from the events around libfxt's
// fut_start_flush / fut_stop_flush, its lane "Trace flush" for exactly that interval, a task it
// ran kept as the longer part beside it, the barriers it caused attributed to it, the figures
// without it, and the flushes kept by the native file and a Paje export.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/analysis/trace_flushes.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/readers/fxt/buffer_flushes.hpp"
#include "tracer/readers/fxt/fxt_events.hpp"
#include "tracer/readers/fxt/starpu_1_4_12_codes.hpp"
#include "tracer/readers/fxt/starpu_layout.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/readers/trace_builder.hpp"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <memory>

namespace starscope::tracer {
namespace {

using starscope::testing::TempDir;
using namespace testing;
using detail::BufferFlushes;

TEST(BufferFlushes, TheFirstThreadSeenAfterStarpusEventAndNotDuringTheWriteWroteIt) {
    BufferFlushes flushes;
    EXPECT_FALSE(flushes.pending());
    flushes.start(100);
    flushes.stop(200);
    EXPECT_FALSE(flushes.threadEvent(1)); // recorded into the next buffer meanwhile
    flushes.callback();
    EXPECT_FALSE(flushes.threadEvent(-1)); // an event of no known thread tells nothing
    EXPECT_FALSE(flushes.threadEvent(1));
    EXPECT_EQ(flushes.threadEvent(2), (BufferFlushes::Flush{2, 100, 200}));
    EXPECT_FALSE(flushes.pending());
    EXPECT_FALSE(flushes.threadEvent(3));
    flushes.finish();
    EXPECT_EQ(flushes.attributed(), 1U);
    EXPECT_EQ(flushes.unattributed(), 0U);
}

TEST(BufferFlushes, WithoutStarpusEventAFlushFindsNoThread) {
    BufferFlushes flushes;
    flushes.start(100);
    flushes.stop(200);
    EXPECT_FALSE(flushes.threadEvent(2));
    flushes.start(300); // the next flush: the first one stays without a thread
    flushes.stop(400);
    EXPECT_FALSE(flushes.threadEvent(3));
    flushes.finish();
    EXPECT_EQ(flushes.attributed(), 0U);
    EXPECT_EQ(flushes.unattributed(), 2U);
}

// One worker runs job 1 from 10 to `end`, interrupted by a flush [50,80); the main thread waits
// from 0 to 40, interrupted by a flush [20,30).
Trace interrupted(TimeNs end) {
    detail::TraceBuilder b;
    const auto worker = b.addLane("CPU 0", LaneKind::CpuWorker, 0, 0);
    const auto main = b.addLane("main", LaneKind::MainThread, -1, -1);
    const auto executing = b.state(detail::kExecutingState, LaneKind::CpuWorker);
    b.setState(worker, 10, executing, b.task(1));
    b.interruptState(worker, 50, 80, b.state(kTraceFlushState, LaneKind::CpuWorker));
    b.setState(worker, end, b.state("Overhead", LaneKind::CpuWorker));
    b.pushState(main, 0, b.state("Waiting all tasks", LaneKind::MainThread));
    b.interruptState(main, 20, 30, b.state(kTraceFlushState, LaneKind::MainThread));
    b.popState(main, 40);
    return b.finish(300);
}

TEST(TraceBuilder, AnInterruptedTaskIsItsLongerPartAndTheStatesResume) {
    // Executing, the flush, executing again, overhead: the task is the longer part.
    for (const TimeNs end : {TimeNs{100}, TimeNs{200}}) {
        const auto trace = interrupted(end);
        const auto& spans = trace.lanes[0].spans();
        ASSERT_EQ(spans.size(), 4U) << end;
        EXPECT_EQ(trace.stateOf(spans[1]).name, kTraceFlushState);
        EXPECT_EQ(trace.stateOf(spans[1]).cls, StateClass::Tracing);
        EXPECT_EQ(std::make_pair(spans[1].start, spans[1].end),
                  std::make_pair(TimeNs{50}, TimeNs{80}));
        EXPECT_EQ(trace.stateOf(spans[2]).name, detail::kExecutingState);
        ASSERT_EQ(trace.tasks.size(), 1U);
        const auto& task = trace.tasks[0];
        const bool before = end == 100; // 40 ns before the flush, 20 after; else 120 after
        EXPECT_EQ(task.start, before ? 10 : 80) << end;
        EXPECT_EQ(task.end, before ? 50 : end) << end;
        EXPECT_EQ(spans[0].runsTask, before ? 1U : 0U) << end;
        EXPECT_EQ(spans[2].runsTask, before ? 0U : 1U) << end;
        EXPECT_EQ(trace.taskOf(trace.lanes[0], spans[before ? 0 : 2]), &task);
        EXPECT_TRUE(trace.warnings.empty());
        // The main thread's state (its first push is its base level) around the flush.
        const auto& main = trace.lanes[1].spans();
        ASSERT_EQ(main.size(), 3U);
        EXPECT_EQ(trace.stateOf(main[0]).name, "Waiting all tasks");
        EXPECT_EQ(trace.stateOf(main[1]).cls, StateClass::Tracing);
        EXPECT_EQ(trace.stateOf(main[2]).name, "Waiting all tasks");
        EXPECT_EQ(std::make_pair(main[2].start, main[2].end),
                  std::make_pair(TimeNs{30}, TimeNs{40}));
    }
}

// Worker A executes [0,100), writes the trace [100,150) and executes [150,300); worker B
// executes [0,90), sleeps [90,200) and executes [200,300): no worker executes in [100,150).
Trace handBuilt() {
    return makeTrace({{"A",
                       LaneKind::CpuWorker,
                       {{"Executing", 0, 100},
                        {std::string(kTraceFlushState), 100, 150},
                        {"Executing", 150, 300}}},
                      {"B",
                       LaneKind::CpuWorker,
                       {{"Executing", 0, 90}, {"Sleeping", 90, 200}, {"Executing", 200, 300}}}},
                     300);
}

TEST(TraceFlushes, AreTheTracingSpansAndCauseTheBarriersTheyOverlap) {
    const auto trace = handBuilt();
    EXPECT_EQ(findTraceFlushes(trace), (std::vector<TraceFlush>{{0, -1, 100, 150}}));
    EXPECT_TRUE(findTraceFlushes(trace, 3).empty());
    BarrierOptions options;
    options.threshold = 10;
    const auto barriers = findBarriers(trace, options);
    ASSERT_EQ(barriers.size(), 1U);
    EXPECT_EQ(barriers[0].start, 100);
    EXPECT_EQ(barriers[0].end, 150);
    EXPECT_EQ(barriers[0].cause, BarrierCause::TraceFlush);
    EXPECT_TRUE(
        findTraceFlushes(makeTrace({{"A", LaneKind::CpuWorker, {{"Executing", 0, 10}}}}, 10))
            .empty());
}

TEST(TraceFlushes, FiguresWithoutThemCutTheirTimeOutOfTheTimeline) {
    const auto trace = handBuilt();
    BarrierOptions options;
    options.threshold = 10;
    const auto s = summarize(trace, options);
    EXPECT_EQ(s.makespan, 300);
    EXPECT_EQ(s.workerTotals.executing, 440);
    EXPECT_EQ(s.workerTotals.tracing, 50);
    EXPECT_EQ(s.barrierCount, 1U);
    EXPECT_DOUBLE_EQ(s.barrierShare, 50.0 / 300.0);
    EXPECT_EQ(s.traceFlushes, 1U);
    EXPECT_EQ(s.traceFlushTotal, 50);
    EXPECT_EQ(s.traceFlushMax, 50);
    const auto& w = s.withoutTracing;
    EXPECT_EQ(w.makespan, 250);
    EXPECT_EQ(w.workerTotals.executing, 440);
    EXPECT_EQ(w.workerTotals.sleeping, 60);
    EXPECT_EQ(w.workerTotals.tracing, 0);
    EXPECT_DOUBLE_EQ(w.idleness, 1.0 - 440.0 / 500.0);
    EXPECT_EQ(w.barrierCount, 0U); // the barrier was the flush
    EXPECT_EQ(w.barrierTotal, 0);
    EXPECT_DOUBLE_EQ(w.barrierShare, 0.0);
}

TEST(TraceFlushes, WithoutAnyTheFiguresWithoutThemAreTheFigures) {
    const auto trace =
        makeTrace({{"A",
                    LaneKind::CpuWorker,
                    {{"Executing", 0, 100}, {"Sleeping", 100, 150}, {"Executing", 150, 300}}}},
                  300);
    BarrierOptions options;
    options.threshold = 10;
    const auto s = summarize(trace, options);
    EXPECT_EQ(s.traceFlushes, 0U);
    EXPECT_EQ(s.withoutTracing.makespan, s.makespan);
    EXPECT_EQ(s.withoutTracing.workerTotals, s.workerTotals);
    EXPECT_EQ(s.withoutTracing.idleness, s.idleness);
    EXPECT_EQ(s.withoutTracing.barrierCount, s.barrierCount);
    EXPECT_EQ(s.withoutTracing.barrierTotal, s.barrierTotal);
    EXPECT_EQ(s.withoutTracing.barrierShare, s.barrierShare);
}

// What the prof file itself says: libfxt's flush intervals, and when each task's start and end
// were recorded (StartCodeletBody, EndCodeletBody), on the trace's clock.
struct RawFlushes {
    std::vector<std::pair<TimeNs, TimeNs>> intervals;
    std::map<std::uint64_t, TimeNs> codeletStarts; // by job
    std::map<std::uint64_t, TimeNs> codeletEnds;
};

RawFlushes rawFlushes(const std::filesystem::path& file) {
    RawFlushes raw;
    TimeNs start = -1;
    const detail::FxtEvents events(file);
    const auto walked = events.walk(
        detail::kFirstDecodedCode, detail::kLastDecodedCode,
        [&](const detail::RawEvent& ev) {
            const auto time = static_cast<TimeNs>(ev.time - ev.origin);
            if (ev.code == detail::kFutStartFlushCode) {
                start = time;
            } else if (ev.code == detail::kFutStopFlushCode) {
                raw.intervals.emplace_back(start, time);
            } else if (ev.paramCount > 0 && ev.code == detail::starpu_1_4_12::StartCodeletBody) {
                raw.codeletStarts[ev.params[0]] = time;
            } else if (ev.paramCount > 0 && ev.code == detail::starpu_1_4_12::EndCodeletBody) {
                raw.codeletEnds[ev.params[0]] = time;
            }
            return true;
        },
        {});
    EXPECT_TRUE(walked) << walked.error().describe();
    return raw;
}

// One worker whose tasks record 1,000 events each, into a 1 MB FxT buffer: it fills about
// every 25 tasks, mostly in the middle of one, and that worker writes it.
class RecordedFlushes : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_dir = std::make_unique<TempDir>();
        ::setenv("STARPU_TRACE_BUFFER_SIZE", "1", 1);
        const int status = recordSample(
            s_dir->path() / "run",
            "--batches 4 --tasks 50 --task-us 100 --load-us 0 --ncpu 1 --task-events 1000");
        ::unsetenv("STARPU_TRACE_BUFFER_SIZE");
        ASSERT_EQ(status, 0);
        s_prof = s_dir->path() / "run" / "prof_file__0";
        auto trace = readTrace(s_prof);
        ASSERT_TRUE(trace) << trace.error().describe();
        s_trace = std::make_unique<Trace>(std::move(trace).value());
        s_raw = std::make_unique<RawFlushes>(rawFlushes(s_prof));
    }
    static void TearDownTestSuite() {
        s_trace.reset();
        s_raw.reset();
        s_dir.reset();
    }
    void SetUp() override {
        ASSERT_NE(s_trace, nullptr);
        ASSERT_GE(s_raw->intervals.size(), 4U)
            << "the 8 MB of events should fill the 1 MB buffer several times";
    }

    static std::unique_ptr<TempDir> s_dir;
    static std::filesystem::path s_prof;
    static std::unique_ptr<Trace> s_trace;
    static std::unique_ptr<RawFlushes> s_raw;
};
std::unique_ptr<TempDir> RecordedFlushes::s_dir;
std::filesystem::path RecordedFlushes::s_prof;
std::unique_ptr<Trace> RecordedFlushes::s_trace;
std::unique_ptr<RawFlushes> RecordedFlushes::s_raw;

TEST_F(RecordedFlushes, EachIsTheWritingThreadsTraceFlushForExactlyLibfxtsInterval) {
    const auto& trace = *s_trace;
    const auto flushes = findTraceFlushes(trace);
    ASSERT_EQ(flushes.size(), s_raw->intervals.size());
    for (std::size_t i = 0; i < flushes.size(); ++i) {
        EXPECT_EQ(flushes[i].start, s_raw->intervals[i].first) << i;
        EXPECT_EQ(flushes[i].end, s_raw->intervals[i].second) << i;
        const auto& lane = trace.lanes[static_cast<std::size_t>(flushes[i].lane)];
        const auto span = std::find_if(lane.spans().begin(), lane.spans().end(),
                                       [&](const Span& s) { return s.start == flushes[i].start; });
        ASSERT_NE(span, lane.spans().end());
        EXPECT_EQ(trace.stateOf(*span).name, kTraceFlushState);
    }
    EXPECT_TRUE(
        std::none_of(trace.warnings.begin(), trace.warnings.end(),
                     [](const std::string& w) { return w.find("flush") != std::string::npos; }));
}

TEST_F(RecordedFlushes, NeverCountAsExecution) {
    const auto& trace = *s_trace;
    const auto flushes = findTraceFlushes(trace);
    std::size_t midTask = 0;
    std::map<std::int32_t, TimeNs> flushTime;
    for (const auto& f : flushes) {
        flushTime[f.lane] += f.duration();
        const auto& lane = trace.lanes[static_cast<std::size_t>(f.lane)];
        for (const auto t : lane.tasks) {
            const auto& task = trace.tasks[t];
            EXPECT_FALSE(task.start < f.end && task.end > f.start)
                << "job " << task.jobId << " runs during a flush";
            // A task whose recorded execution holds the write is the longer of its two parts.
            const auto start = s_raw->codeletStarts.find(task.jobId);
            const auto end = s_raw->codeletEnds.find(task.jobId);
            if (start == s_raw->codeletStarts.end() || end == s_raw->codeletEnds.end()
                || start->second > f.start || end->second < f.end) {
                continue;
            }
            ++midTask;
            const bool before = f.start - start->second >= end->second - f.end;
            EXPECT_EQ(task.start, before ? start->second : f.end) << "job " << task.jobId;
            EXPECT_EQ(task.end, before ? f.start : end->second) << "job " << task.jobId;
        }
    }
    EXPECT_GE(midTask, 1U) << "no flush fell in the middle of a task";
    const auto stats = computeStats(trace);
    for (const auto& l : stats.lanes) {
        EXPECT_EQ(l.classes.tracing, flushTime[l.lane])
            << trace.lanes[static_cast<std::size_t>(l.lane)].name;
    }
    const auto summary = summarize(trace);
    EXPECT_EQ(summary.traceFlushes, flushes.size());
    TimeNs total = 0;
    for (const auto& [start, end] : s_raw->intervals) {
        total += end - start;
    }
    EXPECT_EQ(summary.traceFlushTotal, total);
    EXPECT_EQ(summary.withoutTracing.workerTotals.tracing, 0);
    EXPECT_LT(summary.withoutTracing.makespan, summary.makespan);
}

TEST_F(RecordedFlushes, BarriersOverlappingThemAreTheTracings) {
    const auto& trace = *s_trace;
    const FlushTimeline timeline(findTraceFlushes(trace));
    BarrierOptions options;
    options.threshold = 10'000; // a write of 1 MB takes longer
    std::size_t overlapping = 0;
    for (const auto& b : findBarriers(trace, options)) {
        if (timeline.within(b.start, b.end) > 0) {
            ++overlapping;
            EXPECT_EQ(b.cause, BarrierCause::TraceFlush) << b.start;
        }
    }
    // One worker: each of its flushes is a barrier.
    EXPECT_GE(overlapping, 1U);
}

TEST_F(RecordedFlushes, TheNativeFileAndAPajeExportKeepThem) {
    const auto& trace = *s_trace;
    const auto flushes = findTraceFlushes(trace);
    const TempDir dir;
    ASSERT_TRUE(writeNativeFile(trace, dir / "trace.sstrace"));
    const auto native = readTrace(dir / "trace.sstrace");
    ASSERT_TRUE(native) << native.error().describe();
    EXPECT_EQ(findTraceFlushes(*native), flushes);
    {
        std::ofstream out(dir / "export.paje");
        writePaje(trace, out);
    }
    const auto paje = readTrace(dir / "export.paje");
    ASSERT_TRUE(paje) << paje.error().describe();
    EXPECT_EQ(findTraceFlushes(*paje), flushes);
    EXPECT_EQ(summarize(*paje).withoutTracing, summarize(trace).withoutTracing);
}

TEST_F(RecordedFlushes, TheRecordersTotalsAreTheTracesWithoutReadingIt) {
    const auto totals = measureFxtFlushes(s_prof);
    ASSERT_TRUE(totals) << totals.error().describe();
    FxtFlushTotals expected;
    for (const auto& [start, end] : s_raw->intervals) {
        ++expected.count;
        expected.totalNs += end - start;
        expected.maxNs = std::max(expected.maxNs, end - start);
    }
    EXPECT_EQ(*totals, expected);
    const auto summary = summarize(*s_trace);
    EXPECT_EQ(totals->count, summary.traceFlushes);
    EXPECT_EQ(totals->totalNs, summary.traceFlushTotal);
    EXPECT_EQ(totals->maxNs, summary.traceFlushMax);
    const auto none = measureFxtFlushes(goldenRun("small") / "prof_file__0");
    ASSERT_TRUE(none) << none.error().describe();
    EXPECT_EQ(*none, FxtFlushTotals{});
}

} // namespace
} // namespace starscope::tracer
