// What the chart says about a span, without a widget: the barriers it starts in are named only
// when the chart shows them, a task's fields come with its span, and a crowded spot says so.
#include "tests/support/synthetic_trace.hpp"
#include "tracer/model/names.hpp"
#include "viewer/core/format/time_format.hpp"
#include "viewer/gui/chart/span_description.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <gtest/gtest.h>

using namespace starscope::viewer;

namespace {

class SpanDescription : public ::testing::Test {
protected:
    void SetUp() override {
        document = prepareDocument(makeSyntheticTrace({}), "synthetic");
        barriers = computeBarriers(*document, 100'000);
        ASSERT_FALSE(barriers.empty());
    }

    // The first span of worker 0 whose start is the first barrier's: it sleeps there.
    SpanRef sleepingInBarrier() const {
        const auto& spans = document->trace.lanes[0].levels[0];
        const auto it = std::find_if(spans.begin(), spans.end(), [&](const auto& span) {
            return span.start == barriers.front().start;
        });
        EXPECT_NE(it, spans.end());
        return {0, 0, static_cast<std::size_t>(it - spans.begin())};
    }

    std::shared_ptr<const TraceDocument> document;
    Barriers barriers;
};

TEST_F(SpanDescription, NamesTheBarrierItStartsInOnlyWhenShown) {
    const SpanRef span = sleepingInBarrier();
    const QString barrierLine = QStringLiteral("<br>in a barrier of %1")
                                    .arg(QString::fromStdString(formatDuration(
                                        static_cast<double>(barriers.front().duration()))));

    const QString shown = describeSpan(*document, ShownBarriers{&barriers, nullptr}, span, 1);
    EXPECT_TRUE(shown.startsWith(QStringLiteral("<b>Sleeping</b><br>worker: CPU 0")))
        << shown.toStdString();
    EXPECT_TRUE(shown.contains(barrierLine)) << shown.toStdString();
    EXPECT_TRUE(shown.contains(QStringLiteral("<br>batch: epoch 0 batch 0")))
        << shown.toStdString();

    const QString hidden = describeSpan(*document, ShownBarriers{}, span, 1);
    EXPECT_FALSE(hidden.contains(QStringLiteral("barrier"))) << hidden.toStdString();
    EXPECT_TRUE(shown.startsWith(hidden)) << hidden.toStdString();
}

TEST_F(SpanDescription, ATaskSpanGivesItsJobAndItsDetailsTheTaskFields) {
    // Worker 0 sleeps, schedules, then runs job 0 (conv_fwd), submitted at 20 us * 1/9.
    const SpanRef task{0, 0, 2};
    const QString tooltip = describeSpan(*document, ShownBarriers{&barriers, nullptr}, task, 1);
    EXPECT_TRUE(tooltip.startsWith(QStringLiteral("<b>conv_fwd</b><br>job 0<br>worker: CPU 0")))
        << tooltip.toStdString();
    EXPECT_FALSE(tooltip.contains(QStringLiteral("footprint")));

    const QString details = spanDetails(*document, ShownBarriers{&barriers, nullptr}, task, 1);
    EXPECT_TRUE(details.startsWith(tooltip)) << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("<br>state: Executing<br>end: ")))
        << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("<br>footprint: 00000000")))
        << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("<br>submitted: %1 (waited ")
                                     .arg(QString::fromStdString(formatInstant(2'222.0)))))
        << details.toStdString();
}

TEST_F(SpanDescription, SaysWhenSeveralSpansShareTheCursor) {
    const SpanRef span{0, 0, 2};
    EXPECT_FALSE(
        describeSpan(*document, ShownBarriers{}, span, 1).contains(QStringLiteral("zoom in")));
    const QString crowded = describeSpan(*document, ShownBarriers{}, span, 2);
    EXPECT_TRUE(crowded.endsWith(
        QStringLiteral("<br><i>2 spans within 4 px here: zoom in to separate them</i>")))
        << crowded.toStdString();
}

} // namespace

// A 223 us task 1.78 s into the trace: its start and end differ in the details (both read
// "1.780 s" as durations), and the tooltip's start is as precise.
TEST(SpanDetails, StartAndEndOfAShortLateTaskDiffer) {
    SyntheticOptions options;
    options.cpuWorkers = 1;
    options.batchesPerEpoch = 1;
    options.tasksPerWorker = 1;
    options.taskNs = 223'000;
    starscope::tracer::Trace trace = makeSyntheticTrace(options);
    constexpr starscope::tracer::TimeNs kLate = 1'780'000'000;
    for (auto& lane : trace.lanes) {
        for (auto& level : lane.levels) {
            for (auto& span : level.edit()) {
                span = starscope::tracer::Span{span.start + kLate, span.end + kLate, span.state, span.runsTask != 0};
            }
        }
    }
    for (auto& task : trace.tasks.edit()) {
        for (starscope::tracer::PackedTime* t : {&task.submit, &task.start, &task.end}) {
            if (*t >= 0) {
                *t = *t + kLate;
            }
        }
    }
    trace.end += kLate;
    const auto document = prepareDocument(std::move(trace), "late");
    const auto& spans = document->trace.lanes[0].levels[0];
    const auto task = std::find_if(spans.begin(), spans.end(), [&](const auto& s) {
        return document->trace.taskOf(document->trace.lanes[0], s) != nullptr;
    });
    ASSERT_NE(task, spans.end());
    const SpanRef ref{0, 0, static_cast<std::size_t>(task - spans.begin())};
    const QString details = spanDetails(*document, ShownBarriers{}, ref, 1);
    const QString start = QString::fromStdString(formatInstant(static_cast<double>(task->start)));
    const QString end = QString::fromStdString(formatInstant(static_cast<double>(task->end)));
    ASSERT_NE(start, end);
    EXPECT_TRUE(details.contains(QStringLiteral("start: ") + start)) << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("end: ") + end)) << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("duration: 223.0 us"))) << details.toStdString();
}

// On a 2-rank job a task of rank 1 is "rank 1 job N", as StarPU numbered it in its process,
// never the id the readers pack it into (2^48 + N).
TEST(SpanDescriptionOfRanks, ATaskOfAnotherRankIsNamedByItsRank) {
    const auto document = prepareDocument(makeSyntheticRanksTrace({}, 2), "synthetic ranks");
    const auto& trace = document->trace;
    const auto lane = std::find_if(trace.lanes.begin(), trace.lanes.end(), [](const starscope::tracer::Lane& l) {
        return l.rank == 1 && l.isWorker();
    });
    ASSERT_NE(lane, trace.lanes.end());
    const auto& spans = lane->levels[0];
    const auto span = std::find_if(spans.begin(), spans.end(), [](const auto& s) { return s.runsTask != 0; });
    ASSERT_NE(span, spans.end());
    const auto* task = trace.taskOf(*lane, *span);
    ASSERT_NE(task, nullptr);
    const std::uint64_t own = task->jobId - starscope::tracer::jobOfProcess(1, 0);
    const SpanRef ref{static_cast<std::size_t>(lane - trace.lanes.begin()), 0, static_cast<std::size_t>(span - spans.begin())};
    const QString tooltip = describeSpan(*document, ShownBarriers{}, ref, 1);
    const QString expected = QStringLiteral("<b>%1</b><br>rank 1 job %2")
                                 .arg(QString::fromStdString(std::string(trace.codeletOf(*task))))
                                 .arg(own);
    EXPECT_TRUE(tooltip.startsWith(expected)) << tooltip.toStdString();
    EXPECT_FALSE(tooltip.contains(QString::number(task->jobId))) << tooltip.toStdString();
}
