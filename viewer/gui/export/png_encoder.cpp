#include "viewer/gui/export/png_encoder.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
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

// Row y of image Up-filtered into filtered (its first byte the filter type, 2): each byte minus
// the one above it, the row above the first being zeros.
void upFilter(const QImage& image, std::size_t y, std::size_t rowBytes, std::vector<unsigned char>& filtered) {
    const auto* row = image.constScanLine(static_cast<int>(y));
    filtered[0] = 2;
    if (y == 0) {
        std::memcpy(filtered.data() + 1, row, rowBytes);
        return;
    }
    const auto* above = image.constScanLine(static_cast<int>(y - 1));
    for (std::size_t i = 0; i < rowBytes; ++i) {
        filtered[i + 1] = static_cast<unsigned char>(row[i] - above[i]);
    }
}

// Deflate's fixed Huffman codes (RFC 1951, 3.2.6), bit-reversed: deflate writes a code's first
// bit first, into the low end of each byte.
struct Code {
    std::uint32_t bits = 0;
    std::uint32_t length = 0;
};

std::uint32_t reversed(std::uint32_t code, std::uint32_t length) {
    std::uint32_t r = 0;
    for (std::uint32_t i = 0; i < length; ++i) {
        r = (r << 1) | ((code >> i) & 1U);
    }
    return r;
}

Code fixedCode(std::uint32_t symbol) {
    if (symbol < 144) {
        return {reversed(0x30 + symbol, 8), 8};
    }
    if (symbol < 256) {
        return {reversed(0x190 + symbol - 144, 9), 9};
    }
    if (symbol < 280) {
        return {reversed(symbol - 256, 7), 7};
    }
    return {reversed(0xc0 + symbol - 280, 8), 8};
}

// What the run encoder writes: a literal byte, a repeat of the previous byte 3-258 times (its
// length symbol, the length's extra bits and distance 1's five-bit code, as one bit string),
// the block's end.
struct RunCodes {
    std::array<Code, 256> literal;
    std::array<Code, 259> repeat;   // by length; 0-2 unused
    Code end;
};

const RunCodes& runCodes() {
    static const RunCodes codes = [] {
        RunCodes c;
        for (std::uint32_t b = 0; b < 256; ++b) {
            c.literal[b] = fixedCode(b);
        }
        // Length symbols 257-285: their base lengths and extra bits (RFC 1951, 3.2.5). 258 has a
        // symbol of its own: 284's extra bits stop at 257.
        constexpr std::array<std::uint32_t, 29> base{3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                                     31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
        constexpr std::array<std::uint32_t, 29> extra{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
        for (std::uint32_t length = 3; length <= 258; ++length) {
            std::size_t k = base.size() - 1;
            while (base[k] > length) {
                --k;
            }
            const Code symbol = fixedCode(257 + static_cast<std::uint32_t>(k));
            // Then distance 1: distance code 0, five zero bits.
            c.repeat[length] = {symbol.bits | ((length - base[k]) << symbol.length), symbol.length + extra[k] + 5};
        }
        c.end = fixedCode(256);
        return c;
    }();
    return codes;
}

// Bits into a buffer large enough for all of them, least significant first.
class BitWriter {
public:
    explicit BitWriter(unsigned char* out) : m_out(out) {}
    void put(Code code) {
        m_bits |= std::uint64_t{code.bits} << m_count;
        m_count += code.length;
        while (m_count >= 8) {
            m_out[m_size++] = static_cast<unsigned char>(m_bits);
            m_bits >>= 8;
            m_count -= 8;
        }
    }
    // Pads the last byte with zeros; the bytes written.
    std::size_t finish() {
        if (m_count > 0) {
            m_out[m_size++] = static_cast<unsigned char>(m_bits);
            m_bits = 0;
            m_count = 0;
        }
        return m_size;
    }

private:
    unsigned char* m_out;
    std::size_t m_size = 0;
    std::uint64_t m_bits = 0;
    std::uint32_t m_count = 0;
};

// The end of the run of b that starts at from (from itself when data[from] is not b), eight
// bytes at a time.
std::size_t runEnd(const unsigned char* data, std::size_t from, std::size_t size, unsigned char b) {
    std::size_t j = from;
    if constexpr (std::endian::native == std::endian::little) {
        const std::uint64_t pattern = 0x0101010101010101ULL * b;
        while (j + 8 <= size) {
            std::uint64_t word = 0;
            std::memcpy(&word, data + j, 8);
            if (const std::uint64_t diff = word ^ pattern; diff != 0) {
                return j + static_cast<std::size_t>(std::countr_zero(diff) / 8);
            }
            j += 8;
        }
    }
    while (j < size && data[j] == b) {
        ++j;
    }
    return j;
}

// data as literals, each byte's repeats after it as copies at distance 1.
void putRuns(BitWriter& out, const unsigned char* data, std::size_t size, const RunCodes& codes) {
    for (std::size_t i = 0; i < size;) {
        const unsigned char b = data[i];
        out.put(codes.literal[b]);
        const std::size_t end = runEnd(data, i + 1, size, b);
        std::size_t repeats = end - i - 1;
        for (; repeats >= 3; repeats -= std::min<std::size_t>(repeats, 258)) {
            out.put(codes.repeat[std::min<std::size_t>(repeats, 258)]);
        }
        for (; repeats > 0; --repeats) {
            out.put(codes.literal[b]);
        }
        i = end;
    }
}

// The file around an IDAT's zlib stream: signature, header, resolution, data, end.
QByteArray assemblePng(const QImage& image, bool alpha, const unsigned char* idat, std::size_t compressed) {
    QByteArray out;
    out.reserve(static_cast<qsizetype>(compressed + 128));
    out.append("\x89PNG\r\n\x1a\n", 8);
    QByteArray header;
    putBigEndian(header, static_cast<std::uint32_t>(image.width()));
    putBigEndian(header, static_cast<std::uint32_t>(image.height()));
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
    putChunk(out, "IDAT", reinterpret_cast<const char*>(idat), compressed);
    putChunk(out, "IEND", nullptr, 0);
    return out;
}

} // namespace

QByteArray encodePngRuns(const QImage& source) {
    if (source.isNull()) {
        return {};
    }
    const bool alpha = source.hasAlphaChannel();
    const QImage image = source.convertToFormat(alpha ? QImage::Format_RGBA8888 : QImage::Format_RGB888);
    const auto height = static_cast<std::size_t>(image.height());
    const std::size_t rowBytes = static_cast<std::size_t>(image.width()) * (alpha ? 4U : 3U);
    // At worst nine bits a byte; left uninitialised, so that only the pages written are touched.
    const std::size_t bound = 2 + ((rowBytes + 1) * height * 9 + 3 + 7 + 7) / 8 + 4;
    const std::unique_ptr<unsigned char[]> idat(new unsigned char[bound]);
    idat[0] = 0x78;   // zlib: deflate with a 32 KB window; the check bits make 0x7801 a multiple of 31
    idat[1] = 0x01;
    BitWriter out(idat.get() + 2);
    out.put(Code{0b011, 3});   // the last block, fixed Huffman codes
    const RunCodes& codes = runCodes();
    uLong adler = ::adler32(0L, nullptr, 0);
    std::vector<unsigned char> filtered(rowBytes + 1);
    for (std::size_t y = 0; y < height; ++y) {
        upFilter(image, y, rowBytes, filtered);
        adler = ::adler32(adler, filtered.data(), static_cast<uInt>(filtered.size()));
        putRuns(out, filtered.data(), filtered.size(), codes);
    }
    out.put(codes.end);
    std::size_t size = 2 + out.finish();
    for (int shift = 24; shift >= 0; shift -= 8) {
        idat[size++] = static_cast<unsigned char>(adler >> shift);
    }
    return assemblePng(image, alpha, idat.get(), size);
}

} // namespace starscope::viewer
