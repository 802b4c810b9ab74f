// FxT's buffer flushes on traces StarPU records with a 1 MB buffer (STARPU_TRACE_BUFFER_SIZE=1):
// checked against the prof file's own fut_start_flush / fut_stop_flush and codelet events, the
// lane of the thread that wrote showing "Trace flush" for exactly that interval, a task holding
// a flush kept as its longer part, the barriers it caused attributed to it, the native file and
// a Paje export keeping them, the recorder's totals, and `starscope stats` printing them.

#include "tests/support/test_support.hpp"
#include "tests/tracer/recording_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/analysis/trace_flushes.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/readers/fxt/fxt_events.hpp"
#include "tracer/readers/fxt/starpu_1_4_12_codes.hpp"
#include "tracer/readers/fxt/starpu_layout.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/report/duration_format.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

namespace starscope::tracer {
namespace {

using starscope::testing::TempDir;
using namespace testing;

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

// A flush whose writing thread the trace does not tell (no "fxt flush" event after it, as at
// shutdown on a slow run; seen on a loaded machine) is not shown, with a warning.
bool everyFlushShown(const Trace& trace) {
    return std::none_of(trace.warnings.begin(), trace.warnings.end(),
                        [](const auto& w) { return w.find("are not shown") != std::string::npos; });
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
    // Each flush shown is one of libfxt's intervals, exactly; all of them unless the reader
    // warned about one it could not place.
    TimeNs shown = 0;
    for (const auto& f : flushes) {
        shown += f.duration();
        EXPECT_NE(std::find(s_raw->intervals.begin(), s_raw->intervals.end(), std::pair(f.start, f.end)),
                  s_raw->intervals.end())
            << "a flush from " << f.start << " to " << f.end << " that libfxt did not record";
    }
    EXPECT_EQ(summary.traceFlushTotal, shown);
    TimeNs total = 0;
    for (const auto& [start, end] : s_raw->intervals) {
        total += end - start;
    }
    if (everyFlushShown(trace)) {
        EXPECT_EQ(shown, total);
    } else {
        EXPECT_LT(shown, total);
    }
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
    // The recorder counts even the flushes the trace cannot place.
    if (everyFlushShown(*s_trace)) {
        EXPECT_EQ(totals->count, summary.traceFlushes);
        EXPECT_EQ(totals->totalNs, summary.traceFlushTotal);
        EXPECT_EQ(totals->maxNs, summary.traceFlushMax);
    } else {
        EXPECT_LT(summary.traceFlushes, totals->count);
        EXPECT_LT(summary.traceFlushTotal, totals->totalNs);
    }
    const auto none = measureFxtFlushes(goldenRun("small") / "prof_file__0");
    ASSERT_TRUE(none) << none.error().describe();
    EXPECT_EQ(*none, FxtFlushTotals{});
}

// `starscope stats`, as a user runs it: a trace with flushes gets their lines, column, row and
// JSON keys, equal to the analysis's figures; a trace without flushes none of them.
struct Stats {
    std::string text;
    nlohmann::json json;
};
Stats statsOf(const std::filesystem::path& input, const TempDir& dir) {
    const std::string bin = STARSCOPE_EXECUTABLE;
    const auto text = dir / "stats.txt";
    const auto json = dir / "stats.json";
    EXPECT_EQ(starscope::testing::runCommand("'" + bin + "' stats '" + input.string() + "' > '"
                                             + text.string() + "' 2>&1"),
              0);
    EXPECT_EQ(starscope::testing::runCommand("'" + bin + "' stats --json '" + input.string()
                                             + "' > '" + json.string() + "' 2>&1"),
              0);
    return {starscope::testing::readFile(text),
            nlohmann::json::parse(starscope::testing::readFile(json))};
}

TEST_F(RecordedFlushes, StatsPrintThemAndTheFiguresWithoutThem) {
    const auto s = summarize(*s_trace);
    const TempDir dir;
    const auto stats = statsOf(s_prof, dir);
    const auto& summary = stats.json.at("summary");
    EXPECT_EQ(summary.at("trace_flushes"), (nlohmann::json{{"count", s.traceFlushes},
                                                           {"total_ns", s.traceFlushTotal},
                                                           {"max_ns", s.traceFlushMax}}));
    EXPECT_EQ(summary.at("worker_time_ns").at("tracing"), s.workerTotals.tracing);
    const auto& without = summary.at("without_tracing");
    EXPECT_EQ(without.at("makespan_ns"), s.withoutTracing.makespan);
    EXPECT_EQ(without.at("idleness"), s.withoutTracing.idleness);
    EXPECT_EQ(without.at("barrier_share"), s.withoutTracing.barrierShare);
    EXPECT_EQ(without.at("barriers").at("count"), s.withoutTracing.barrierCount);
    EXPECT_EQ(without.at("barriers").at("total_ns"), s.withoutTracing.barrierTotal);
    EXPECT_EQ(without.at("worker_time_ns").at("executing"),
              s.withoutTracing.workerTotals.executing);
    EXPECT_EQ(without.at("worker_time_ns").at("sleeping"), s.withoutTracing.workerTotals.sleeping);
    TimeNs lanesTracing = 0;
    for (const auto& lane : stats.json.at("lanes")) {
        lanesTracing += lane.at("tracing_ns").get<TimeNs>();
    }
    EXPECT_EQ(lanesTracing, s.traceFlushTotal);
    const auto& text = stats.text;
    EXPECT_NE(text.find("trace flushes  " + std::to_string(s.traceFlushes) + " (total "),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("without them   makespan " + formatDuration(s.withoutTracing.makespan)),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("\noutside flushes "), std::string::npos) << text;
    EXPECT_NE(text.find("trace flush   tasks\n"), std::string::npos) << text;

    // A trace without flushes prints none of it (its golden outputs are unchanged).
    const auto plain = statsOf(smallProfFile(), dir);
    EXPECT_FALSE(plain.json.at("summary").contains("trace_flushes"));
    EXPECT_FALSE(plain.json.at("summary").contains("without_tracing"));
    EXPECT_FALSE(plain.json.at("summary").at("worker_time_ns").contains("tracing"));
    EXPECT_FALSE(plain.json.at("lanes").at(0).contains("tracing_ns"));
    EXPECT_EQ(plain.text.find("trace flush"), std::string::npos) << plain.text;
}

} // namespace
} // namespace starscope::tracer
