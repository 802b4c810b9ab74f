// The native format: exact round trip, distinct errors for newer, older and damaged files.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

namespace starscope::tracer {
namespace {

using namespace testing;
using starscope::testing::TempDir;

std::string bytes(const Trace& trace) {
    std::ostringstream out;
    writeNative(trace, out);
    return out.str();
}

void writeBytes(const std::filesystem::path& path, const std::string& data) {
    std::ofstream(path, std::ios::binary) << data;
}

TEST(NativeFormat, RoundTripIsExact) {
    auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    TempDir dir;
    ASSERT_TRUE(writeNativeFile(*trace, dir / "t.sstrace"));
    EXPECT_EQ(detectFormat(dir / "t.sstrace").value(), InputFormat::Native);
    const auto back = readTrace(dir / "t.sstrace");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, *trace);
    EXPECT_EQ(bytes(*back), bytes(*trace));   // deterministic bytes
}

TEST(NativeFormat, RunFolderUsesItsFreshCache) {
    TempDir dir;
    const auto run = dir / "run";
    std::filesystem::create_directories(run);
    std::filesystem::copy_file(smallProfFile(), run / "prof_file__0");
    const auto direct = readTrace(run);
    ASSERT_TRUE(direct);
    EXPECT_FALSE(direct->metadata.contains("cache"));
    ASSERT_TRUE(writeNativeFile(*direct, run / "trace.sstrace"));
    const auto cached = readTrace(run);
    ASSERT_TRUE(cached);
    EXPECT_EQ(cached->metadata.at("cache"), (run / "trace.sstrace").string());
    EXPECT_EQ(cached->lanes, direct->lanes);
    EXPECT_EQ(cached->tasks, direct->tasks);
    // A damaged cache is ignored, not an error.
    writeBytes(run / "trace.sstrace", "SSTRACE");
    const auto fallback = readTrace(run);
    ASSERT_TRUE(fallback);
    EXPECT_FALSE(fallback->metadata.contains("cache"));
}

TEST(NativeFormat, TooNewAndTooOldAreDistinctErrors) {
    const auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    auto data = bytes(*trace);
    TempDir dir;
    for (const std::uint32_t version : {kNativeVersion + 1, 0U}) {
        std::memcpy(data.data() + 8, &version, 4);
        writeBytes(dir / "v.sstrace", data);
        const auto back = readNative(dir / "v.sstrace");
        ASSERT_FALSE(back);
        EXPECT_EQ(back.error().code, version == 0 ? ErrorCode::TooOld : ErrorCode::TooNew);
        EXPECT_EQ(back.error().offset, 8U);
        EXPECT_NE(back.error().message.find(std::to_string(version)), std::string::npos);
    }
}

TEST(NativeFormat, TruncatedAndDamagedFilesAreErrorsNotCrashes) {
    const auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    const auto data = bytes(*trace);
    TempDir dir;
    for (const std::size_t size : {std::size_t{3}, std::size_t{30}, data.size() / 2, data.size() - 1}) {
        writeBytes(dir / "cut.sstrace", data.substr(0, size));
        const auto back = readTrace(dir / "cut.sstrace");
        ASSERT_FALSE(back) << "size " << size;
        EXPECT_TRUE(back.error().code == ErrorCode::Corrupt || back.error().code == ErrorCode::Format
                    || back.error().code == ErrorCode::Unsupported)
            << back.error().describe();
        EXPECT_TRUE(back.error().offset.has_value());
    }
    auto damaged = data;
    damaged[data.size() / 2] = static_cast<char>(damaged[data.size() / 2] ^ 0x5a);
    writeBytes(dir / "bad.sstrace", damaged);
    const auto back = readNative(dir / "bad.sstrace");
    ASSERT_FALSE(back);
    EXPECT_EQ(back.error().code, ErrorCode::Corrupt);
    EXPECT_NE(back.error().message.find("checksum"), std::string::npos);
}

} // namespace
} // namespace starscope::tracer
