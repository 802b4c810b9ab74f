// A mapped file read front to back: the pages it is done with leave the process, the bytes stay
// the file's.

#include "common/mapped_file.hpp"
#include "tests/support/test_support.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <string>

namespace starscope::files {
namespace {

using starscope::testing::residentFileKib;

std::uint64_t sumOf(const MappedFile& map, std::size_t from, std::size_t to) {
    return std::accumulate(map.data() + from, map.data() + to, std::uint64_t{0});
}

TEST(MappedFile, PagesReleasedBehindTheReaderLeaveTheProcessAndReadAgainAsTheFile) {
    starscope::testing::TempDir dir;
    const auto path = dir / "trace.bin";
    constexpr std::size_t kSize = std::size_t{48} << 20;
    {
        std::string bytes(kSize, '\0');
        for (std::size_t i = 0; i < kSize; ++i) {
            bytes[i] = static_cast<char>((i * 131U) >> 7);
        }
        std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    const MappedFile map(path);
    ASSERT_EQ(map.error(), "");
    ASSERT_EQ(map.size(), kSize);
    const std::size_t before = residentFileKib();
    const auto whole = sumOf(map, 0, kSize);
    const std::size_t read = residentFileKib();
    ASSERT_GE(read, before + (40U << 10)) << "reading did not map the file's pages";

    // Three quarters read and done with: they leave; the rest stays.
    map.release(0, kSize / 4 * 3);
    const std::size_t released = residentFileKib();
    EXPECT_LE(released, read - (32U << 10));
    EXPECT_GE(released, before + (8U << 10));
    // Less than a page changes nothing.
    map.release(kSize / 4 * 3, kSize / 4 * 3 + 100);
    EXPECT_EQ(residentFileKib(), released);

    map.release(0, kSize);
    EXPECT_LE(residentFileKib(), before + (1U << 10));
    // A second pass from the start reads the same bytes, and releases as it goes: a step of
    // the file at a time is in the process.
    std::uint64_t again = 0;
    constexpr std::size_t kStep = std::size_t{4} << 20;
    for (std::size_t at = 0; at < kSize; at += kStep) {
        again += sumOf(map, at, at + kStep);
        map.release(at, at + kStep);
        EXPECT_LE(residentFileKib(), before + (6U << 10)) << at;
    }
    EXPECT_EQ(again, whole);
}

} // namespace
} // namespace starscope::files
