// The C example (examples/c_arena) end to end: recorded with FxT tracing on, its trace read by the
// tracer holds its batch, load and reset-wait markers, and with one arena every batch transition
// has the barrier of its reset. And its own CMakeLists.txt builds it as a program outside the
// project would, against this build tree's exported starscope::arena.

#include "common/markers.hpp"
#include "tests/support/starpu_support.hpp"
#include "tests/support/test_support.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace markers = starscope::markers;
namespace tracer = starscope::tracer;
using starscope::testing::TempDir;

namespace {

constexpr int kEpochs = 2;
constexpr int kBatches = 4;

std::string quoted(const fs::path& path) {
    return "'" + path.string() + "'";
}

// Runs the example with FxT tracing into dir; returns its exit status, its output in dir/out.txt.
int recordExample(const fs::path& program, const fs::path& dir, const std::string& arguments) {
    const std::string command = "cd " + quoted(dir)
                                + " && STARPU_FXT_TRACE=1 STARPU_FXT_PREFIX=" + quoted(dir)
                                + " STARPU_NCPU=2 STARPU_WORKERS_NOBIND=1 STARPU_SILENT=1 "
                                + quoted(program) + " " + arguments + " > out.txt 2>&1";
    return starscope::testing::runCommand(command);
}

std::vector<markers::Marker> markersOf(const tracer::Trace& trace) {
    std::vector<markers::Marker> found;
    for (const auto& event : trace.markers) {
        if (event.parsed) {
            found.push_back(trace.markerOf(event));
        }
    }
    return found;
}

markers::Marker marker(markers::Kind kind, int epoch, int batch, int slot, std::int64_t handles,
                       std::string arena) {
    return markers::Marker{kind, epoch, batch, slot, handles, std::move(arena)};
}

} // namespace

TEST(CArenaExample, ItsTraceHasItsMarkersAndOneResetBarrierPerBatchTransition) {
    TempDir dir;
    ASSERT_EQ(recordExample(STARSCOPE_C_ARENA_EXAMPLE, dir.path(), "1"), 0)
        << starscope::testing::readFile(dir / "out.txt");
    EXPECT_NE(starscope::testing::readFile(dir / "out.txt")
                  .find("epochs 2, batches per epoch 4, ring of 1 arena(s): 0 bad checksum(s)"),
              std::string::npos);

    auto trace = tracer::readTrace(dir.path());
    ASSERT_TRUE(trace) << trace.error().describe();
    const auto found = markersOf(*trace);
    const auto count = [&](const markers::Marker& wanted) {
        return std::count(found.begin(), found.end(), wanted);
    };
    using markers::Kind;
    for (int epoch = 0; epoch < kEpochs; ++epoch) {
        for (int batch = 0; batch < kBatches; ++batch) {
            EXPECT_EQ(count(marker(Kind::BatchBegin, epoch, batch, 0, -1, "")), 1) << batch;
            EXPECT_EQ(count(marker(Kind::BatchEnd, epoch, batch, 0, -1, "")), 1) << batch;
            EXPECT_EQ(count(marker(Kind::LoadBegin, epoch, batch, -1, -1, "batch0")), 1) << batch;
            EXPECT_EQ(count(marker(Kind::LoadEnd, epoch, batch, -1, -1, "batch0")), 1) << batch;
        }
    }
    // Every batch but the first resets the one arena, and the drain once more: each time its
    // batch's 4 chunk vectors.
    const int batches = kEpochs * kBatches;
    EXPECT_EQ(count(marker(Kind::ResetWaitBegin, -1, -1, -1, 4, "batch0")), batches);
    EXPECT_EQ(count(marker(Kind::ResetWaitEnd, -1, -1, -1, 4, "batch0")), batches);

    const auto transitions = tracer::findTransitions(*trace);
    ASSERT_EQ(transitions.size(), static_cast<std::size_t>(batches));
    EXPECT_EQ(transitions[0].label, "epoch 0 batch 0->1");
    EXPECT_EQ(transitions[3].label, "epoch 0 batch 3->epoch 1 batch 0");
    EXPECT_EQ(transitions.back().label, "epoch 1 batch 3->end");

    // At the next batch_begin the reset has waited for every task of the batch and no task of the
    // next batch exists yet: no worker executes, and the load that follows lasts far longer than
    // the threshold. So each transition's end lies in a barrier caused by the arena's reset, one
    // barrier per transition. (A loaded machine adds other barriers where workers wait for a
    // core: not counted here.)
    // Which transition findBarriers names for it is the one it overlaps most: this one (from
    // the batch's last task to the reset's return) or the next (from the next batch_end to the
    // next batch's first task, when its workers wake up late); the load lies between them.
    const auto barriers = tracer::findBarriers(*trace, transitions, tracer::BarrierOptions{});
    std::vector<const tracer::Barrier*> resetBarriers;
    for (std::size_t i = 0; i + 1 < transitions.size(); ++i) {
        const auto at = std::find_if(barriers.begin(), barriers.end(), [&](const auto& b) {
            return b.start <= transitions[i].end && transitions[i].end <= b.end;
        });
        ASSERT_NE(at, barriers.end()) << "no barrier at the end of " << transitions[i].label;
        resetBarriers.push_back(&*at);
        const auto index = static_cast<std::int32_t>(i);
        EXPECT_TRUE(at->transition == index || at->transition == index + 1)
            << transitions[i].label << ": " << at->transitionLabel;
        EXPECT_EQ(at->cause, tracer::BarrierCause::ArenaReset) << transitions[i].label;
        EXPECT_EQ(at->arena, "batch0") << transitions[i].label;
    }
    EXPECT_EQ(std::unique(resetBarriers.begin(), resetBarriers.end()) - resetBarriers.begin(),
              batches - 1)
        << "one barrier per batch transition";
}

TEST(CArenaExample, ItsOwnCMakeListsBuildsItAgainstTheExportedTarget) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    // A program built outside the project has no sanitizer flags: linked against this build's
    // sanitized library, the sanitizer's runtime would not come first and the program aborts.
    GTEST_SKIP() << "the consumer build runs in the unsanitized presets";
#endif
    TempDir dir;
    const fs::path source = starscope::testing::sourceDir() / "examples" / "c_arena";
    const fs::path starpuPrefix = starscope::testing::starpuFxtTool().parent_path().parent_path();
    const std::string configure =
        std::string("'") + STARSCOPE_CMAKE_COMMAND + "' -S " + quoted(source) + " -B "
        + quoted(dir / "build") + " -G '" + STARSCOPE_CMAKE_GENERATOR + "' -DCMAKE_MAKE_PROGRAM='"
        + STARSCOPE_CMAKE_MAKE_PROGRAM + "' -DCMAKE_C_COMPILER='" + STARSCOPE_C_COMPILER
        + "' -DCMAKE_PREFIX_PATH=" + quoted(starpuPrefix) + " -DSTARSCOPE_BUILD_DIR='"
        + STARSCOPE_BINARY_DIR + "' > " + quoted(dir / "log.txt") + " 2>&1";
    ASSERT_EQ(starscope::testing::runCommand(configure), 0)
        << starscope::testing::readFile(dir / "log.txt");
    const std::string build = std::string("'") + STARSCOPE_CMAKE_COMMAND + "' --build "
                              + quoted(dir / "build") + " > " + quoted(dir / "log.txt") + " 2>&1";
    ASSERT_EQ(starscope::testing::runCommand(build), 0)
        << starscope::testing::readFile(dir / "log.txt");
    // Two arenas, one epoch of two batches.
    ASSERT_EQ(recordExample(dir / "build" / "c_arena", dir.path(), "2 1 2"), 0)
        << starscope::testing::readFile(dir / "out.txt");
    EXPECT_NE(starscope::testing::readFile(dir / "out.txt")
                  .find("epochs 1, batches per epoch 2, ring of 2 arena(s): 0 bad checksum(s)"),
              std::string::npos)
        << starscope::testing::readFile(dir / "out.txt");
}
