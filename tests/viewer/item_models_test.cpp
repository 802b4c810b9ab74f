// The barrier list and the range statistics under QAbstractItemModelTester, and their
// contents against the analysis they show.

#include "tests/support/synthetic_trace.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "tracer/analysis/stats.hpp"
#include "viewer/gui/panels/barrier_list_model.hpp"
#include "viewer/gui/panels/range_stats_model.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>

using namespace starscope::viewer;

namespace {

std::shared_ptr<const TraceDocument> syntheticDocument() {
    SyntheticOptions options;
    options.cpuWorkers = 3;
    return prepareDocument(makeSyntheticTrace(options), "synthetic");
}

} // namespace

TEST(BarrierListModel, ShowsEveryBarrierAndPassesTheModelTester) {
    BarrierListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(model.rowCount(), 0);
    const auto document = syntheticDocument();
    auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    ASSERT_EQ(barriers->size(), 3u);
    model.setBarriers(barriers);
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.columnCount(), BarrierListModel::ColumnCount);
    EXPECT_EQ(model.data(model.index(0, BarrierListModel::StartColumn)).toString(), QStringLiteral("460.0 us"));
    EXPECT_EQ(model.data(model.index(0, BarrierListModel::DurationColumn)).toString(), QStringLiteral("425.0 us"));
    EXPECT_EQ(model.data(model.index(0, BarrierListModel::StartColumn), BarrierListModel::StartRole).toLongLong(), 460'000);
    EXPECT_EQ(model.data(model.index(0, BarrierListModel::StartColumn), BarrierListModel::EndRole).toLongLong(), 885'000);
    EXPECT_EQ(model.data(model.index(1, BarrierListModel::TransitionColumn)).toString(),
              QString::fromStdString((*barriers)[1].transitionLabel));
    EXPECT_FALSE((*barriers)[1].transitionLabel.empty());
    EXPECT_EQ(model.data(model.index(2, BarrierListModel::MainThreadColumn)).toString(),
              QString::fromStdString((*barriers)[2].mainThreadState));
    EXPECT_EQ(model.headerData(BarrierListModel::DurationColumn, Qt::Horizontal).toString(), QStringLiteral("Duration"));

    // Sorting by duration goes through a proxy on the sort role.
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(BarrierListModel::SortRole);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    proxy.sort(BarrierListModel::DurationColumn, Qt::DescendingOrder);
    EXPECT_EQ(proxy.rowCount(), 3);

    // A new threshold replaces the list.
    model.setBarriers(std::make_shared<const Barriers>(computeBarriers(*document, 1'000'000)));
    EXPECT_EQ(model.rowCount(), 0);
    model.setBarriers(nullptr);
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(RangeStatsModel, SharesOfTheSelectedRangePerRowAndForAllWorkers) {
    RangeStatsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const auto document = syntheticDocument();
    // [460 us, 860 us): inside the first barrier every worker sleeps.
    model.setStats(document, starscope::tracer::computeRangeStats(document->trace, 460'000, 860'000));
    ASSERT_EQ(model.rowCount(), static_cast<int>(document->rows.size()) + 1);
    for (int r = 1; r < model.rowCount(); ++r) {
        EXPECT_NEAR(model.data(model.index(r, RangeStatsModel::SleepingColumn), RangeStatsModel::ShareRole).value<double>(),
                    1.0, 1e-9)
            << r;
        EXPECT_EQ(model.data(model.index(r, RangeStatsModel::SleepingColumn)).toString(), QStringLiteral("100.0 %"));
    }
    const int all = model.rowCount() - 1;
    EXPECT_EQ(model.data(model.index(all, RangeStatsModel::LaneColumn)).toString(), QStringLiteral("all workers"));
    EXPECT_EQ(model.data(model.index(0, RangeStatsModel::LaneColumn)).toString(), QStringLiteral("main"));
    EXPECT_NEAR(model.data(model.index(0, RangeStatsModel::UserColumn), RangeStatsModel::ShareRole).value<double>(), 1.0, 1e-9);

    // A whole batch: 8 tasks of 50 us and 8 x 5 us scheduling in 460 us, 20 us asleep.
    model.setStats(document, starscope::tracer::computeRangeStats(document->trace, 0, 460'000));
    const double executing = model.data(model.index(1, RangeStatsModel::ExecutingColumn), RangeStatsModel::ShareRole).value<double>();
    EXPECT_NEAR(executing, 400.0 / 460.0, 1e-9);
    EXPECT_NEAR(model.data(model.index(1, RangeStatsModel::OverheadColumn), RangeStatsModel::ShareRole).value<double>(),
                40.0 / 460.0, 1e-9);
    EXPECT_EQ(model.data(model.index(all, RangeStatsModel::TasksColumn)).toULongLong(), 24u);
    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
}
