// The comparison window's tables over runs of 1, 2 and 4 ranks: the scaling table and the
// strategies compared within each rank count are the run model's own (compareRuns), row for
// row, never figures of the viewer's.

#include "viewer/core/comparison/rank_comparison.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace starscope::viewer;
namespace run = starscope::tracer::run;

namespace {

RunFigures figures(const std::string& source, const std::string& strategy, std::uint64_t ranks, double trainS,
                   double barrierShare) {
    RunFigures f;
    f.source = "/nonexistent/" + source;
    f.strategy = strategy;
    run::RunRecord record;
    record.ranks = ranks;
    record.trainTimeS = trainS;
    record.epochs = 1;
    record.batchSize = 64;
    f.record = record;
    f.ranks = Figure::known(static_cast<double>(ranks));
    f.makespanNs = Figure::known(trainS * 1e9);
    f.barrierShare = Figure::known(barrierShare);
    f.communicationShare = ranks > 1 ? Figure::known(0.1 * static_cast<double>(ranks)) : Figure::unavailable("one rank");
    f.speedup = Figure::unavailable(std::string(run::kNoScalingReference));
    f.scalingEfficiency = Figure::unavailable(std::string(run::kNoScalingReference));
    return f;
}

std::vector<RunFigures> sixRuns() {
    return {figures("s1", "single+naive", 1, 40.0, 0.5),  figures("d1", "double+advanced", 1, 30.0, 0.2),
            figures("s2", "single+naive", 2, 25.0, 0.55), figures("d2", "double+advanced", 2, 20.0, 0.25),
            figures("s4", "single+naive", 4, 16.0, 0.6),  figures("d4", "double+advanced", 4, 15.0, 0.3)};
}

double median(const GroupRow& row, std::string_view key) { return row.group.aggregates.at(std::string(key)).median; }

} // namespace

TEST(RankComparison, ScalingRowsAreTheRunModelsGroupsInItsOrder) {
    const auto runs = sixRuns();
    const RankComparison c = compareRankCounts(runs);
    EXPECT_TRUE(c.problem.empty()) << c.problem;
    ASSERT_TRUE(c.scaling);
    // What `starscope compare` gets from the same figures.
    std::vector<run::CompareInput> inputs;
    for (const auto& f : runs) {
        inputs.push_back({f, true});
    }
    run::CompareOptions options;
    options.allowMixed = true;
    const auto expected = run::compareRuns(inputs, options);
    ASSERT_TRUE(expected);
    const auto order = run::scalingOrder(*expected);
    ASSERT_EQ(c.scalingRows.size(), order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        const auto& mine = c.scalingRows[i].group;
        EXPECT_EQ(mine.name, order[i]->name) << i;
        EXPECT_EQ(mine.ranks, order[i]->ranks) << i;
        EXPECT_EQ(mine.aggregates, order[i]->aggregates) << i;
        EXPECT_EQ(mine.reasons, order[i]->reasons) << i;
        EXPECT_EQ(mine.runs, order[i]->runs) << i;
    }
    // By strategy, then rank count; speedup on train time against the strategy's 1-rank run.
    ASSERT_EQ(c.scalingRows.size(), 6u);
    EXPECT_EQ(c.scalingRows[0].group.strategy, "single+naive");
    EXPECT_EQ(c.scalingRows[2].group.ranks, 4u);
    EXPECT_EQ(c.scalingRows[3].group.strategy, "double+advanced");
    EXPECT_DOUBLE_EQ(median(c.scalingRows[1], "speedup"), 40.0 / 25.0);
    EXPECT_DOUBLE_EQ(median(c.scalingRows[2], "scaling_efficiency"), 40.0 / 16.0 / 4.0);
    EXPECT_DOUBLE_EQ(median(c.scalingRows[5], "speedup"), 2.0);
    EXPECT_DOUBLE_EQ(median(c.scalingRows[4], "barrier_share"), 0.25);
    EXPECT_FALSE(c.scalingRows[0].group.aggregates.contains("communication_share"));
    EXPECT_EQ(c.scalingRows[0].group.reasons.at("communication_share"), "one rank");
}

TEST(RankComparison, StrategiesAreComparedWithinEachRankCount) {
    const RankComparison c = compareRankCounts(sixRuns());
    ASSERT_EQ(c.strategyRows.size(), 6u);
    const std::vector<std::uint64_t> ranks{1, 1, 2, 2, 4, 4};
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        EXPECT_EQ(c.strategyRows[i].group.ranks, ranks[i]) << i;
        // The first strategy of each rank count is its baseline, named without the rank count.
        EXPECT_EQ(c.strategyRows[i].baseline, i % 2 == 0) << i;
        EXPECT_EQ(c.strategyRows[i].group.name, i % 2 == 0 ? "single+naive" : "double+advanced") << i;
    }
    // Deltas against the same rank count's baseline: 2 ranks, barrier share 0.25 vs 0.55.
    EXPECT_DOUBLE_EQ(c.strategyRows[3].group.deltas.at("barrier_share"), (0.25 - 0.55) / 0.55);
    EXPECT_DOUBLE_EQ(c.strategyRows[5].group.deltas.at("makespan_ns"), (15.0 - 16.0) / 16.0);
}

TEST(RankComparison, OneRankCountHasNoScalingTable) {
    auto runs = sixRuns();
    runs.erase(std::remove_if(runs.begin(), runs.end(), [](const RunFigures& f) { return *f.ranks.value != 2.0; }),
               runs.end());
    const RankComparison c = compareRankCounts(runs);
    EXPECT_FALSE(c.scaling);
    EXPECT_TRUE(c.scalingRows.empty());
    EXPECT_EQ(c.strategyRows.size(), 2u);
}

TEST(RankComparison, NothingToCompareSaysWhy) {
    const RankComparison c = compareRankCounts({});
    EXPECT_FALSE(c.problem.empty());
    EXPECT_TRUE(c.scalingRows.empty());
    EXPECT_TRUE(c.strategyRows.empty());
}
