// Pictures of a comparison as the single view's --render makes them: exactly the size asked (a
// 1600x1000 comparison came out 1600x1044), as PNG, SVG or PDF (the plots drawn as vectors),
// and of a --range of the aligned axis.
#include "tests/support/test_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "viewer/core/comparison/comparison.hpp"
#include "viewer/gui/chart/gantt_plot.hpp"
#include "viewer/gui/comparison/comparison_view.hpp"

#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <fstream>
#include <gtest/gtest.h>

using namespace starscope::viewer;
namespace fs = std::filesystem;
using starscope::testing::TempDir;

namespace {

// A run folder of the tracer's small golden StarPU trace, with the run.json record writes.
fs::path writeRun(const TempDir& dir, const std::string& name, const std::string& arenas,
                  const std::string& loader) {
    const fs::path folder = dir / name;
    fs::create_directories(folder);
    fs::copy_file(starscope::testing::testDataDir() / "tracer/small/prof_file__0",
                  folder / "prof_file__0");
    std::ofstream(folder / "run.json")
        << R"({"format":"starscope-run","strategy":{"arenas":")" << arenas
        << R"(","ring_slots":2,"loader":")" << loader << R"("},"wall_time_s":1.5})";
    return folder;
}

LoadedComparison threeRuns(const TempDir& dir) {
    auto loaded = loadComparison({writeRun(dir, "a", "single", "naive"),
                                  writeRun(dir, "b", "double", "naive"),
                                  writeRun(dir, "c", "double", "advanced")},
                                 100'000);
    EXPECT_TRUE(loaded) << loaded.error().message;
    return loaded ? *loaded : LoadedComparison{};
}

ComparisonPicture sized(PixelSize size) {
    ComparisonPicture picture;
    picture.size = size;
    return picture;
}

QByteArray contents(const fs::path& path) {
    QFile file(QString::fromStdString(path.string()));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

TEST(ComparisonPictures, AreExactlyTheSizeAsked) {
    TempDir dir;
    const LoadedComparison loaded = threeRuns(dir);
    for (const PixelSize size :
         {PixelSize{1600, 1000}, PixelSize{1000, 700}, PixelSize{800, 1400}}) {
        const auto out =
            dir / ("cmp" + std::to_string(size.width) + "x" + std::to_string(size.height) + ".png");
        const auto written =
            renderComparison(loaded, {}, sized(size), QString::fromStdString(out.string()));
        ASSERT_TRUE(written) << written.error().message;
        EXPECT_EQ(QImage(QString::fromStdString(out.string())).size(),
                  QSize(size.width, size.height));
    }
}

TEST(ComparisonPictures, AreWrittenAsSvgAndPdfWithThePlotsAsVectors) {
    TempDir dir;
    const LoadedComparison loaded = threeRuns(dir);
    const ComparisonPicture picture = sized({1600, 1000});
    const auto svg = dir / "cmp.svg";
    const auto drawn = renderComparison(loaded, {}, picture, QString::fromStdString(svg.string()));
    ASSERT_TRUE(drawn) << drawn.error().message;
    const QByteArray svgText = contents(svg);
    EXPECT_TRUE(svgText.contains("<svg")) << svgText.left(200).toStdString();
    EXPECT_TRUE(svgText.contains("viewBox=\"0 0 1600 1000\""));
    // The panels' titles and axes are text, not the pixels of their buffers.
    EXPECT_TRUE(svgText.contains("tasks executed")) << "no panel title drawn as text";
    EXPECT_TRUE(svgText.contains("<path") || svgText.contains("<polyline")
                || svgText.contains("<rect"));

    const auto pdf = dir / "cmp.pdf";
    const auto written =
        renderComparison(loaded, {}, picture, QString::fromStdString(pdf.string()));
    ASSERT_TRUE(written) << written.error().message;
    const QByteArray pdfBytes = contents(pdf);
    EXPECT_TRUE(pdfBytes.startsWith("%PDF"));
    // A page of the picture's size, a point per pixel.
    static const QRegularExpression page(
        QStringLiteral(R"(/MediaBox \[0 0 1600(\.0+)? 1000(\.0+)?\])"));
    EXPECT_TRUE(page.match(QString::fromLatin1(pdfBytes)).hasMatch()) << "no 1600x1000 page";

    const auto gif = dir / "cmp.gif";
    const auto refused =
        renderComparison(loaded, {}, picture, QString::fromStdString(gif.string()));
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find(".svg or .pdf"), std::string::npos)
        << refused.error().message;
}

TEST(ComparisonPictures, ShowTheRangeAskedOfTheAlignedAxis) {
    TempDir dir;
    const LoadedComparison loaded = threeRuns(dir);
    ComparisonView view;
    view.resize(1200, 900);
    ASSERT_TRUE(view.setRuns(loaded.runs, loaded.figures, {}));
    const TimeRange range{1e6, 3e6};
    ASSERT_TRUE(view.showRange(range));
    for (GanttPlot* panel : view.panels()) {
        const TimeScale& time = panel->document()->time;
        EXPECT_NEAR(time.timeNs(panel->view().startNs), range.startNs, 1.0);
        EXPECT_NEAR(time.timeNs(panel->view().endNs), range.endNs, 1.0);
    }

    ComparisonPicture picture = sized({1200, 900});
    picture.range = range;
    const auto out = dir / "range.png";
    ASSERT_TRUE(renderComparison(loaded, {}, picture, QString::fromStdString(out.string())));
    EXPECT_EQ(QImage(QString::fromStdString(out.string())).size(), QSize(1200, 900));

    // Outside every run, or on a normalized axis (shares, not times): refused as a bad value.
    picture.range = TimeRange{1e12, 2e12};
    const auto outside =
        renderComparison(loaded, {}, picture, QString::fromStdString(out.string()));
    ASSERT_FALSE(outside);
    EXPECT_EQ(outside.error().code, ViewerErrorCode::InvalidArgument);
    EXPECT_NE(outside.error().message.find("outside the runs"), std::string::npos)
        << outside.error().message;
    picture.range = range;
    const auto normalized = renderComparison(loaded, {AlignMode::Normalized, 0}, picture,
                                             QString::fromStdString(out.string()));
    ASSERT_FALSE(normalized);
    EXPECT_EQ(normalized.error().code, ViewerErrorCode::InvalidArgument);
}
