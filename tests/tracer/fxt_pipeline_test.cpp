// The FxT walk in a thread of its own (DirectDecode::Pipelined) against the walk in the
// reading thread: the same events in the same order, the same damage found, the same model,
// and a reader that gives up early stops the walking thread instead of waiting for it.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/readers/fxt/fxt_direct.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>

namespace starscope::tracer {
namespace {

using namespace testing;
using detail::DirectDecode;
using starscope::testing::readFile;
using starscope::testing::TempDir;

struct Walked {
    std::vector<CopiedEvent> events;
    detail::DirectFxtSummary summary;
};

Walked walk(const std::filesystem::path& file, DirectDecode mode) {
    Walked out;
    auto read = detail::readFxtDirect(
        file, 0, ~std::uint64_t{0},
        [&out](const detail::RawEvent& ev) {
            out.events.push_back(copyOf(ev));
            return true;
        },
        {}, mode);
    EXPECT_TRUE(read) << read.error().describe();
    if (read) {
        out.summary = std::move(*read);
    }
    return out;
}

void expectSameWalk(const Walked& serial, const Walked& pipelined) {
    EXPECT_EQ(serial.summary.stream.events, pipelined.summary.stream.events);
    EXPECT_EQ(serial.summary.stream.firstTime, pipelined.summary.stream.firstTime);
    EXPECT_EQ(serial.summary.stream.lastTime, pipelined.summary.stream.lastTime);
    EXPECT_EQ(serial.summary.stream.bytesRead, pipelined.summary.stream.bytesRead);
    EXPECT_EQ(serial.summary.stream.endedEarly, pipelined.summary.stream.endedEarly);
    ASSERT_EQ(serial.summary.problems.size(), pipelined.summary.problems.size());
    for (std::size_t i = 0; i < serial.summary.problems.size(); ++i) {
        EXPECT_EQ(serial.summary.problems[i].offset, pipelined.summary.problems[i].offset);
        EXPECT_EQ(serial.summary.problems[i].what, pipelined.summary.problems[i].what);
    }
    ASSERT_EQ(serial.events.size(), pipelined.events.size());
    for (std::size_t i = 0; i < serial.events.size(); ++i) {
        ASSERT_EQ(serial.events[i], pipelined.events[i]) << "event " << i;
    }
}

// A trace of about 9 MB: many batches of the pipeline, and above the size from which readFxt
// walks in a second thread.
class FxtPipeline : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_dir = new TempDir;
        ASSERT_EQ(recordSample(s_dir->path() / "run", "--batches 4 --tasks 1500 --task-us 0 --load-us 0 --ncpu 2"), 0);
        s_prof = findProfFiles(s_dir->path() / "run").front();
        ASSERT_GE(std::filesystem::file_size(s_prof), detail::kPipelineMinBytes);
    }
    static void TearDownTestSuite() {
        delete s_dir;
        s_dir = nullptr;
    }
    static TempDir* s_dir;
    static std::filesystem::path s_prof;
};
TempDir* FxtPipeline::s_dir = nullptr;
std::filesystem::path FxtPipeline::s_prof;

TEST_F(FxtPipeline, SeesTheEventsOfTheSerialWalk) {
    const auto serial = walk(s_prof, DirectDecode::Serial);
    const auto pipelined = walk(s_prof, DirectDecode::Pipelined);
    // More events than one batch holds, or the hand-over between batches goes untested.
    ASSERT_GT(serial.events.size(), std::size_t{100'000});
    expectSameWalk(serial, pipelined);
}

TEST_F(FxtPipeline, FindsTheDamageOfTheSerialWalk) {
    const auto data = readFile(s_prof);
    TempDir dir;
    std::mt19937 random(7);
    int damagedRounds = 0;
    for (int round = 0; round < 6; ++round) {
        auto damaged = data;
        // Past the header, so that both walks get as far as the events.
        for (int i = 0; i < 8; ++i) {
            damaged[4096 + random() % (damaged.size() - 4096)] = static_cast<char>(random());
        }
        if (round % 2 == 1) {
            damaged.resize(damaged.size() - 1 - random() % 100'000);
        }
        const auto file = dir / ("prof_file_" + std::to_string(round));
        std::ofstream(file, std::ios::binary) << damaged;
        SCOPED_TRACE("round " + std::to_string(round));
        const auto serial = walk(file, DirectDecode::Serial);
        damagedRounds += serial.summary.problems.empty() ? 0 : 1;
        expectSameWalk(serial, walk(file, DirectDecode::Pipelined));
    }
    // Random bytes may land in parameters only; the cut rounds at least end in a broken block.
    EXPECT_GE(damagedRounds, 3);
}

TEST_F(FxtPipeline, StopsWhenTheReaderCancels) {
    for (const std::size_t after : {std::size_t{1}, std::size_t{70'000}}) {
        std::size_t seen = 0;
        const auto read = detail::readFxtDirect(
            s_prof, 0, ~std::uint64_t{0}, [&](const detail::RawEvent&) { return ++seen < after; }, {},
            DirectDecode::Pipelined);
        ASSERT_FALSE(read);
        EXPECT_EQ(read.error().code, ErrorCode::Cancelled);
        EXPECT_EQ(seen, after);
        ASSERT_TRUE(read.error().offset.has_value());
        EXPECT_GT(*read.error().offset, 0U);
    }
    int calls = 0;
    const auto read = detail::readFxtDirect(
        s_prof, 0, ~std::uint64_t{0}, [](const detail::RawEvent&) { return true; },
        [&calls](double) { return ++calls < 3; }, DirectDecode::Pipelined);
    ASSERT_FALSE(read);
    EXPECT_EQ(read.error().code, ErrorCode::Cancelled);
    EXPECT_EQ(calls, 3);
}

TEST_F(FxtPipeline, ReadFxtBuildsTheSameModelInOneThreadAsInTwo) {
    // Chosen, not left to the machine's load.
    ::setenv("STARSCOPE_FXT_THREADS", "2", 1);
    const auto twoThreads = readFxt({s_prof});
    ::setenv("STARSCOPE_FXT_THREADS", "1", 1);
    const auto oneThread = readFxt({s_prof});
    ::unsetenv("STARSCOPE_FXT_THREADS");
    ASSERT_TRUE(twoThreads) << twoThreads.error().describe();
    ASSERT_TRUE(oneThread) << oneThread.error().describe();
    EXPECT_GT(oneThread->tasks.size(), std::size_t{5000});
    EXPECT_TRUE(*oneThread == *twoThreads);
}

} // namespace
} // namespace starscope::tracer
