// Readers on enormous inputs: files of 64 GiB (sparse: a real head, then a hole) must end in
// an error or a partial trace, or be cancellable, without reading them into memory: each read
// runs in a forked child under alarm() and its peak resident memory must stay far below the
// file's size.
#include "tests/hardening/isolated_reader.hpp"
#include "tests/support/test_support.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/native/native_format.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>

namespace starscope::hardening {
namespace {

namespace fs = std::filesystem;
using starscope::testing::TempDir;

constexpr std::uintmax_t kEnormous = std::uintmax_t{64} << 30;
// The child starts as a copy of the test process; a reader that held the file in memory
// would need 64 GiB.
constexpr long kPeakLimitKiB = 1L << 20;

fs::path smallTraces() {
    return starscope::testing::testDataDir() / "tracer" / "small";
}

::testing::AssertionResult readsWithinLimits(const Reader& reader, const fs::path& file, Outcome& outcome) {
    long peakKiB = 0;
    auto result = runIsolated(reader, file, outcome, &peakKiB);
    if (!result) {
        return result;
    }
    if (peakKiB > kPeakLimitKiB) {
        return ::testing::AssertionFailure() << file.filename() << ": the reader's peak memory was "
                                             << peakKiB / 1024 << " MiB";
    }
    return ::testing::AssertionSuccess() << "peak " << peakKiB / 1024 << " MiB";
}

TEST(EnormousInput, FxtTraceWithAHugeDamagedTailEndsAtTheDamage) {
    TempDir dir;
    const auto golden = starscope::testing::readFile(smallTraces() / "prof_file__0");
    const auto file = dir / "prof_file_enormous";
    ASSERT_TRUE(starscope::testing::writeSparseFile(file, golden.substr(0, golden.size() / 2), kEnormous));
    for (const std::string reader : {"fxt", "any"}) {
        Outcome outcome{};
        ASSERT_TRUE(readsWithinLimits(readerFor(reader), file, outcome)) << reader;
        EXPECT_NE(outcome, TraceWithoutWarning) << reader << ": 64 GiB of zeros read without a warning";
    }
}

TEST(EnormousInput, PajeTraceWithAHugeBinaryTailIsRefused) {
    TempDir dir;
    const auto file = dir / "enormous.trace";
    ASSERT_TRUE(starscope::testing::writeSparseFile(
        file, starscope::testing::readFile(smallTraces() / "paje.trace"), kEnormous));
    for (const std::string reader : {"paje", "any"}) {
        Outcome outcome{};
        ASSERT_TRUE(readsWithinLimits(readerFor(reader), file, outcome)) << reader;
        EXPECT_EQ(outcome, ErrorNamingFile) << reader;
    }
}

TEST(EnormousInput, ZerosOfManyGibibytesAreNotATrace) {
    TempDir dir;
    const auto file = dir / "zeros.bin";
    ASSERT_TRUE(starscope::testing::writeSparseFile(file, {}, kEnormous));
    Outcome outcome{};
    ASSERT_TRUE(readsWithinLimits(readerFor("any"), file, outcome));
    EXPECT_EQ(outcome, ErrorNamingFile);
}

#if STARSCOPE_HARDENING_IDX
TEST(EnormousInput, IdxFileOfManyGibibytesIsRefused) {
    TempDir dir;
    const auto labels = starscope::testing::readFile(starscope::testing::sourceDir() / "data" / "mnist"
                                                     / "t10k-labels-idx1-ubyte");
    const auto file = dir / "enormous-labels-idx1-ubyte";
    ASSERT_TRUE(starscope::testing::writeSparseFile(file, labels, kEnormous));
    Outcome outcome{};
    ASSERT_TRUE(readsWithinLimits(readerFor("idx"), file, outcome));
    EXPECT_EQ(outcome, ErrorNamingFile);
}
#endif

// A native file whose header announces 64 GiB of payload: checking it would take minutes,
// so the reader must report progress while it checks and stop when told to.
class EnormousNativeTest : public ::testing::Test {
protected:
    void SetUp() override {
        auto trace = tracer::readTrace({smallTraces() / "prof_file__0"});
        ASSERT_TRUE(trace.ok()) << trace.error().describe();
        const auto small = m_dir / "small.sstrace";
        ASSERT_TRUE(tracer::writeNativeFile(*trace, small).ok());
        m_head = starscope::testing::readFile(small);
        ASSERT_GT(m_head.size(), kPayloadSizeOffset + 8);
    }
    // Writes the head with its payload size set to payloadSize, extended to 64 GiB.
    fs::path enormousNative(const std::string& name, std::uint64_t payloadSize) {
        std::string head = m_head;
        std::memcpy(head.data() + kPayloadSizeOffset, &payloadSize, sizeof payloadSize);
        const auto file = m_dir / name;
        EXPECT_TRUE(starscope::testing::writeSparseFile(file, head, kEnormous));
        return file;
    }

    static constexpr std::size_t kPayloadSizeOffset = 16;   // after magic, version, flags
    static constexpr std::uint64_t kHeaderAndChecksum = 24 + 8;
    TempDir m_dir;
    std::string m_head;
};

TEST_F(EnormousNativeTest, ReadingCanBeCancelledWhileTheChecksumRuns) {
    const auto file = enormousNative("enormous.sstrace", kEnormous - kHeaderAndChecksum);
    const Reader cancelAtFirstProgress = [](const fs::path& f) {
        int calls = 0;
        double reported = -1;
        tracer::ReadOptions options;
        options.progress = [&](double fraction) {
            ++calls;
            reported = fraction;
            return false;
        };
        auto trace = tracer::readNative(f, options);
        const bool cancelledOnce = !trace && trace.error().code == tracer::ErrorCode::Cancelled && calls == 1
                                   && reported > 0 && reported < 0.01;
        // Anything else shows up as a trace read without a warning: the test names it.
        return cancelledOnce ? traceOutcome(trace, f) : TraceWithoutWarning;
    };
    Outcome outcome{};
    ASSERT_TRUE(readsWithinLimits(cancelAtFirstProgress, file, outcome));
    EXPECT_EQ(outcome, ErrorNamingFile) << "the read was not cancelled at its first progress report";
}

TEST_F(EnormousNativeTest, HeaderAnnouncingMoreThanTheFileIsRefused) {
    const auto file = enormousNative("too-short.sstrace", kEnormous);
    for (const std::string reader : {"native", "any"}) {
        Outcome outcome{};
        ASSERT_TRUE(readsWithinLimits(readerFor(reader), file, outcome)) << reader;
        EXPECT_EQ(outcome, ErrorNamingFile) << reader;
    }
}

} // namespace
} // namespace starscope::hardening
