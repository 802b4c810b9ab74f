// The viewer's task count is the one `stats` prints: executed tasks, with StarPU's internal
// jobs that never ran said apart ("14,655 tasks executed (41,652 jobs)") instead of counted.
#include "tests/support/test_support.hpp"
#include "tracer/analysis/stats.hpp"
#include "viewer/core/document/trace_document.hpp"

#include <gtest/gtest.h>

#include <regex>

using namespace starscope::viewer;

namespace {

namespace fs = std::filesystem;

std::shared_ptr<const TraceDocument> load(const fs::path& input) {
    auto document = loadDocument(input);
    EXPECT_TRUE(document) << input << ": " << document.error().describe();
    return document ? *document : nullptr;
}

TEST(TaskCounts, ThousandsAreGrouped) {
    EXPECT_EQ(groupThousands(0), "0");
    EXPECT_EQ(groupThousands(999), "999");
    EXPECT_EQ(groupThousands(1000), "1,000");
    EXPECT_EQ(groupThousands(41652), "41,652");
    EXPECT_EQ(groupThousands(1234567), "1,234,567");
}

// tests/data/tracer/small/stats.txt is what `starscope stats` printed for that prof file.
TEST(TaskCounts, MatchTheTracersStatsOnARealTrace) {
    const fs::path folder = starscope::testing::testDataDir() / "tracer" / "small";
    const auto document = load(folder / "prof_file__0");
    ASSERT_TRUE(document);
    const std::string stats = starscope::testing::readFile(folder / "stats.txt");
    std::smatch match;
    ASSERT_TRUE(std::regex_search(stats, match, std::regex(R"(tasks (\d+), markers)"))) << stats;
    const auto printed = static_cast<std::size_t>(std::stoul(match[1].str()));
    EXPECT_EQ(document->executedTasks, printed);
    EXPECT_EQ(document->executedTasks, starscope::tracer::summarize(document->trace).tasks);
    const std::string text = taskCountText(*document);
    EXPECT_EQ(text.rfind(groupThousands(printed) + " tasks executed", 0), 0u) << text;
    const std::size_t jobs = document->trace.tasks.size();
    EXPECT_EQ(text.find(" jobs)") != std::string::npos, jobs != printed) << text;
}

TEST(TaskCounts, EveryRecordedTraceCountsWhatStatsCounts) {
    const fs::path data = starscope::testing::testDataDir();
    for (const fs::path& input : {data / "tracer" / "small14" / "prof_file__0", data / "tracer" / "masked13" / "prof_file__0",
                                 data / "tracer" / "masked14" / "prof_file__0", data / "viewer" / "single_naive"}) {
        const auto document = load(input);
        ASSERT_TRUE(document);
        const std::size_t executed = starscope::tracer::summarize(document->trace).tasks;
        EXPECT_EQ(document->executedTasks, executed) << input;
        const std::size_t jobs = document->trace.tasks.size();
        const std::string expected = groupThousands(executed) + " tasks executed"
                                     + (jobs == executed ? "" : " (" + groupThousands(jobs) + " jobs)");
        EXPECT_EQ(taskCountText(*document), expected) << input;
    }
}

// Jobs without a start (StarPU's tags, callbacks, data requests) are said apart, not counted.
TEST(TaskCounts, JobsThatNeverRanAreSaidApart) {
    const fs::path input = starscope::testing::testDataDir() / "tracer" / "small" / "prof_file__0";
    const auto document = load(input);
    ASSERT_TRUE(document);
    starscope::tracer::Trace trace = document->trace;
    const std::size_t ran = document->executedTasks;
    ASSERT_GT(ran, 1u);
    const std::size_t before = trace.tasks.size();
    for (int i = 0; i < 1000; ++i) {
        starscope::tracer::Task internal;
        internal.jobId = trace.tasks.back().jobId + 1;
        trace.tasks.push_back(internal);
    }
    const auto padded = prepareDocument(std::move(trace), "padded");
    EXPECT_EQ(padded->executedTasks, ran);
    EXPECT_EQ(taskCountText(*padded),
              groupThousands(ran) + " tasks executed (" + groupThousands(before + 1000) + " jobs)");
}

} // namespace
