// The FxT model built by a thread of its own (model_ops.hpp) against the model built by the
// decoding thread: the same model from whole and damaged traces, the same ops applied in order
// across many batches, and a reader that gives up stops the building thread instead of
// waiting for it.

#include "tests/support/test_support.hpp"
#include "tests/tracer/recording_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/readers/fxt/model_ops.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>

namespace starscope::tracer {
namespace {

using namespace testing;
using starscope::testing::readFile;
using starscope::testing::TempDir;

// The FxT reader with the threads chosen, not left to the file's size or the machine.
TraceResult<Trace> readWithThreads(const char* threads, const std::filesystem::path& file,
                                   ReadOptions options = {}) {
    options.threads = std::string_view(threads) == "2" ? 2U : 1U;
    return readTrace(file, options);
}

// A trace of about 9 MB: many batches of ops, and above the size from which readFxt builds
// the model in a second thread.
class FxtPipeline : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_dir = new TempDir;
        ASSERT_EQ(recordSample(s_dir->path() / "run", "--batches 4 --tasks 1500 --task-us 0 --load-us 0 --ncpu 2"), 0);
        s_prof = run::findProfFiles(s_dir->path() / "run").front();
        ASSERT_GE(std::filesystem::file_size(s_prof), std::uintmax_t{4} << 20);
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

TEST_F(FxtPipeline, ReadFxtBuildsTheSameModelInOneThreadAsInTwo) {
    const auto twoThreads = readWithThreads("2", s_prof);
    const auto oneThread = readWithThreads("1", s_prof);
    ASSERT_TRUE(twoThreads) << twoThreads.error().describe();
    ASSERT_TRUE(oneThread) << oneThread.error().describe();
    EXPECT_GT(oneThread->tasks.size(), std::size_t{5000});
    EXPECT_FALSE(oneThread->markers.empty());
    EXPECT_TRUE(*oneThread == *twoThreads);
}

TEST_F(FxtPipeline, DamagedTracesGiveTheSameModelInOneThreadAsInTwo) {
    const auto data = readFile(s_prof);
    TempDir dir;
    std::mt19937 random(7);
    int warned = 0;
    for (int round = 0; round < 6; ++round) {
        auto damaged = data;
        // Past the header, so that both reads get as far as the events.
        for (int i = 0; i < 8; ++i) {
            damaged[4096 + random() % (damaged.size() - 4096)] = static_cast<char>(random());
        }
        if (round % 2 == 1) {
            damaged.resize(damaged.size() - 1 - random() % 100'000);
        }
        const auto file = dir / ("prof_file_" + std::to_string(round));
        std::ofstream(file, std::ios::binary) << damaged;
        SCOPED_TRACE("round " + std::to_string(round));
        const auto oneThread = readWithThreads("1", file);
        const auto twoThreads = readWithThreads("2", file);
        ASSERT_EQ(static_cast<bool>(oneThread), static_cast<bool>(twoThreads));
        if (!oneThread) {
            EXPECT_EQ(oneThread.error().describe(), twoThreads.error().describe());
            continue;
        }
        warned += oneThread->warnings.empty() ? 0 : 1;
        EXPECT_EQ(oneThread->warnings, twoThreads->warnings);
        EXPECT_TRUE(*oneThread == *twoThreads);
    }
    // Random bytes may land in parameters only; the cut rounds at least end in a broken block.
    EXPECT_GE(warned, 3);
}

TEST_F(FxtPipeline, StopsBuildingWhenTheReaderCancels) {
    for (const int after : {1, 3, 40}) {
        int calls = 0;
        ReadOptions options;
        options.progress = [&](double) { return ++calls < after; };
        const auto read = readWithThreads("2", s_prof, options);
        ASSERT_FALSE(read);
        EXPECT_EQ(read.error().code, ErrorCode::Cancelled);
        EXPECT_EQ(calls, after);
    }
}

// Ops of every kind, many batches of them, applied by the calling thread and by a thread of
// its own: the same trace, texts and all, and the same count of pops on an empty stack.
TEST(ModelOpSink, AppliesTheSameOpsInOneThreadAsInTwo) {
    const auto build = [](bool threaded) {
        detail::TraceBuilder builder;
        std::size_t unbalanced = 0;
        {
            detail::ModelOpSink ops(builder, threaded);
            const auto worker = builder.addLane("CPU 0", LaneKind::CpuWorker, 0, 0);
            const auto main = builder.addLane("main", LaneKind::MainThread, -1, -1);
            const auto executing = builder.state(detail::kExecutingState, LaneKind::CpuWorker);
            const auto sleeping = builder.state("Sleeping", LaneKind::CpuWorker);
            const auto submitting = builder.state("Submitting task", LaneKind::MainThread);
            TimeNs t = 0;
            for (std::uint64_t job = 1; job <= 20'000; ++job) {
                ops.push(main, t, submitting);
                ops.taskSubmit(job, t);
                ops.taskNameIfUnset(job, job % 3 == 0 ? "conv_fwd" : "dense_bwd");
                if (job > 1) {
                    ops.dependency(job, job - 1);
                }
                ops.pop(main, t + 5);
                ops.setTask(worker, t + 7, executing, job);
                ops.taskCodelet(job, job % 7 == 0 ? "renamed" : "conv_fwd");
                ops.taskFootprint(job, static_cast<std::uint32_t>(job * 31));
                ops.set(worker, t + 20, sleeping);
                if (job % 50 == 0) {
                    ops.marker(t + 21, main, "batch " + std::to_string(job / 50));
                    ops.pop(main, t + 22);   // nothing pushed: ignored, counted
                }
                t += 30;
            }
            ops.reset(worker, t);
            ops.drain();
            unbalanced = ops.unbalancedPops();
        }
        return std::make_pair(builder.finish(TimeNs{30 * 20'000 + 100}), unbalanced);
    };
    const auto [oneThread, oneUnbalanced] = build(false);
    const auto [twoThreads, twoUnbalanced] = build(true);
    EXPECT_EQ(oneUnbalanced, 400U);
    EXPECT_EQ(twoUnbalanced, 400U);
    ASSERT_EQ(oneThread.tasks.size(), 20'000U);
    ASSERT_EQ(oneThread.markers.size(), 400U);
    EXPECT_EQ(oneThread.textOf(oneThread.markers.back()), "batch 400");
    EXPECT_EQ(oneThread.codeletOf(oneThread.tasks[6]), "renamed");
    EXPECT_TRUE(oneThread == twoThreads);
}

} // namespace
} // namespace starscope::tracer
