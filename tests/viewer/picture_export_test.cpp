// Pictures beside PNG: SVG and PDF drawn by the same plot, checked as files a reader accepts
// (an SVG document that parses as XML with an <svg> root, a PDF that starts with its magic),
// and the save dialog's filter supplying the extension a user did not type.
#include "tests/support/synthetic_trace.hpp"
#include "tests/support/test_support.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "viewer/gui/export/render.hpp"

#include <gtest/gtest.h>

#include <QFile>
#include <QXmlStreamReader>

using namespace starscope::viewer;

namespace {

QString at(const std::filesystem::path& path) { return QString::fromStdString(path.string()); }

struct Drawn {
    std::shared_ptr<const TraceDocument> document = prepareDocument(makeSyntheticTrace({}), "synthetic");
    std::shared_ptr<const Barriers> barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
};

TEST(PictureExport, SvgIsAWellFormedDrawingWithTheTracesText) {
    starscope::testing::TempDir dir;
    const Drawn drawn;
    RenderRequest request;
    request.size = {800, 500};
    const auto written = renderToFile(drawn.document, drawn.barriers, request, at(dir / "out.svg"));
    ASSERT_TRUE(written) << written.error().message;
    QFile file(at(dir / "out.svg"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    QString root;
    qsizetype rects = 0;
    qsizetype texts = 0;
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement) {
            if (root.isEmpty()) {
                root = xml.name().toString();
                EXPECT_EQ(xml.attributes().value(QStringLiteral("viewBox")).toString(), QStringLiteral("0 0 800 500"));
            }
            rects += xml.name() == QLatin1String("rect") || xml.name() == QLatin1String("path") ? 1 : 0;
            texts += xml.name() == QLatin1String("text") ? 1 : 0;
        }
    }
    ASSERT_FALSE(xml.hasError()) << xml.errorString().toStdString() << " at line " << xml.lineNumber();
    EXPECT_EQ(root, QStringLiteral("svg"));
    // A vector picture: the bars and the axis' labels are elements, not one embedded image.
    EXPECT_GT(rects, 10);
    EXPECT_GT(texts, 2);
}

TEST(PictureExport, PdfStartsWithItsMagic) {
    starscope::testing::TempDir dir;
    const Drawn drawn;
    RenderRequest request;
    request.size = {640, 400};
    ASSERT_TRUE(renderToFile(drawn.document, drawn.barriers, request, at(dir / "out.pdf")));
    QFile file(at(dir / "out.pdf"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(file.read(5), QByteArray("%PDF-"));
}

TEST(PictureExport, UnknownFormatsAreRefusedNamingTheFileAndTheChoices) {
    starscope::testing::TempDir dir;
    const Drawn drawn;
    const auto tiff = renderToFile(drawn.document, drawn.barriers, RenderRequest{}, at(dir / "out.tiff"));
    ASSERT_FALSE(tiff);
    EXPECT_NE(tiff.error().message.find("out.tiff"), std::string::npos) << tiff.error().message;
    EXPECT_NE(tiff.error().message.find(".svg"), std::string::npos) << tiff.error().message;
    EXPECT_FALSE(std::filesystem::exists(dir / "out.tiff"));
}

// "starscope" typed with the SVG filter chosen used to fail with "unsupported picture format '.'".
TEST(PictureExport, TheChosenFiltersExtensionIsAddedWhenNoneIsTyped) {
    EXPECT_EQ(withFilterSuffix(QStringLiteral("/tmp/view"), QStringLiteral("SVG drawing (*.svg)")),
              QStringLiteral("/tmp/view.svg"));
    EXPECT_EQ(withFilterSuffix(QStringLiteral("/tmp/view"), QStringLiteral("PDF document (*.pdf)")),
              QStringLiteral("/tmp/view.pdf"));
    EXPECT_EQ(withFilterSuffix(QStringLiteral("/tmp/view"), QStringLiteral("PNG image (*.png)")),
              QStringLiteral("/tmp/view.png"));
    // A typed suffix wins, even one the filter does not list.
    EXPECT_EQ(withFilterSuffix(QStringLiteral("/tmp/view.pdf"), QStringLiteral("PNG image (*.png)")),
              QStringLiteral("/tmp/view.pdf"));
    // A dot in a folder's name is not a suffix.
    EXPECT_EQ(withFilterSuffix(QStringLiteral("/tmp/run.1/view"), QStringLiteral("PNG image (*.png)")),
              QStringLiteral("/tmp/run.1/view.png"));
    EXPECT_EQ(withFilterSuffix(QString(), QStringLiteral("PNG image (*.png)")), QString());
    EXPECT_EQ(withFilterSuffix(QStringLiteral("/tmp/view"), QString()), QStringLiteral("/tmp/view"));

    // The name the dialog hands back is then written in that format.
    starscope::testing::TempDir dir;
    const Drawn drawn;
    RenderRequest request;
    request.size = {400, 300};
    const QString named = withFilterSuffix(at(dir / "picture"), QStringLiteral("SVG drawing (*.svg)"));
    ASSERT_TRUE(renderToFile(drawn.document, drawn.barriers, request, named));
    QFile file(named);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_TRUE(file.readAll().contains("<svg"));
}

} // namespace
