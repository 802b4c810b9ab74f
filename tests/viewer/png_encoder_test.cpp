// The viewer's PNG encoder: what Qt's own reader decodes from its files is the image given, pixel
// for pixel, with and without alpha, through rows that repeat the row above (the Up filter's zeros)
// and rows that differ in every byte (its wrap-around); the resolution is kept.
#include "tests/support/synthetic_trace.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "viewer/gui/png_encoder.hpp"
#include "viewer/gui/render.hpp"

#include <gtest/gtest.h>

#include <QColor>

using namespace starscope::viewer;

namespace {

// Stripes that repeat down the image, then noise in which each byte differs from the one above.
QImage testImage(QImage::Format format, int width, int height) {
    QImage image(width, height, format);
    std::uint32_t state = 12345;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            QColor colour;
            if (y < height / 2) {
                colour = QColor::fromHsv((x * 7) % 360, 200, 220, x % 2 == 0 ? 255 : 128);
            } else {
                state = state * 1664525U + 1013904223U;
                colour = QColor(static_cast<int>(state >> 24), static_cast<int>((state >> 16) & 0xff),
                                static_cast<int>((state >> 8) & 0xff), static_cast<int>(state & 0xff));
            }
            image.setPixelColor(x, y, colour);
        }
    }
    return image;
}

void expectSamePixels(const QImage& expected, const QImage& decoded) {
    ASSERT_FALSE(decoded.isNull());
    ASSERT_EQ(decoded.size(), expected.size());
    const QImage a = expected.convertToFormat(QImage::Format_ARGB32);
    const QImage b = decoded.convertToFormat(QImage::Format_ARGB32);
    for (int y = 0; y < a.height(); ++y) {
        for (int x = 0; x < a.width(); ++x) {
            ASSERT_EQ(a.pixel(x, y), b.pixel(x, y)) << "at " << x << "," << y;
        }
    }
}

TEST(PngEncoder, OpaqueImageDecodesToTheSamePixels) {
    QImage image = testImage(QImage::Format_RGB32, 37, 24);
    image.setDotsPerMeterX(3779);
    image.setDotsPerMeterY(2000);
    const QByteArray png = encodePng(image, 1);
    ASSERT_TRUE(png.startsWith("\x89PNG\r\n\x1a\n"));
    const QImage decoded = QImage::fromData(png, "PNG");
    EXPECT_FALSE(decoded.hasAlphaChannel());
    expectSamePixels(image, decoded);
    EXPECT_EQ(decoded.dotsPerMeterX(), 3779);
    EXPECT_EQ(decoded.dotsPerMeterY(), 2000);
}

TEST(PngEncoder, TranslucentImageKeepsItsAlpha) {
    const QImage image = testImage(QImage::Format_ARGB32, 19, 10);
    const QImage decoded = QImage::fromData(encodePng(image, 6), "PNG");
    EXPECT_TRUE(decoded.hasAlphaChannel());
    expectSamePixels(image, decoded);
}

TEST(PngEncoder, NullImageGivesNoFile) { EXPECT_TRUE(encodePng(QImage(), 1).isEmpty()); }

TEST(PngEncoder, RenderedChartReadsBackAsTheImageDrawn) {
    const auto document = prepareDocument(makeSyntheticTrace({}), "synthetic");
    const auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    RenderRequest request;
    request.size = {640, 360};
    const QImage image = renderImage(document, barriers, request);
    expectSamePixels(image, QImage::fromData(encodePng(image, 1), "PNG"));
}

} // namespace
