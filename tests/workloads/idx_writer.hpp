#pragma once
// Writes small IDX files for the tests (big-endian header + bytes), valid or deliberately not.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace starscope::workloads::testing {

inline void appendBigEndian32(std::string& out, std::uint32_t value) {
    out += static_cast<char>((value >> 24) & 0xff);
    out += static_cast<char>((value >> 16) & 0xff);
    out += static_cast<char>((value >> 8) & 0xff);
    out += static_cast<char>(value & 0xff);
}

inline std::string idxImages(std::uint32_t count, std::uint32_t rows, std::uint32_t cols,
                             const std::vector<std::uint8_t>& pixels,
                             std::uint32_t magic = 0x00000803) {
    std::string out;
    appendBigEndian32(out, magic);
    appendBigEndian32(out, count);
    appendBigEndian32(out, rows);
    appendBigEndian32(out, cols);
    out.append(pixels.begin(), pixels.end());
    return out;
}

inline std::string idxLabels(const std::vector<std::uint8_t>& labels,
                             std::uint32_t magic = 0x00000801) {
    std::string out;
    appendBigEndian32(out, magic);
    appendBigEndian32(out, static_cast<std::uint32_t>(labels.size()));
    out.append(labels.begin(), labels.end());
    return out;
}

inline void writeBytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// A complete, valid dataset folder of `count` training and test images of 28x28 pixels.
inline void writeTinyDataset(const std::filesystem::path& dir, std::uint32_t count) {
    std::filesystem::create_directories(dir);
    std::vector<std::uint8_t> pixels(count * 28 * 28);
    for (std::size_t i = 0; i < pixels.size(); ++i) {
        pixels[i] = static_cast<std::uint8_t>(i * 7 % 256);
    }
    std::vector<std::uint8_t> labels(count);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        labels[i] = static_cast<std::uint8_t>(i % 10);
    }
    writeBytes(dir / "train-images-idx3-ubyte", idxImages(count, 28, 28, pixels));
    writeBytes(dir / "train-labels-idx1-ubyte", idxLabels(labels));
    writeBytes(dir / "t10k-images-idx3-ubyte", idxImages(count, 28, 28, pixels));
    writeBytes(dir / "t10k-labels-idx1-ubyte", idxLabels(labels));
}

} // namespace starscope::workloads::testing
