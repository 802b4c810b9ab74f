#pragma once
// PNG files of rendered charts, written without Qt's writer. Qt's writer lets libpng try all five
// row filters on every row to pick one, which was most of a headless render's picture time (15 %
// of the CPU of rendering a one-epoch CNN trace); a chart's rows mostly repeat the row above, so
// the "Up" filter alone leaves runs of zeros. Lossless: the same pixels as Qt's writer.

#include <QByteArray>
#include <QImage>

namespace starscope::viewer {

// image as an 8-bit RGB PNG (RGBA when it has an alpha channel) with its resolution (pHYs) as Qt
// writes it, its Up-filtered rows packed by run length alone, in deflate's fixed codes
// (a byte, then copies of the byte before): no search for matches and no code tables to build,
// which zlib's fastest level spends its time on. A chart's rows are runs (zeros where a row
// repeats the one above, flat colour across bars), so the file is about 1.5-2 times zlib's
// level 1 and written several times faster: zlib took about a sixth of the CPU time of a
// headless render of a one-epoch CNN trace. Empty when image is null.
QByteArray encodePngRuns(const QImage& image);

} // namespace starscope::viewer
