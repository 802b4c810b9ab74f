// Every reader on damaged copies of a golden input: truncated at every 1 KiB offset and with
// random bytes flipped (fixed seed). Each case must end in an error naming the file, or in a
// (partial) trace; a truncated trace that reads must carry a warning. Each read runs in a
// forked child under alarm(), so a crash or a hang fails the named case instead of the test.
#include "tests/hardening/isolated_reader.hpp"
#include "tests/support/test_support.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/native/native_format.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace starscope::hardening {
namespace {

namespace fs = std::filesystem;
using starscope::testing::TempDir;

std::string readBytes(const fs::path& file) {
    return starscope::testing::readFile(file);
}

void writeBytes(const fs::path& file, const std::string& bytes, std::size_t size) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(size));
}

struct Golden {
    std::string format;
    fs::path file;
    bool truncationNeedsWarning;   // false where a cut can leave a shorter valid input
};

class DamagedInputTest : public ::testing::TestWithParam<std::string> {
protected:
    Golden golden() {
        const auto small = starscope::testing::testDataDir() / "tracer" / "small";
        const std::string& format = GetParam();
        if (format == "fxt") {
            return {format, small / "prof_file__0", true};
        }
        if (format == "paje") {
            return {format, small / "paje.trace", true};
        }
        if (format == "native") {
            auto trace = tracer::readTrace({small / "prof_file__0"});
            EXPECT_TRUE(trace.ok());
            const auto file = m_dir / "golden.sstrace";
            EXPECT_TRUE(tracer::writeNativeFile(*trace, file).ok());
            return {format, file, true};
        }
        // The real MNIST labels (10008 bytes): a cut IDX file is always refused.
        return {format, starscope::testing::sourceDir() / "data" / "mnist" / "t10k-labels-idx1-ubyte", true};
    }
    TempDir m_dir;
};

TEST_P(DamagedInputTest, TruncatedAtEveryKibibyteEndsInErrorOrWarning) {
    const auto g = golden();
    const auto bytes = readBytes(g.file);
    ASSERT_GT(bytes.size(), 1024u) << g.file;
    const auto reader = readerFor(g.format);
    int cases = 0;
    // Every kibibyte, or finer in a file of less than ten (the small trace's native file holds
    // its spans and tasks as columns: 9 KiB), so that each format is cut at least ten times.
    const std::size_t step = std::min<std::size_t>(1024, bytes.size() / 10);
    for (std::size_t size = 0; size < bytes.size(); size += step) {
        const auto file = m_dir / (g.format + "_cut_at_" + std::to_string(size));
        writeBytes(file, bytes, size);
        Outcome outcome{};
        ASSERT_TRUE(runIsolated(reader, file, outcome));
        // A Paje file cut right after a line end is a shorter valid trace: nothing can tell.
        const bool cutAtLineEnd = g.format == "paje" && (size == 0 || bytes[size - 1] == '\n');
        if (g.truncationNeedsWarning && !cutAtLineEnd) {
            EXPECT_NE(outcome, TraceWithoutWarning)
                << file.filename() << ": a truncated input read without any warning";
        }
        ++cases;
        fs::remove(file);
    }
    EXPECT_GE(cases, 10);
}

TEST_P(DamagedInputTest, RandomByteFlipsNeverCrashOrHang) {
    const auto g = golden();
    const auto bytes = readBytes(g.file);
    const auto reader = readerFor(g.format);
    std::mt19937_64 random(20261202);
    std::uniform_int_distribution<std::size_t> position(0, bytes.size() - 1);
    std::uniform_int_distribution<int> flips(1, 8);
    std::uniform_int_distribution<int> bit(0, 7);
    int errors = 0;
    for (int c = 0; c < 100; ++c) {
        auto damaged = bytes;
        const int n = flips(random);
        for (int i = 0; i < n; ++i) {
            damaged[position(random)] ^= static_cast<char>(1 << bit(random));
        }
        const auto file = m_dir / (g.format + "_flips_case_" + std::to_string(c));
        writeBytes(file, damaged, damaged.size());
        Outcome outcome{};
        ASSERT_TRUE(runIsolated(reader, file, outcome));
        errors += outcome == ErrorNamingFile ? 1 : 0;
        fs::remove(file);
    }
    RecordProperty("errors", errors);
}

INSTANTIATE_TEST_SUITE_P(Formats, DamagedInputTest, ::testing::ValuesIn(readerFormats()));

// Inputs the fuzzers found crashing or hanging (tests/data/hardening/<target>/), replayed
// through their reader (readTrace and the whole pipeline as well for the trace formats).
TEST(FuzzRegressions, EveryKeptInputEndsInErrorOrTrace) {
    const auto root = starscope::testing::testDataDir() / "hardening";
    int replayed = 0;
    for (const std::string& target : readerFormats()) {
        if (!fs::is_directory(root / target)) {
            continue;
        }
        for (const auto& entry : fs::directory_iterator(root / target)) {
            Outcome outcome{};
            EXPECT_TRUE(runIsolated(readerFor(target), entry.path(), outcome)) << target;
            if (target != "idx") {
                EXPECT_TRUE(runIsolated(readerFor("any"), entry.path(), outcome)) << target;
                // The fuzzers run the whole pipeline on what they decode: so does the replay.
                EXPECT_TRUE(runIsolated(readerFor("pipeline"), entry.path(), outcome)) << target;
            }
            ++replayed;
        }
    }
    RecordProperty("replayed", replayed);
}

} // namespace
} // namespace starscope::hardening
