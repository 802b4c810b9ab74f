// What `stats` and `barriers` show, computed once as a value (StatsReport, BarriersReport), and
// their printers, which only format it: the figures of the analysis, and the same figures in the
// text and in the JSON.

#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/cli/barriers_report.hpp"
#include "tracer/cli/stats_report.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/report/duration_format.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace starscope::tracer {
namespace {

using cli::detail::makeBarriersReport;
using cli::detail::makeStatsReport;

Trace small() {
    auto trace = readTrace(testing::smallProfFile());
    EXPECT_TRUE(trace) << trace.error().describe();
    return std::move(trace).value();
}

TEST(StatsReport, HoldsTheAnalysisFiguresOfTheWholeTrace) {
    const auto trace = small();
    const auto report =
        makeStatsReport(trace, "small", BarrierOptions{}.threshold, trace.begin, trace.end);
    EXPECT_TRUE(report.whole);
    EXPECT_EQ(report.format, "fxt");
    EXPECT_EQ(report.range, computeStats(trace));
    EXPECT_EQ(report.summary, summarize(trace));
    EXPECT_GT(report.markers, 0U);
    EXPECT_FALSE(report.codelets.empty());
    EXPECT_FALSE(report.machine.heterogeneous());
}

TEST(StatsReport, OfARangeKeepsTheWholeTracesSummary) {
    const auto trace = small();
    const TimeNs from = trace.begin + (trace.end - trace.begin) / 4;
    const TimeNs to = trace.begin + (trace.end - trace.begin) / 2;
    const auto report = makeStatsReport(trace, "small", BarrierOptions{}.threshold, from, to);
    EXPECT_FALSE(report.whole);
    EXPECT_EQ(report.range, computeRangeStats(trace, from, to));
    EXPECT_EQ(report.summary, summarize(trace));
}

TEST(StatsReport, TextAndJsonPrintTheSameFigures) {
    const auto trace = small();
    const auto report =
        makeStatsReport(trace, "small", BarrierOptions{}.threshold, trace.begin, trace.end);
    std::ostringstream text;
    printStatsText(report, text);
    std::ostringstream json;
    printStatsJson(report, json);
    const auto doc = nlohmann::json::parse(json.str());
    EXPECT_EQ(doc["summary"]["makespan_ns"], report.summary.makespan);
    EXPECT_EQ(doc["summary"]["barriers"]["count"], report.summary.barrierCount);
    EXPECT_EQ(doc["barrier_threshold_ns"], report.threshold);
    EXPECT_NE(text.str().find("makespan       " + formatDuration(report.summary.makespan) + "\n"),
              std::string::npos)
        << text.str();
    EXPECT_NE(text.str().find("barriers       " + std::to_string(report.summary.barrierCount)
                              + " (total "),
              std::string::npos)
        << text.str();
}

TEST(BarriersReport, HoldsTheJobsAndRanksBarriersAndPrintsThemInTextAndJson) {
    const auto trace = readTrace(testing::goldenRun("ranks13"));
    ASSERT_TRUE(trace) << trace.error().describe();
    const auto report = makeBarriersReport(*trace, "ranks13", BarrierOptions{}.threshold);
    EXPECT_EQ(report.barriers, findJobAndRankBarriers(*trace));
    ASSERT_FALSE(report.barriers.empty());
    ASSERT_TRUE(report.transitionCount.value);
    EXPECT_EQ(*report.transitionCount.value, findTransitions(*trace).size());
    std::ostringstream json;
    printBarriersJson(report, json);
    EXPECT_EQ(nlohmann::json::parse(json.str())["barriers"].size(), report.barriers.size());
    std::ostringstream text;
    printBarriersText(report, text);
    EXPECT_NE(text.str().find(std::to_string(report.barriers.size()) + " barriers longer than "),
              std::string::npos)
        << text.str();
}

} // namespace
} // namespace starscope::tracer
