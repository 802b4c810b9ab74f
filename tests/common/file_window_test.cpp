// A file read front to back through a window: every stretch asked for holds the file's bytes,
// at the alignment asked for, whatever the window's size; a file cut while read ends there.

#include "common/file_window.hpp"
#include "tests/support/test_support.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace starscope::files {
namespace {

std::string patternBytes(std::size_t size) {
    std::string bytes(size, '\0');
    for (std::size_t i = 0; i < size; ++i) {
        bytes[i] = static_cast<char>((i * 131U) >> 3);
    }
    return bytes;
}

void writeBytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A file of `size` pattern bytes in a scratch folder.
struct PatternFile {
    explicit PatternFile(std::size_t size) : bytes(patternBytes(size)) { writeBytes(path, bytes); }
    starscope::testing::TempDir dir;
    std::filesystem::path path = dir / "data.bin";
    std::string bytes;
};

// The window's stretch [from, to) is the file's.
::testing::AssertionResult holdsFileBytes(const FileWindow& in, const std::string& file, std::uint64_t from,
                                          std::uint64_t to) {
    if (!in.holds(from, to)) {
        return ::testing::AssertionFailure() << "the window [" << in.base() << ", " << in.end() << ") misses ["
                                             << from << ", " << to << ")";
    }
    const std::string_view held(reinterpret_cast<const char*>(in.data()) + (from - in.base()), to - from);
    if (held != std::string_view(file).substr(from, to - from)) {
        return ::testing::AssertionFailure() << "bytes [" << from << ", " << to << ") differ from the file's";
    }
    return ::testing::AssertionSuccess();
}

TEST(FileWindow, SlidesThroughTheWholeFileAtTheAlignmentAskedFor) {
    const PatternFile file(100'003);
    const auto& bytes = file.bytes;
    for (const std::size_t capacity : {std::size_t{64}, std::size_t{4096}, std::size_t{1} << 20}) {
        FileWindow in(file.path, capacity);
        ASSERT_EQ(in.error(), "");
        ASSERT_EQ(in.size(), bytes.size());
        // Records of 24 to 53 bytes from offset 6 on, each read in place at 8 bytes.
        std::uint64_t at = 6;
        std::size_t slides = 0;
        for (std::size_t n = 0; at < bytes.size(); ++n) {
            const std::uint64_t length = 24 + n % 30;
            const std::uint64_t to = std::min<std::uint64_t>(at + length, bytes.size());
            if (!in.holds(at, to)) {
                ASSERT_TRUE(in.slide(at, to, at)) << at;
                ++slides;
                EXPECT_EQ(reinterpret_cast<std::uintptr_t>(in.data()) % 8, 0U) << at;
            }
            ASSERT_TRUE(holdsFileBytes(in, bytes, at, to)) << "capacity " << capacity;
            EXPECT_EQ(reinterpret_cast<std::uintptr_t>(in.data() + (at - in.base())) % 8, (at - in.base()) % 8);
            at = to;
        }
        EXPECT_GT(slides, bytes.size() / capacity) << capacity;
        EXPECT_EQ(in.end(), bytes.size());
    }
}

TEST(FileWindow, KeepsWhatItHoldsFromWhereItSlidesTo) {
    const PatternFile file(10'000);
    const auto& bytes = file.bytes;
    FileWindow in(file.path, 1024);
    ASSERT_TRUE(in.slide(0, 100, 3));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(in.data() + 3) % 8, 0U);
    EXPECT_EQ(in.end(), 1024U - 5U);   // filled but for the 5 bytes that put offset 3 on 8
    ASSERT_TRUE(holdsFileBytes(in, bytes, 0, in.end()));
    // Kept from 900 on, and filled further.
    ASSERT_TRUE(in.slide(900, 1500, 900));
    EXPECT_EQ(in.base(), 900U);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(in.data()) % 8, 0U);
    ASSERT_TRUE(holdsFileBytes(in, bytes, 900, 1500));
    // Beyond the window: nothing kept, read from there; the file's end stops it.
    ASSERT_TRUE(in.slide(9'500, 10'000, 9'501));
    ASSERT_TRUE(holdsFileBytes(in, bytes, 9'500, 10'000));
    EXPECT_EQ(in.end(), in.size());
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(in.data() + 1) % 8, 0U);
}

TEST(FileWindow, AFileCutWhileReadEndsWhereItWasCut) {
    const PatternFile file(50'000);
    const auto& bytes = file.bytes;
    FileWindow in(file.path, 4096);
    ASSERT_TRUE(in.slide(0, 1000, 0));
    ASSERT_EQ(::truncate(file.path.c_str(), 20'000), 0);
    std::uint64_t at = 0;
    while (in.end() < in.size()) {
        at = in.end() - 100;
        in.slide(at, at + 2000, at);
    }
    EXPECT_EQ(in.size(), 20'000U);
    EXPECT_FALSE(in.slide(19'900, 20'100, 19'900) && in.end() >= 20'100);
    EXPECT_TRUE(holdsFileBytes(in, bytes, 19'900, 20'000));
    EXPECT_EQ(in.error(), "");
}

TEST(FileWindow, WhatCannotBeReadSaysWhy) {
    starscope::testing::TempDir dir;
    FileWindow missing(dir / "missing.bin");
    EXPECT_NE(missing.error(), "");
    EXPECT_FALSE(missing.slide(0, 8, 0));
    const auto fifo = dir / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    FileWindow pipe(fifo);
    EXPECT_EQ(pipe.error(), "not a regular file");
    FileWindow folder(dir.path());
    EXPECT_EQ(folder.error(), "not a regular file");
    const auto empty = dir / "empty.bin";
    writeBytes(empty, "");
    FileWindow none(empty);
    EXPECT_EQ(none.error(), "");
    EXPECT_TRUE(none.slide(0, 8, 0));
    EXPECT_EQ(none.end(), 0U);
}

} // namespace
} // namespace starscope::files
