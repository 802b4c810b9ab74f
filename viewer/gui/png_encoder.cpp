#include "viewer/gui/png_encoder.hpp"

#include <zlib.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace starscope::viewer {

namespace {

void putBigEndian(QByteArray& out, std::uint32_t value) {
    const std::array<char, 4> bytes{static_cast<char>(value >> 24), static_cast<char>(value >> 16),
                                    static_cast<char>(value >> 8), static_cast<char>(value)};
    out.append(bytes.data(), 4);
}

// A chunk: length, type, data, and the CRC-32 of type and data.
void putChunk(QByteArray& out, std::string_view type, const char* data, std::size_t size) {
    putBigEndian(out, static_cast<std::uint32_t>(size));
    const auto typeAt = out.size();
    out.append(type.data(), static_cast<qsizetype>(type.size()));
    out.append(data, static_cast<qsizetype>(size));
    const auto crc = ::crc32(0L, reinterpret_cast<const Bytef*>(out.constData() + typeAt),
                             static_cast<uInt>(type.size() + size));
    putBigEndian(out, static_cast<std::uint32_t>(crc));
}

} // namespace

QByteArray encodePng(const QImage& source, int zlibLevel) {
    if (source.isNull()) {
        return {};
    }
    const bool alpha = source.hasAlphaChannel();
    // Bytes in PNG's channel order: what QImage holds as RGB888 / RGBA8888 (no premultiplying).
    const QImage image = source.convertToFormat(alpha ? QImage::Format_RGBA8888 : QImage::Format_RGB888);
    const auto width = static_cast<std::size_t>(image.width());
    const auto height = static_cast<std::size_t>(image.height());
    const std::size_t rowBytes = width * (alpha ? 4U : 3U);

    z_stream zs{};
    if (::deflateInit(&zs, zlibLevel) != Z_OK) {
        return {};
    }
    std::vector<unsigned char> idat(::deflateBound(&zs, static_cast<uLong>((rowBytes + 1) * height)));
    zs.next_out = idat.data();
    zs.avail_out = static_cast<uInt>(idat.size());
    std::vector<unsigned char> filtered(rowBytes + 1);
    filtered[0] = 2;   // Up: each byte minus the one above it (the row above the first is zeros)
    bool ok = true;
    for (std::size_t y = 0; y < height && ok; ++y) {
        const auto* row = image.constScanLine(static_cast<int>(y));
        if (y == 0) {
            std::memcpy(filtered.data() + 1, row, rowBytes);
        } else {
            const auto* above = image.constScanLine(static_cast<int>(y - 1));
            for (std::size_t i = 0; i < rowBytes; ++i) {
                filtered[i + 1] = static_cast<unsigned char>(row[i] - above[i]);
            }
        }
        zs.next_in = filtered.data();
        zs.avail_in = static_cast<uInt>(filtered.size());
        ok = ::deflate(&zs, y + 1 == height ? Z_FINISH : Z_NO_FLUSH) != Z_STREAM_ERROR && zs.avail_in == 0;
    }
    ok = ok && zs.avail_out > 0 && zs.total_out > 0;
    const std::size_t compressed = zs.total_out;
    ::deflateEnd(&zs);
    if (!ok) {
        return {};
    }

    QByteArray out;
    out.reserve(static_cast<qsizetype>(compressed + 128));
    out.append("\x89PNG\r\n\x1a\n", 8);
    QByteArray header;
    putBigEndian(header, static_cast<std::uint32_t>(width));
    putBigEndian(header, static_cast<std::uint32_t>(height));
    header.append(static_cast<char>(8));             // bits per channel
    header.append(static_cast<char>(alpha ? 6 : 2)); // RGBA or RGB
    header.append(3, '\0');                          // deflate, adaptive filtering, no interlace
    putChunk(out, "IHDR", header.constData(), static_cast<std::size_t>(header.size()));
    if (image.dotsPerMeterX() > 0 && image.dotsPerMeterY() > 0) {
        QByteArray physical;
        putBigEndian(physical, static_cast<std::uint32_t>(image.dotsPerMeterX()));
        putBigEndian(physical, static_cast<std::uint32_t>(image.dotsPerMeterY()));
        physical.append(static_cast<char>(1));   // per metre
        putChunk(out, "pHYs", physical.constData(), static_cast<std::size_t>(physical.size()));
    }
    putChunk(out, "IDAT", reinterpret_cast<const char*>(idat.data()), compressed);
    putChunk(out, "IEND", nullptr, 0);
    return out;
}

} // namespace starscope::viewer
