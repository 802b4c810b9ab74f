// The names a user is shown (tracer/model/names.hpp): jobs of other ranks as "rank 1 job 152",
// tasks without a readable name as "unnamed (job N)", and a trace read back with codelet names
// that are not text (what a 1.3 release records for jobs that never ran): one warning, and no
// such byte in the codelet table, the CSV or a task's name. User threads' lanes: the readers'
// tests (paje_reader_test.cpp).

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/codelet_stats.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/model/names.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/readers/read_trace.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace starscope::tracer {
namespace {

using namespace testing;

TEST(Names, PrintableTextIsValidUtf8WithoutControls) {
    EXPECT_TRUE(isPrintableText("gemm"));
    EXPECT_TRUE(isPrintableText(""));
    EXPECT_TRUE(isPrintableText("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80"));
    EXPECT_FALSE(isPrintableText("caf\xe9"));       // Latin-1
    EXPECT_FALSE(isPrintableText("\x01\xa0\xffU")); // garbage of a job that never ran
    EXPECT_FALSE(isPrintableText("a\nb"));
    EXPECT_FALSE(isPrintableText("\xc0\xaf"));     // overlong
    EXPECT_FALSE(isPrintableText("\xed\xa0\x80")); // a surrogate
    EXPECT_FALSE(isPrintableText("\xe2\x86"));     // cut short
}

TEST(Names, JobsOfOtherRanksAreNamedByRank) {
    Trace one;
    EXPECT_EQ(jobName(one, 152), "job 152");
    Trace job;
    job.ranks = {RankInfo{0, 2, "prof_file__0"}, RankInfo{1, 2, "prof_file__1"}};
    EXPECT_EQ(jobOfProcess(1, 152), 281474976710808U);
    EXPECT_EQ(jobName(job, 281474976710808U), "rank 1 job 152");
    EXPECT_EQ(jobName(job, 152), "rank 0 job 152");
}

// CPU 0 runs gemm (0-100) and a task StarPU names "\x01\xa0\xffU" (200-300); two jobs that never
// ran carry the same bytes and "?D\xffU".
Trace garbled() {
    auto trace = makeTrace(
        {{"CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 100}, {"Executing", 200, 300}}}}, 400);
    auto& tasks = trace.tasks.edit();
    Task never;
    never.jobId = 7;
    tasks.push_back(never);
    never.jobId = 8;
    tasks.push_back(never);
    const auto gemm = trace.names.intern("gemm");
    const auto bytes = trace.names.intern("\x01\xa0\xffU");
    const auto other = trace.names.intern("?D\xffU");
    trace.setCodelet(tasks[0], gemm, 1);
    trace.setCodelet(tasks[1], bytes, 2);
    trace.setCodelet(tasks[2], bytes, 0);
    trace.setCodelet(tasks[3], other, 0);
    trace.indexTasks();
    return trace;
}

TEST(Names, CodeletNamesThatAreNoTextAreUnnamedWithOneWarning) {
    starscope::testing::TempDir dir;
    const auto file = dir / "garbled.sst";
    ASSERT_TRUE(writeNativeFile(garbled(), file));
    const auto trace = readTrace(file);
    ASSERT_TRUE(trace) << trace.error().describe();
    const auto warned =
        std::count_if(trace->warnings.begin(), trace->warnings.end(), [](const std::string& w) {
            return w.find("not printable text") != std::string::npos;
        });
    EXPECT_EQ(warned, 1);
    EXPECT_NE(std::find(trace->warnings.begin(), trace->warnings.end(), unprintableNamesWarning(3)),
              trace->warnings.end());

    ASSERT_EQ(trace->tasks.size(), 4U);
    EXPECT_EQ(taskName(*trace, trace->tasks[0]), "gemm");
    EXPECT_EQ(taskName(*trace, trace->tasks[1]), "unnamed (job 2)");
    EXPECT_EQ(taskName(*trace, trace->tasks[2]), "unnamed (job 7)");
    EXPECT_EQ(taskName(*trace, trace->tasks[3]), "unnamed (job 8)");
    EXPECT_EQ(trace->footprintOf(trace->tasks[1]), 2U); // only the name goes

    for (const auto& c : computeCodeletStats(*trace)) {
        EXPECT_TRUE(isPrintableText(c.codelet)) << c.codelet;
    }
    std::ostringstream tasks;
    writeTasksCsv(*trace, tasks);
    EXPECT_EQ(tasks.str().find('\xff'), std::string::npos) << tasks.str();
    std::ostringstream spans;
    writeSpansCsv(*trace, spans);
    EXPECT_EQ(spans.str().find('\xff'), std::string::npos) << spans.str();

    // A trace whose names are all text is left as it was, without a warning.
    const auto clean =
        readTrace(starscope::testing::testDataDir() / "tracer" / "small" / "prof_file__0");
    ASSERT_TRUE(clean) << clean.error().describe();
    EXPECT_TRUE(
        std::none_of(clean->warnings.begin(), clean->warnings.end(), [](const std::string& w) {
            return w.find("not printable text") != std::string::npos;
        }));
}

} // namespace
} // namespace starscope::tracer
