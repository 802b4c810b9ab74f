// Bad input never crashes or hangs: a clear error with the file (and byte offset), or a
// partial trace with a warning that says what was dropped.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

namespace starscope::tracer {
namespace {

using namespace testing;
using starscope::testing::readFile;
using starscope::testing::TempDir;

void writeBytes(const std::filesystem::path& path, const std::string& data) {
    std::ofstream(path, std::ios::binary) << data;
}

TEST(ReadErrors, MissingFileAndEmptyFolderNameThePath) {
    TempDir dir;
    auto trace = readTrace(dir / "nothing-here");
    ASSERT_FALSE(trace);
    EXPECT_EQ(trace.error().code, ErrorCode::Io);
    EXPECT_NE(trace.error().describe().find("nothing-here"), std::string::npos);
    trace = readTrace(dir.path());
    ASSERT_FALSE(trace);
    EXPECT_NE(trace.error().message.find("prof_file_"), std::string::npos);
}

// Several prof files are the processes of one run: one of them twice (by name or through a link)
// is a mistake, not a second rank.
TEST(ReadErrors, OneProfFileGivenTwiceIsRefused) {
    TempDir dir;
    std::filesystem::create_symlink(smallProfFile(), dir / "link");
    for (const auto& second : {smallProfFile(), dir / "link"}) {
        const auto trace = readTrace(std::vector<std::filesystem::path>{smallProfFile(), second});
        ASSERT_FALSE(trace) << second;
        EXPECT_EQ(trace.error().code, ErrorCode::InvalidArgument);
        EXPECT_NE(trace.error().describe().find(second.string() + ": the same file as "
                                                + smallProfFile().string() + ", given twice"),
                  std::string::npos)
            << trace.error().describe();
    }
}

TEST(ReadErrors, EmptyAndTextFilesAreNotTraces) {
    TempDir dir;
    writeBytes(dir / "empty", "");
    auto trace = readTrace(dir / "empty");
    ASSERT_FALSE(trace);
    EXPECT_EQ(trace.error().code, ErrorCode::Format);
    EXPECT_EQ(trace.error().offset, 0U);
    writeBytes(dir / "notes.txt", "just some notes\nabout nothing\n");
    trace = readTrace(dir / "notes.txt");
    ASSERT_FALSE(trace);
    EXPECT_EQ(trace.error().code, ErrorCode::Format);
}

TEST(ReadErrors, BinaryGarbageIsRejectedByLibfxtWithoutCrashing) {
    TempDir dir;
    std::string garbage(4096, '\0');
    std::mt19937 random(7);
    for (auto& c : garbage) {
        c = static_cast<char>(random());
    }
    writeBytes(dir / "garbage", garbage);
    const auto trace = readTrace(dir / "garbage");
    ASSERT_FALSE(trace);
    EXPECT_NE(trace.error().describe().find("garbage"), std::string::npos);
}

TEST(ReadErrors, TruncatedFxtGivesAnErrorOrAPartialTraceWithWarning) {
    const auto data = readFile(smallProfFile());
    const auto full = readTrace(smallProfFile());
    ASSERT_TRUE(full);
    TempDir dir;
    for (const std::size_t size : {std::size_t{16}, std::size_t{200}, data.size() / 3, data.size() - 100}) {
        writeBytes(dir / "prof_file_cut", data.substr(0, size));
        const auto trace = readTrace(dir / "prof_file_cut");
        if (!trace) {
            EXPECT_NE(trace.error().describe().find("prof_file_cut"), std::string::npos);
            EXPECT_TRUE(trace.error().offset.has_value()) << trace.error().describe();
            continue;
        }
        // libfxt returns the events of the complete blocks: fewer tasks, still a valid model.
        EXPECT_LE(trace->tasks.size(), full->tasks.size()) << "size " << size;
        for (const auto& lane : trace->lanes) {
            for (std::size_t i = 1; i < lane.spans().size(); ++i) {
                EXPECT_LE(lane.spans()[i - 1].end, lane.spans()[i].start);
            }
        }
    }
}

TEST(ReadErrors, CutFxtBlockIsReportedWithItsByteOffset) {
    const auto data = readFile(smallProfFile());
    TempDir dir;
    writeBytes(dir / "prof_file_cut", data.substr(0, data.size() - 1000));
    const auto trace = readTrace(dir / "prof_file_cut");
    ASSERT_TRUE(trace) << trace.error().describe();
    ASSERT_FALSE(trace->warnings.empty());
    EXPECT_NE(trace->warnings.front().find("byte "), std::string::npos) << trace->warnings.front();
    EXPECT_NE(trace->warnings.front().find("truncated"), std::string::npos) << trace->warnings.front();
}

TEST(ReadErrors, DamagedFxtNeverCrashesAndStaysConsistent) {
    const auto data = readFile(smallProfFile());
    TempDir dir;
    std::mt19937 random(42);
    for (int round = 0; round < 12; ++round) {
        auto damaged = data;
        for (int i = 0; i < 40; ++i) {
            damaged[random() % damaged.size()] = static_cast<char>(random());
        }
        writeBytes(dir / "prof_file_bad", damaged);
        const auto trace = readTrace(dir / "prof_file_bad");
        if (!trace) {
            EXPECT_FALSE(trace.error().describe().empty());
            continue;
        }
        for (const auto& lane : trace->lanes) {
            for (const auto& level : lane.levels) {
                for (std::size_t i = 0; i < level.size(); ++i) {
                    EXPECT_LT(level[i].start, level[i].end);
                    EXPECT_LE(level[i].end, trace->end);
                    if (i > 0) {
                        EXPECT_LE(level[i - 1].end, level[i].start);
                    }
                }
            }
        }
    }
}

TEST(ReadErrors, TruncatedPajeStillReadsWhatIsComplete) {
    const auto data = readFile(smallPaje());
    TempDir dir;
    writeBytes(dir / "cut.trace", data.substr(0, data.size() * 2 / 3));
    const auto trace = readTrace(dir / "cut.trace");
    if (trace) {
        EXPECT_FALSE(trace->lanes.empty());
    } else {
        EXPECT_TRUE(trace.error().offset.has_value()) << trace.error().describe();
    }
}

} // namespace
} // namespace starscope::tracer
