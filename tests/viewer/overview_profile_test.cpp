// The overview strip's columns: worker time per state from the prefix sums agrees with a
// direct count over the spans, each column holds at most its workers' time, and a column
// inside a barrier is all sleeping while one in the middle of a batch is mostly executing.

#include "viewer/core/drawing/overview_profile.hpp"
#include "tests/support/synthetic_trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace starscope::viewer;
using starscope::tracer::StateClass;
using starscope::tracer::TimeNs;

namespace {

// Time of each state within [from, to) of the given lanes (every worker when none is given),
// counted span by span.
std::vector<TimeNs> directCount(const TraceDocument& document, TimeNs from, TimeNs to,
                                const std::vector<std::int32_t>& lanes = {}) {
    std::vector<TimeNs> times(document.trace.states.size(), 0);
    for (std::size_t l = 0; l < document.trace.lanes.size(); ++l) {
        const auto& lane = document.trace.lanes[l];
        const auto listed = std::count(lanes.begin(), lanes.end(), static_cast<std::int32_t>(l));
        if (lanes.empty() ? !lane.isWorker() : listed == 0) {
            continue;
        }
        for (const auto& span : lane.spans()) {
            const TimeNs a = std::max(from, span.start);
            const TimeNs b = std::min(to, span.end);
            if (b > a) {
                times[span.state] += (lanes.empty() ? 1 : listed) * (b - a);
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

// The columns of lanes computed once serve profiles of any of them (a rank's header and its
// kinds' headers): each equal to a count over those lanes' spans, for random windows (zoomed in
// deep, partly before or after the trace) and random sets of lanes, a lane listed twice counted
// twice, a lane that does not exist left out.
TEST(OverviewProfile, SharedLaneColumnsAgreeWithADirectCountForRandomWindows) {
    SyntheticOptions options;
    options.jitter = 0.3;
    options.cpuWorkers = 6;
    const auto document = prepareDocument(makeSyntheticTrace(options), "synthetic");
    const auto laneCount = static_cast<std::int32_t>(document->trace.lanes.size());
    std::mt19937 random(7);
    const double length = static_cast<double>(document->trace.end);
    for (int round = 0; round < 25; ++round) {
        const double span = length * std::pow(10.0, -static_cast<double>(random() % 5));
        const double from = -0.1 * length + std::uniform_real_distribution<double>(0.0, 1.1 * length)(random);
        const double to = from + span;
        const std::size_t columns = 1 + random() % 300;
        std::vector<std::vector<std::int32_t>> sets;
        std::vector<std::int32_t> all;
        for (int set = 0; set < 3; ++set) {
            std::vector<std::int32_t> lanes;
            for (int i = static_cast<int>(random() % 5); i >= 0; --i) {
                lanes.push_back(static_cast<std::int32_t>(random() % static_cast<std::uint32_t>(laneCount)));
            }
            if (set == 2) {
                lanes.push_back(laneCount + 3);   // no such lane
            }
            all.insert(all.end(), lanes.begin(), lanes.end());
            sets.push_back(lanes);
        }
        const LaneColumns shared(*document, from, to, columns, all);
        for (const auto& lanes : sets) {
            const OverviewProfile profile = shared.profile(*document, lanes);
            ASSERT_EQ(profile.columns, columns);
            EXPECT_EQ(profile.times, laneProfile(*document, from, to, columns, lanes).times);
            const auto real = std::count_if(lanes.begin(), lanes.end(), [&](std::int32_t l) { return l < laneCount; });
            for (std::size_t c = 0; c < columns; ++c) {
                const auto a = static_cast<TimeNs>(std::floor(from + (to - from) * static_cast<double>(c) / static_cast<double>(columns)));
                const auto b = static_cast<TimeNs>(std::floor(from + (to - from) * static_cast<double>(c + 1) / static_cast<double>(columns)));
                const auto expected = directCount(*document, a, b, lanes);
                for (std::size_t s = 0; s < profile.states; ++s) {
                    ASSERT_EQ(profile.column(c)[s], expected[s]) << "round " << round << " column " << c << " state " << s;
                }
                EXPECT_EQ(profile.extents[c], real * (b - a));
            }
        }
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
