// The overview strip's columns: worker time per state from the prefix sums agrees with a
// direct count over the spans, each column holds at most its workers' time, and a column
// inside a barrier is all sleeping while one in the middle of a batch is mostly executing.

#include "viewer/core/overview_profile.hpp"
#include "tests/support/synthetic_trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace starscope::viewer;
using starscope::tracer::StateClass;
using starscope::tracer::TimeNs;

namespace {

// Worker time of each state within [from, to), counted span by span.
std::vector<TimeNs> directCount(const TraceDocument& document, TimeNs from, TimeNs to) {
    std::vector<TimeNs> times(document.trace.states.size(), 0);
    for (const auto& lane : document.trace.lanes) {
        if (!lane.isWorker()) {
            continue;
        }
        for (const auto& span : lane.spans()) {
            const TimeNs a = std::max(from, span.start);
            const TimeNs b = std::min(to, span.end);
            if (b > a) {
                times[span.state] += b - a;
            }
        }
    }
    return times;
}

double share(const OverviewProfile& profile, const TraceDocument& document, std::size_t column, StateClass cls) {
    TimeNs time = 0;
    for (std::size_t s = 0; s < profile.states; ++s) {
        if (document.trace.states[s].cls == cls) {
            time += profile.column(column)[s];
        }
    }
    return static_cast<double>(time) / static_cast<double>(profile.extents[column]);
}

} // namespace

TEST(OverviewProfile, ColumnsAgreeWithADirectCountOverTheSpans) {
    SyntheticOptions options;
    options.jitter = 0.3;
    const auto document = prepareDocument(makeSyntheticTrace(options), "synthetic");
    const auto [from, to] = fitAllWindow(*document);
    constexpr std::size_t kColumns = 97;   // boundaries fall inside spans, not on them
    const OverviewProfile profile = workerProfile(*document, from, to, kColumns);
    ASSERT_EQ(profile.columns, kColumns);
    ASSERT_EQ(profile.states, document->trace.states.size());
    for (std::size_t c = 0; c < kColumns; ++c) {
        const auto a = static_cast<TimeNs>(std::floor(from + (to - from) * static_cast<double>(c) / kColumns));
        const auto b = static_cast<TimeNs>(std::floor(from + (to - from) * static_cast<double>(c + 1) / kColumns));
        const auto expected = directCount(*document, a, b);
        TimeNs sum = 0;
        for (std::size_t s = 0; s < profile.states; ++s) {
            EXPECT_EQ(profile.column(c)[s], expected[s]) << "column " << c << " state " << s;
            sum += profile.column(c)[s];
        }
        EXPECT_EQ(profile.extents[c], 4 * (b - a));
        EXPECT_LE(sum, profile.extents[c]);
    }
}

TEST(OverviewProfile, BarriersAreSleepingAndBatchesExecuting) {
    const SyntheticOptions options;   // barrier [460, 885) us, tasks from 25 us in batch 0
    const auto document = prepareDocument(makeSyntheticTrace(options), "synthetic");
    const OverviewProfile profile = workerProfile(*document, 0.0, static_cast<double>(options.period()) * 4.0, 40);
    const double columnNs = static_cast<double>(options.period()) * 4.0 / 40.0;   // 86 us
    const auto columnAt = [&](double ns) { return static_cast<std::size_t>(ns / columnNs); };
    EXPECT_DOUBLE_EQ(share(profile, *document, columnAt(650'000.0), StateClass::Sleeping), 1.0);
    EXPECT_GT(share(profile, *document, columnAt(200'000.0), StateClass::Executing), 0.8);
    EXPECT_GT(share(profile, *document, columnAt(200'000.0), StateClass::Overhead), 0.0);
}

TEST(OverviewProfile, NoColumnsForAnEmptyWindow) {
    const auto document = prepareDocument(makeSyntheticTrace({}), "synthetic");
    EXPECT_EQ(workerProfile(*document, 5.0, 5.0, 100).columns, 0u);
    EXPECT_EQ(workerProfile(*document, 0.0, 1e6, 0).columns, 0u);
}

TEST(FitAllWindow, ActivityWithTwoPercentOnEachSide) {
    const auto document = prepareDocument(makeSyntheticTrace({}), "synthetic");
    const auto [from, to] = fitAllWindow(*document);
    const auto begin = static_cast<double>(document->activityBegin);
    const auto end = static_cast<double>(document->activityEnd);
    EXPECT_DOUBLE_EQ(from, begin - 0.02 * (end - begin));
    EXPECT_DOUBLE_EQ(to, end + 0.02 * (end - begin));
}
