#pragma once
// PNG files of rendered charts, written with zlib directly. Qt's writer lets libpng try all five
// row filters on every row to pick one, which was most of a headless render's picture time (15 %
// of the CPU of rendering a one-epoch CNN trace); a chart's rows mostly repeat the row above, so
// the "Up" filter alone leaves runs of zeros that zlib's fastest level packs about as tightly.
// Lossless either way: the same pixels as Qt's writer, in a file of a slightly different size.

#include <QByteArray>
#include <QImage>

namespace starscope::viewer {

// image as an 8-bit RGB PNG (RGBA when it has an alpha channel), its rows Up-filtered and
// deflated at zlibLevel (0-9), with its resolution (pHYs) as Qt writes it. Empty when image is
// null or zlib fails.
QByteArray encodePng(const QImage& image, int zlibLevel);

} // namespace starscope::viewer
