// The viewer's PNG encoder: what Qt's own reader decodes from its files is the image given,
// pixel for pixel, with and without alpha, through rows that repeat the row above (the Up filter's
// zeros) and rows that differ in every byte (its wrap-around); the resolution is kept. The
// stream is also checked whole by zlib (its codes, its end, its checksum), and through
// runs longer than deflate's longest copy and runs that stop one or two bytes past one.
#include "tests/support/synthetic_trace.hpp"
#include "tests/viewer/qt_test_environment.hpp"
#include "viewer/gui/export/png_encoder.hpp"
#include "viewer/gui/export/render.hpp"

#include <gtest/gtest.h>

#include <QColor>

#include <zlib.h>

#include <cstring>
#include <string>

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

// The IDAT chunks of a PNG file, joined: its zlib stream.
std::string zlibStreamOf(const QByteArray& png) {
    std::string stream;
    for (qsizetype at = 8; at + 12 <= png.size();) {
        const auto* bytes = reinterpret_cast<const unsigned char*>(png.constData() + at);
        const auto length = static_cast<qsizetype>((std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16)
                                                    | (std::uint32_t{bytes[2]} << 8) | bytes[3]);
        if (std::memcmp(bytes + 4, "IDAT", 4) == 0) {
            stream.append(png.constData() + at + 8, static_cast<std::size_t>(length));
        }
        at += 12 + length;
    }
    return stream;
}

// Inflates the run encoder's stream with zlib, which checks every code and the Adler-32 at its
// end, and expects the Up-filtered rows of the image: (bytes per row + 1) x height bytes.
void expectWholeZlibStream(const QByteArray& png, std::size_t expectedBytes) {
    const std::string stream = zlibStreamOf(png);
    ASSERT_FALSE(stream.empty());
    std::string inflated(expectedBytes + 1, '\0');
    uLongf size = static_cast<uLongf>(inflated.size());
    ASSERT_EQ(::uncompress(reinterpret_cast<Bytef*>(inflated.data()), &size,
                           reinterpret_cast<const Bytef*>(stream.data()), static_cast<uLong>(stream.size())),
              Z_OK);
    EXPECT_EQ(size, expectedBytes);
}

TEST(PngRunEncoder, OpaqueImageDecodesToTheSamePixels) {
    QImage image = testImage(QImage::Format_RGB32, 37, 24);
    image.setDotsPerMeterX(3779);
    image.setDotsPerMeterY(2000);
    const QByteArray png = encodePngRuns(image);
    ASSERT_TRUE(png.startsWith("\x89PNG\r\n\x1a\n"));
    expectWholeZlibStream(png, (37 * 3 + 1) * 24);
    const QImage decoded = QImage::fromData(png, "PNG");
    EXPECT_FALSE(decoded.hasAlphaChannel());
    expectSamePixels(image, decoded);
    EXPECT_EQ(decoded.dotsPerMeterX(), 3779);
    EXPECT_EQ(decoded.dotsPerMeterY(), 2000);
}

TEST(PngRunEncoder, TranslucentImageKeepsItsAlpha) {
    const QImage image = testImage(QImage::Format_ARGB32, 19, 10);
    const QByteArray png = encodePngRuns(image);
    expectWholeZlibStream(png, (19 * 4 + 1) * 10);
    const QImage decoded = QImage::fromData(png, "PNG");
    EXPECT_TRUE(decoded.hasAlphaChannel());
    expectSamePixels(image, decoded);
}

// Flat rows of every length around deflate's longest copy (258 bytes): a run of 3 x w + 1
// filtered bytes whose repeats are copies of 258 and a rest of 0, 1, 2 or more bytes.
TEST(PngRunEncoder, RunsAroundTheLongestCopyDecodeExactly) {
    for (int width = 80; width <= 180; ++width) {
        QImage image(width, 5, QImage::Format_RGB32);
        image.fill(QColor(7, 7, 7));
        // A row of its own colour, and one pixel apart in the last row, so that runs stop at
        // every offset within a row.
        for (int x = 0; x < width; ++x) {
            image.setPixelColor(x, 2, QColor(200, 200, 200));
        }
        image.setPixelColor(width / 2, 4, QColor(1, 2, 3));
        const QByteArray png = encodePngRuns(image);
        expectWholeZlibStream(png, static_cast<std::size_t>(width * 3 + 1) * 5);
        expectSamePixels(image, QImage::fromData(png, "PNG"));
    }
}

TEST(PngRunEncoder, SinglePixelAndNullImage) {
    QImage pixel(1, 1, QImage::Format_RGB32);
    pixel.fill(QColor(255, 144, 143));
    const QByteArray png = encodePngRuns(pixel);
    expectWholeZlibStream(png, 4);
    expectSamePixels(pixel, QImage::fromData(png, "PNG"));
    EXPECT_TRUE(encodePngRuns(QImage()).isEmpty());
}

TEST(PngRunEncoder, RenderedChartReadsBackAsTheImageDrawn) {
    const auto document = prepareDocument(makeSyntheticTrace({}), "synthetic");
    const auto barriers = std::make_shared<const Barriers>(computeBarriers(*document, 100'000));
    RenderRequest request;
    request.size = {640, 360};
    const QImage image = renderImage(document, barriers, request);
    const QByteArray png = encodePngRuns(image);
    expectWholeZlibStream(png, (640 * 3 + 1) * 360);
    expectSamePixels(image, QImage::fromData(png, "PNG"));
}

} // namespace
