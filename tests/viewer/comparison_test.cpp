// The comparison of runs: alignment of traces onto one axis, the figures read from run.json
// (n/a where the machine had no PMU), the statistics model, and the headless render: every
// panel drawn, and with --align marker:K the K-th batch marker at the same x in every panel.

#include "tests/support/synthetic_trace.hpp"
#include "tests/support/test_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "tracer/run/run_comparison.hpp"
#include "viewer/core/comparison/comparison.hpp"
#include "viewer/core/format/time_format.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/chart/span_description.hpp"
#include "viewer/gui/comparison/comparison_charts.hpp"
#include "viewer/gui/comparison/comparison_model.hpp"
#include "viewer/gui/comparison/comparison_view.hpp"
#include "viewer/gui/panels/group_table_model.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QImage>
#include <QTabWidget>

#include <cmath>
#include <fstream>
#include <set>
#include <tuple>

using namespace starscope::viewer;
namespace fs = std::filesystem;
using starscope::testing::TempDir;

namespace {

// A run folder: the tracer's small golden StarPU trace and a run.json as `starscope record`
// writes it on a machine without PMU or RAPL.
fs::path writeRun(const TempDir& dir, const std::string& name, const std::string& arenas, const std::string& loader,
                  double wallS, long peakBytes) {
    const fs::path folder = dir / name;
    fs::create_directories(folder);
    fs::copy_file(starscope::testing::testDataDir() / "tracer/small/prof_file__0", folder / "prof_file__0");
    std::ofstream(folder / "run.json") << R"({"format":"starscope-run","strategy":{"arenas":")" << arenas
                                       << R"(","ring_slots":2,"loader":")" << loader << R"("},"wall_time_s":)" << wallS
                                       << R"(,"counters":{"papi":{"available":false,"reason":"no PMU in this VM"},)"
                                       << R"("energy":{"available":false,"reason":"no RAPL"}},"peak_arena_bytes":{"train":)"
                                       << peakBytes << "}}";
    return folder;
}

ComparedRun synthetic(starscope::tracer::TimeNs taskNs, starscope::tracer::TimeNs barrierNs, const std::string& name) {
    SyntheticOptions options;
    options.cpuWorkers = 2;
    options.tasksPerWorker = 4;
    options.taskNs = taskNs;
    options.barrierNs = barrierNs;
    auto document = prepareDocument(makeSyntheticTrace(options), name);
    auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    return {document, barriers, nullptr};
}

bool executingGreen(const QColor& c) { return c.green() > c.red() + 40 && c.green() > c.blue() + 20; }
bool markerGrey(const QColor& c) {
    return std::abs(c.red() - c.green()) < 12 && std::abs(c.green() - c.blue()) < 12 && c.lightness() < 120;
}

} // namespace

TEST(Alignment, ParsesTheThreeModesAndRejectsOthers) {
    EXPECT_EQ(*parseAlignment("start", "--align"), (Alignment{AlignMode::Start, 0}));
    EXPECT_EQ(*parseAlignment("normalized", "--align"), (Alignment{AlignMode::Normalized, 0}));
    EXPECT_EQ(*parseAlignment("marker:3", "--align"), (Alignment{AlignMode::Marker, 3}));
    for (const char* bad : {"marker:", "marker:-1", "marker:x", "end", ""}) {
        auto parsed = parseAlignment(bad, "--align");
        ASSERT_FALSE(parsed) << bad;
        EXPECT_NE(parsed.error().message.find("--align"), std::string::npos);
    }
}

TEST(Alignment, MovesTheChosenOriginToZeroAndSharesBounds) {
    const std::vector<ComparedRun> runs{synthetic(50'000, 400'000, "fast"), synthetic(120'000, 900'000, "slow")};
    auto byMarker = alignRuns(runs, {AlignMode::Marker, 2});
    ASSERT_TRUE(byMarker);
    for (const auto& run : *byMarker) {
        const auto& d = *run.document;
        ASSERT_GE(d.batchMarkers.size(), 3u);
        EXPECT_EQ(d.time.timeNs(static_cast<double>(d.trace.markers[d.batchMarkers[2]].time)), 0.0);
        EXPECT_EQ(d.time.zeroTick, (*byMarker)[0].document->time.zeroTick);
        EXPECT_EQ(d.trace.begin, (*byMarker)[0].document->trace.begin);
        EXPECT_EQ(d.trace.end, (*byMarker)[0].document->trace.end);
    }
    auto normalized = alignRuns(runs, {AlignMode::Normalized, 0});
    ASSERT_TRUE(normalized);
    for (const auto& run : *normalized) {
        const auto& d = *run.document;
        EXPECT_EQ(d.execution.first, d.time.zeroTick);
        EXPECT_NEAR(static_cast<double>(d.execution.last - d.time.zeroTick), kNormalizedSpanNs, 1.0);
    }
    auto tooFar = alignRuns(runs, {AlignMode::Marker, 99});
    ASSERT_FALSE(tooFar);
    EXPECT_NE(tooFar.error().message.find("marker:99"), std::string::npos);
}

// The panels of a comparison draw a codelet in one colour: runs whose codelets differ, and come
// in other orders, each chose other shades for some codelet on their own; aligned for the
// comparison, the shades come from all runs' codelets at once, and every panel agrees.
TEST(Alignment, ACodeletHasOneColourInEveryPanel) {
    SyntheticOptions few;
    few.cpuWorkers = 2;
    few.tasksPerWorker = 4;
    SyntheticOptions many = few;
    many.codelets = {"sgd_dense", "dense_bwd", "average_params", "dense_fwd", "eval_dense",
                     "conv_bwd",  "sgd_conv",  "conv_fwd",       "pool_fwd",  "checksum"};
    many.tasksPerWorker = static_cast<int>(many.codelets.size());
    const auto own = [](const SyntheticOptions& options, const std::string& name) {
        auto document = prepareDocument(makeSyntheticTrace(options), name);
        return ComparedRun{document, std::make_shared<const Barriers>(computeBarriers(*document, 100'000)), nullptr};
    };
    const std::vector<ComparedRun> runs{own(few, "four codelets"), own(many, "ten codelets")};
    const auto colour = [](const ComparedRun& run, const std::string& codelet) {
        return run.document->palette.codeletColour(codelet);
    };
    // Alone, the runs disagree on a codelet they share (ten codelets over six shades).
    bool disagreed = false;
    for (const auto& codelet : few.codelets) {
        disagreed = disagreed || colour(runs[0], codelet) != colour(runs[1], codelet);
    }
    ASSERT_TRUE(disagreed) << "the runs agree on their own: nothing to test";

    for (const Alignment alignment : {Alignment{AlignMode::Start, 0}, Alignment{AlignMode::Normalized, 0}}) {
        auto aligned = alignRuns(runs, alignment);
        ASSERT_TRUE(aligned);
        for (const auto& codelet : few.codelets) {
            EXPECT_EQ(colour((*aligned)[0], codelet), colour((*aligned)[1], codelet)) << codelet;
        }
        // Each panel draws its tasks in those colours, and its own codelets apart while there are shades.
        for (const auto& run : *aligned) {
            const auto& trace = run.document->trace;
            std::set<std::tuple<int, int, int>> shades;
            for (const auto& lane : trace.lanes) {
                for (const auto& span : lane.levels.empty() ? std::vector<starscope::tracer::Span>{} : lane.levels[0]) {
                    const auto task = trace.taskIndexOf(lane, span);
                    if (task < trace.tasks.size()) {
                        const Rgb drawn = run.document->palette.spanColour(trace, lane, span);
                        EXPECT_EQ(drawn, run.document->palette.codeletColour(trace.codeletOf(trace.tasks[task])));
                        shades.insert({drawn.r, drawn.g, drawn.b});
                    }
                }
            }
            EXPECT_EQ(shades.size(), std::min(programCodelets(trace).size(), codeletShadeCount())) << run.document->source;
        }
    }
}

// Normalized runs are stretched onto one axis, but what they say in time stays real: a
// 49.019 ms barrier was labelled 14.628 ms, divided by its run's makespan.
TEST(Alignment, NormalizedRunsKeepTheirRealDurations) {
    const std::vector<ComparedRun> runs{synthetic(50'000, 400'000, "fast"), synthetic(120'000, 900'000, "slow")};
    auto normalized = alignRuns(runs, {AlignMode::Normalized, 0});
    ASSERT_TRUE(normalized);
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const auto& before = *runs[r].barriers;
        const auto& after = *(*normalized)[r].barriers;
        ASSERT_EQ(before.size(), after.size());
        ASSERT_FALSE(before.empty());
        const TimeScale& time = (*normalized)[r].document->time;
        for (std::size_t b = 0; b < before.size(); ++b) {
            EXPECT_EQ(formatDuration(time.durationNs(static_cast<double>(after[b].duration()))),
                      formatDuration(static_cast<double>(before[b].duration())))
                << runs[r].document->source << " barrier " << b;
        }
        // A task's tooltip too.
        const auto& original = *runs[r].document;
        const auto& aligned = *(*normalized)[r].document;
        const SpanRef task{0, 0, 2};
        const auto& span = original.trace.lanes[0].levels[0][2];
        const QString expected =
            QStringLiteral("duration: ") + QString::fromStdString(formatDuration(static_cast<double>(span.duration())));
        const QString tooltip = describeSpan(aligned, ShownBarriers{}, task, 1);
        EXPECT_TRUE(tooltip.contains(expected)) << tooltip.toStdString() << " (expected " << expected.toStdString() << ")";
    }
}

// Aligned on a batch marker, the tasks before it keep running: counted in the panel's title
// and selectable with their dependency arrows (their times had become negative, which the
// model reads as "never ran").
TEST(Alignment, MarkerAlignmentKeepsTheTasksBeforeTheMarker) {
    const std::vector<ComparedRun> runs{synthetic(50'000, 400'000, "fast"), synthetic(120'000, 900'000, "slow")};
    auto byMarker = alignRuns(runs, {AlignMode::Marker, 2});
    ASSERT_TRUE(byMarker);
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const auto& original = *runs[r].document;
        const auto& aligned = *(*byMarker)[r].document;
        EXPECT_EQ(aligned.executedTasks, original.executedTasks) << original.source;
        EXPECT_EQ(taskCountText(aligned), taskCountText(original));
        const auto marker = aligned.trace.markers[aligned.batchMarkers[2]].time;
        std::size_t before = 0;
        for (std::size_t t = 0; t < aligned.trace.tasks.size(); ++t) {
            const auto& task = aligned.trace.tasks[t];
            ASSERT_GE(task.start, 0) << "task " << t;
            if (task.start < marker) {
                ++before;
                EXPECT_TRUE(findTaskSpan(aligned.trace, static_cast<starscope::tracer::TaskIndex>(t))) << "task " << t;
            }
        }
        EXPECT_GT(before, 0u) << "the test needs tasks before the marker";
    }
}

TEST(ComparisonFigures, ReadRunJsonAndSayWhyCountersAreMissing) {
    TempDir dir;
    const auto a = writeRun(dir, "a", "single", "naive", 2.0, 1 << 20);
    auto loaded = loadComparison({a}, 100'000);
    ASSERT_TRUE(loaded) << loaded.error().message;
    const RunFigures& f = loaded->figures.front();
    EXPECT_EQ(f.strategy, "single+naive");
    EXPECT_EQ(f.wallTimeS.value, 2.0);
    EXPECT_EQ(f.peakMemoryBytes.value, static_cast<double>(1 << 20));
    ASSERT_TRUE(f.makespanNs.value);
    EXPECT_GT(*f.makespanNs.value, 0.0);
    EXPECT_FALSE(f.ipc.value);
    EXPECT_EQ(f.ipc.reason, "no PMU in this VM");
    EXPECT_FALSE(f.llcLoadMissRatio.value);
    EXPECT_EQ(f.powerW.reason, "no RAPL");

    auto missing = loadComparison({dir / "nowhere"}, 100'000);
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("nowhere"), std::string::npos);
}

// A 30-batch and a 400-batch run of one strategy are not repetitions of one workload: the viewer
// refuses them as `starscope compare` does, with the run model's own message, and shows them
// with --allow-mixed.
TEST(ComparisonFigures, UnlikeRunsAreRefusedAsCompareRefusesThem) {
    TempDir dir;
    std::vector<fs::path> runs;
    for (const int batches : {30, 400}) {
        const fs::path folder = dir / ("batches-" + std::to_string(batches));
        fs::create_directories(folder);
        fs::copy_file(starscope::testing::testDataDir() / "tracer/small/prof_file__0", folder / "prof_file__0");
        std::ofstream(folder / "run.json") << R"({"format":"starscope-run","strategy":{"arenas":"single",)"
                                           << R"("ring_slots":2,"loader":"naive"},"epochs":1,"batches_per_epoch":)"
                                           << batches << R"(,"batch_size":64,"wall_time_s":1.0})";
        runs.push_back(folder);
    }
    auto refused = loadComparison(runs, 100'000);
    ASSERT_FALSE(refused);
    std::vector<starscope::tracer::run::CompareInput> inputs;
    for (const auto& run : runs) {
        auto measured = starscope::tracer::run::measureRun(run, 100'000);
        ASSERT_TRUE(measured) << measured.error().describe();
        inputs.push_back({*measured, true});
    }
    const auto compare = starscope::tracer::run::compareRuns(inputs, {});
    ASSERT_FALSE(compare);
    EXPECT_EQ(refused.error().message, compare.error().message);
    EXPECT_NE(refused.error().message.find("runs of different workloads cannot be compared: " + runs[1].string()
                                           + " has batches 400 (30 in " + runs[0].string() + ")"),
              std::string::npos)
        << refused.error().message;

    auto mixed = loadComparison(runs, 100'000, true);
    ASSERT_TRUE(mixed) << mixed.error().message;
    EXPECT_EQ(mixed->figures.size(), 2U);
}

// The Paje trace of the same run has no task dependencies: its critical path is n/a with the
// tracer's reason (the FxT run's is a number), never the longest single task.
TEST(ComparisonModel, CriticalPathOfAPajeTraceIsNaWithTheReason) {
    TempDir dir;
    const fs::path paje = starscope::testing::testDataDir() / "tracer/small/paje.trace";
    auto loaded = loadComparison({writeRun(dir, "a", "single", "naive", 2.0, 1 << 20), paje}, 100'000);
    ASSERT_TRUE(loaded) << loaded.error().message;
    ASSERT_TRUE(loaded->figures[0].criticalPathNs.value) << loaded->figures[0].criticalPathNs.reason;
    EXPECT_GT(*loaded->figures[0].criticalPathNs.value, 0.0);
    EXPECT_FALSE(loaded->figures[1].criticalPathNs.value);
    EXPECT_EQ(loaded->figures[1].criticalPathNs.reason, "no task dependencies in a Paje trace");
    ASSERT_TRUE(loaded->figures[1].meanTransitionStallNs.value);

    ComparisonModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setRuns(loaded->figures);
    const QModelIndex fxt = model.index(0, ComparisonModel::columnOf("critical_path_ns"));
    const QModelIndex na = model.index(1, ComparisonModel::columnOf("critical_path_ns"));
    EXPECT_TRUE(fxt.data().toString().endsWith(QStringLiteral(" ms"))) << fxt.data().toString().toStdString();
    EXPECT_EQ(na.data().toString(), QStringLiteral("n/a"));
    EXPECT_EQ(na.data(Qt::ToolTipRole).toString(), QStringLiteral("no task dependencies in a Paje trace"));
    EXPECT_FALSE(na.data(ComparisonModel::ValueRole).isValid());
    EXPECT_FALSE(na.data(ComparisonModel::DeltaRole).isValid());
    EXPECT_EQ(model.headerData(ComparisonModel::columnOf("critical_path_ns"), Qt::Horizontal).toString(),
              QStringLiteral("Critical path"));
}

TEST(ComparisonModel, ShowsDeltasAgainstTheFirstRunColoured) {
    TempDir dir;
    auto loaded = loadComparison({writeRun(dir, "a", "single", "naive", 2.0, 1 << 20),
                                  writeRun(dir, "b", "double", "advanced", 1.0, 2 << 20)},
                                 100'000);
    ASSERT_TRUE(loaded) << loaded.error().message;
    ComparisonModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setRuns(loaded->figures);
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.index(1, ComparisonModel::StrategyColumn).data().toString(), QStringLiteral("double+advanced"));
    const QModelIndex memory = model.index(1, ComparisonModel::columnOf("peak_memory_bytes"));
    EXPECT_DOUBLE_EQ(memory.data(ComparisonModel::DeltaRole).toDouble(), 1.0);
    EXPECT_TRUE(memory.data().toString().endsWith(QStringLiteral("(+100.0 %)"))) << memory.data().toString().toStdString();
    EXPECT_EQ(memory.data(Qt::ForegroundRole).value<QBrush>().color(), QColor(200, 30, 30));
    // Same trace: no change, no colour; the baseline row has no delta.
    EXPECT_DOUBLE_EQ(model.index(1, ComparisonModel::columnOf("makespan_ns")).data(ComparisonModel::DeltaRole).toDouble(), 0.0);
    EXPECT_FALSE(model.index(1, ComparisonModel::columnOf("makespan_ns")).data(Qt::ForegroundRole).isValid());
    EXPECT_FALSE(model.index(0, ComparisonModel::columnOf("peak_memory_bytes")).data(ComparisonModel::DeltaRole).isValid());
}

TEST(ComparisonRender, HeadlessRenderDrawsEveryPanelAndNaCharts) {
    TempDir dir;
    auto loaded = loadComparison({writeRun(dir, "a", "single", "naive", 2.0, 1 << 20),
                                  writeRun(dir, "b", "double", "advanced", 1.0, 2 << 20)},
                                 100'000);
    ASSERT_TRUE(loaded) << loaded.error().message;
    const QString out = QString::fromStdString((dir / "cmp.png").string());
    ComparisonPicture picture;
    picture.size = {1400, 1200};
    ASSERT_TRUE(renderComparison(*loaded, {AlignMode::Marker, 1}, picture, out));
    const QImage file(out);
    EXPECT_EQ(file.size(), QSize(1400, 1200));

    ComparisonView view;
    view.resize(1400, 1200);
    ASSERT_TRUE(view.setRuns(loaded->runs, loaded->figures, {AlignMode::Marker, 1}));
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.show();
    const QImage image = view.grabImage();
    ASSERT_EQ(view.panels().size(), 2u);
    for (GanttPlot* panel : view.panels()) {
        const QRect area = panel->axisRect()->rect().translated(panel->mapTo(&view, QPoint(0, 0)));
        int green = 0;
        for (int y = area.top(); y <= area.bottom(); y += 2) {
            for (int x = area.left(); x <= area.right(); x += 2) {
                green += executingGreen(image.pixelColor(x, y)) ? 1 : 0;
            }
        }
        EXPECT_GT(green, 200) << "no executing task drawn in panel " << panel->document()->source;
    }
    // No PMU, no RAPL: IPC, both LLC ratios and power are n/a for both runs.
    EXPECT_EQ(view.charts()->missingLabels(), 8);
}

TEST(ComparisonRender, MarkerAlignmentPutsTheMarkerAtOneXInEveryPanel) {
    const std::vector<ComparedRun> runs{synthetic(50'000, 400'000, "fast"), synthetic(120'000, 900'000, "slow")};
    // Unaligned, batch 2 starts at different times: the test below could fail.
    ASSERT_NE(runs[0].document->trace.markers[runs[0].document->batchMarkers[2]].time,
              runs[1].document->trace.markers[runs[1].document->batchMarkers[2]].time);
    ComparisonView view;
    view.resize(1400, 1000);
    ASSERT_TRUE(view.setRuns(runs, {RunFigures{}, RunFigures{}}, {AlignMode::Marker, 2}));
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.show();
    const QImage image = view.grabImage();
    std::vector<int> found;
    for (GanttPlot* panel : view.panels()) {
        const QPoint origin = panel->mapTo(&view, QPoint(0, 0));
        const QRect area = panel->axisRect()->rect().translated(origin);
        const double zero = static_cast<double>(panel->document()->time.zeroTick);
        const int expected = origin.x() + static_cast<int>(std::lround(panel->xAxis->coordToPixel(zero)));
        int bestX = -1;
        int bestCount = 0;
        for (int x = expected - 8; x <= expected + 8; ++x) {
            int count = 0;
            for (int y = area.top(); y <= area.bottom(); ++y) {
                count += markerGrey(image.pixelColor(x, y)) ? 1 : 0;
            }
            if (count > bestCount) {
                bestCount = count;
                bestX = x;
            }
        }
        EXPECT_GT(bestCount, area.height() / 10) << panel->document()->source;
        found.push_back(bestX);
    }
    ASSERT_EQ(found.size(), 2u);
    EXPECT_LE(std::abs(found[0] - found[1]), 2);

    // Zooming one panel moves the other.
    view.panels()[1]->setView(-100'000.0, 200'000.0);
    EXPECT_DOUBLE_EQ(view.panels()[0]->xAxis->range().lower, view.panels()[1]->xAxis->range().lower);
    EXPECT_DOUBLE_EQ(view.panels()[0]->xAxis->range().upper, view.panels()[1]->xAxis->range().upper);
}

// Aligned runs share one axis (trace.begin/end), but each panel's title gives the run's own
// length: a fast and a slow run used to be titled with the shared, longest one.
TEST(ComparisonRender, PanelsAreTitledWithTheirRunsOwnLength) {
    const std::vector<ComparedRun> runs{synthetic(50'000, 400'000, "fast"), synthetic(120'000, 900'000, "slow")};
    std::vector<QString> own;
    for (const auto& run : runs) {
        const auto& trace = run.document->trace;
        own.push_back(QString::fromStdString(formatDuration(static_cast<double>(trace.end - trace.begin))));
    }
    ASSERT_NE(own[0], own[1]) << "the test needs runs of different lengths";
    for (const Alignment alignment :
         {Alignment{AlignMode::Start, 0}, Alignment{AlignMode::Marker, 2}, Alignment{AlignMode::Normalized, 0}}) {
        ComparisonView view;
        view.resize(1200, 900);
        ASSERT_TRUE(view.setRuns(runs, {RunFigures{}, RunFigures{}}, alignment));
        ASSERT_EQ(view.panels().size(), 2u);
        for (std::size_t i = 0; i < 2; ++i) {
            const QString title = view.panels()[i]->title();
            EXPECT_TRUE(title.endsWith(QStringLiteral(", ") + own[i]))
                << describeAlignment(alignment) << ": " << title.toStdString() << " (own length " << own[i].toStdString()
                << ")";
            const auto& aligned = *view.panels()[i]->document();
            EXPECT_NEAR(aligned.time.durationNs(static_cast<double>(aligned.length)),
                        static_cast<double>(runs[i].document->length), 1.0);
        }
    }
}

namespace {

// A run folder of `ranks` StarPU-MPI ranks: the golden trace and a run.json saying so, with
// the train time speedups are taken on.
fs::path writeRanksRun(const TempDir& dir, const std::string& name, const std::string& arenas, int ranks,
                       double trainS) {
    const fs::path folder = dir / name;
    fs::create_directories(folder);
    // One prof file per rank, each the golden trace: ranks of a job that sent no message.
    for (int rank = 0; rank < ranks; ++rank) {
        fs::copy_file(starscope::testing::testDataDir() / "tracer/small/prof_file__0",
                      folder / ("prof_file__" + std::to_string(rank)));
    }
    std::ofstream(folder / "run.json") << R"({"format":"starscope-run","strategy":{"arenas":")" << arenas
                                       << R"(","ring_slots":2,"loader":"naive"},"ranks":)" << ranks
                                       << R"(,"epochs":1,"batch_size":64,"train_time_s":)" << trainS
                                       << R"(,"wall_time_s":)" << trainS + 1.0 << "}";
    return folder;
}

} // namespace

// A 1-rank and a 2-rank run of one strategy were both "single naive" under their bars.
TEST(ComparisonRanks, ChartsNameRunsOfOneStrategyByTheirRankCount) {
    const TempDir dir;
    auto loaded = loadComparison({writeRanksRun(dir, "one", "single", 1, 40.0), writeRanksRun(dir, "two", "single", 2, 25.0),
                                  writeRanksRun(dir, "again", "single", 2, 26.0)},
                                 100'000);
    ASSERT_TRUE(loaded) << loaded.error().message;
    EXPECT_EQ(chartRunLabels(loaded->figures),
              (std::vector<std::string>{"single+naive, 1 rank", "single+naive, 2 ranks #2", "single+naive, 2 ranks #3"}));
    ComparisonCharts charts;
    charts.setRuns(loaded->figures);
    ASSERT_EQ(charts.runLabels().size(), 3);
    EXPECT_EQ(charts.runLabels()[0], QStringLiteral("single\nnaive\n1 rank"));
    EXPECT_EQ(charts.runLabels()[1], QStringLiteral("single\nnaive\n2 ranks #2"));
    // Runs of one rank count keep their plain strategy names.
    EXPECT_EQ(chartRunLabels({loaded->figures[0]}), (std::vector<std::string>{"single+naive"}));
}

TEST(ComparisonRanks, RunsOfOneTwoAndFourRanksGetTheScalingTableAndStrategiesPerRankCount) {
    const TempDir dir;
    std::vector<fs::path> inputs;
    for (const int ranks : {1, 2, 4}) {
        inputs.push_back(writeRanksRun(dir, "single-" + std::to_string(ranks), "single", ranks, 40.0 / ranks));
        inputs.push_back(writeRanksRun(dir, "double-" + std::to_string(ranks), "double", ranks, 30.0 / ranks));
    }
    auto loaded = loadComparison(inputs, 100'000);
    ASSERT_TRUE(loaded) << loaded.error().message;
    ComparisonView view;
    ASSERT_TRUE(view.setRuns(loaded->runs, loaded->figures, {AlignMode::Start, 0}));
    EXPECT_TRUE(view.comparisonNote().isEmpty()) << view.comparisonNote().toStdString();

    GroupTableModel* scaling = view.scalingModel();
    QAbstractItemModelTester scalingTester(scaling, QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_EQ(scaling->rowCount(), 6);
    EXPECT_EQ(view.tables()->currentIndex(), view.tables()->indexOf(view.tables()->widget(1)));
    EXPECT_TRUE(view.tables()->isTabEnabled(1));
    const int speedup = scaling->columnOf("speedup");
    ASSERT_GE(speedup, 0);
    // single+naive at 1, 2, 4 ranks, then double+advanced: speedups 1, 2, 4 on train time.
    const std::vector<double> speedups{1.0, 2.0, 4.0, 1.0, 2.0, 4.0};
    for (int row = 0; row < 6; ++row) {
        EXPECT_DOUBLE_EQ(scaling->index(row, speedup).data(GroupTableModel::ValueRole).toDouble(), speedups[static_cast<std::size_t>(row)]) << row;
        EXPECT_EQ(scaling->index(row, GroupTableModel::RanksColumn).data().toULongLong(), (std::vector<qulonglong>{1, 2, 4})[static_cast<std::size_t>(row % 3)]);
    }
    EXPECT_EQ(scaling->index(1, speedup).data().toString(), QString::fromStdString(starscope::tracer::run::formatFigure(2.0, starscope::tracer::run::findMetric("speedup")->unit)));
    // One rank has no message between ranks: n/a with the run model's reason.
    const int comm = scaling->columnOf("communication_share");
    EXPECT_EQ(scaling->index(0, comm).data().toString(), QStringLiteral("n/a"));
    EXPECT_FALSE(scaling->index(0, comm).data(Qt::ToolTipRole).toString().isEmpty());

    GroupTableModel* strategies = view.strategyModel();
    QAbstractItemModelTester strategyTester(strategies, QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_EQ(strategies->rowCount(), 6);
    EXPECT_EQ(strategies->columnOf("speedup"), -1);
    const int wall = strategies->columnOf("wall_time_s");
    ASSERT_GE(wall, 0);
    for (int row = 0; row < 6; ++row) {
        const bool baseline = row % 2 == 0;
        EXPECT_EQ(strategies->index(row, GroupTableModel::NameColumn).data().toString().contains(QStringLiteral("baseline")), baseline) << row;
        // double's wall time against single's at the same rank count.
        EXPECT_EQ(strategies->index(row, wall).data(GroupTableModel::DeltaRole).isValid(), !baseline) << row;
    }
    EXPECT_EQ(strategies->index(3, GroupTableModel::RanksColumn).data().toULongLong(), 2u);
    const double single2 = 40.0 / 2 + 1.0;
    const double double2 = 30.0 / 2 + 1.0;
    EXPECT_NEAR(strategies->index(3, wall).data(GroupTableModel::DeltaRole).toDouble(), (double2 - single2) / single2, 1e-9);
}
