// Several ranks of a StarPU-MPI run read as one trace, against starpu_fxt_tool -i on the same
// prof files: StarPU-MPI's own example programs recorded with 2 and 4 ranks by the StarPU the
// tests are built against (scripts/build_starpu.sh installs them). No golden run is kept: two
// ranks of the shortest example make over 600 KB of prof files and paje.trace.

#include "tests/support/starpu_support.hpp"
#include "tests/support/test_support.hpp"
#include "tests/tracer/recording_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/readers/fxt/mpi_merge.hpp"
#include "tracer/readers/paje/paje_reader.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/model/time_unit.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

namespace starscope::tracer {
namespace {

using namespace testing;
namespace fs = std::filesystem;

fs::path mpiExample(const std::string& name) {
    return starscope::testing::starpuFxtTool().parent_path() / ("starpu_mpi_example_" + name);
}

// Skips (fails under CI=true, whose StarPU is built with StarPU-MPI) when the example is missing.
#define SKIP_WITHOUT_MPI_EXAMPLE(program)                                                                              \
    if (!fs::exists(program)) {                                                                                        \
        const char* ci = std::getenv("CI");                                                                            \
        const std::string why = (program).string()                                                                     \
                                + " does not exist: this StarPU lacks StarPU-MPI or its examples "                     \
                                  "(scripts/build_starpu.sh builds StarPU with --enable-mpi and installs them)";       \
        if (ci != nullptr && std::string(ci) == "true") {                                                              \
            FAIL() << why;                                                                                             \
        }                                                                                                              \
        GTEST_SKIP() << why;                                                                                           \
    }

// Records `program arguments` on `ranks` ranks into dir (prof files) and converts them with
// starpu_fxt_tool (dir/paje.trace).
::testing::AssertionResult recordRanks(const fs::path& program, const std::string& arguments, int ranks,
                                       const fs::path& dir, const std::string& extraEnvironment = {}) {
    const auto log = dir / "example.log";
    // Root and more ranks than cores need OpenMPI's documented overrides.
    const std::string environment =
        "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none "
        "STARPU_FXT_TRACE=1 STARPU_FXT_PREFIX='"
        + dir.string() + "/' STARPU_NCPU=1 STARPU_NCUDA=0 STARPU_NOPENCL=0 STARPU_SILENT=1 " + extraEnvironment + " ";
    // StarPU's own programs can hang: StarPU 1.3.10's matrix product with out-of-core swap
    // deadlocks about once in 40 runs (a CPU worker waits on the data request list's lock while
    // the MPI progress thread waits on its detached requests', seen in gdb), and twice in a row
    // when the machine is busy. A run takes about a second (a few under ASan): one that outlives
    // its bound is stopped, its files and swap removed, and tried again, up to three times, so a
    // hang fails the test with that reason instead of failing it by chance or stalling the suite.
    const std::string command = environment + "timeout -k 5 60 mpirun --oversubscribe -np " + std::to_string(ranks)
                                + " '" + program.string() + "' " + arguments + " > '" + log.string() + "' 2>&1";
    constexpr int kTimedOut = 124;
    constexpr int kAttempts = 3;
    int status = starscope::testing::runCommand(command);
    for (int attempt = 1; status == kTimedOut && attempt < kAttempts; ++attempt) {
        std::cerr << program.filename().string() << " did not end within 60 s; running it once more\n";
        for (const auto& entry : fs::directory_iterator(dir)) {
            if (entry.path().filename().string().rfind("prof_file", 0) == 0) {
                fs::remove(entry.path());
            } else if (entry.is_directory()) {   // a swap folder: emptied
                for (const auto& inside : fs::directory_iterator(entry.path())) {
                    fs::remove_all(inside.path());
                }
            }
        }
        status = starscope::testing::runCommand(command);
    }
    if (status != 0) {
        return ::testing::AssertionFailure() << "mpirun failed" << (status == kTimedOut ? " (timed out at every attempt)" : "")
                                             << ": " << starscope::testing::readFile(log);
    }
    const auto files = run::findProfFiles(dir);
    if (files.size() != static_cast<std::size_t>(ranks)) {
        return ::testing::AssertionFailure() << files.size() << " prof files for " << ranks << " ranks: "
                                             << starscope::testing::readFile(log);
    }
    if (runStarpuFxtTool(files, dir) != 0) {
        return ::testing::AssertionFailure() << "starpu_fxt_tool failed: " << starscope::testing::readFile(dir / "tool.log");
    }
    return ::testing::AssertionSuccess();
}

// One short 2-rank run shared by the tests below.
class MpiMerge : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_dir = new starscope::testing::TempDir;
        s_recorded = fs::exists(mpiExample("stencil5"))
                     && recordRanks(mpiExample("stencil5"), "-iter 2", 2, s_dir->path());
    }
    static void TearDownTestSuite() {
        delete s_dir;
        s_dir = nullptr;
    }
    void SetUp() override {
        SKIP_WITHOUT_MPI_EXAMPLE(mpiExample("stencil5"));
        ASSERT_TRUE(s_recorded) << "recording stencil5 on 2 ranks failed (see its log in " << s_dir->path() << ")";
    }
    static fs::path golden2() { return s_dir->path(); }

    static starscope::testing::TempDir* s_dir;
    static bool s_recorded;
};
starscope::testing::TempDir* MpiMerge::s_dir = nullptr;
bool MpiMerge::s_recorded = false;

TEST_F(MpiMerge, TwoRanksMatchStarpuFxtTool) {
    const auto ours = readTrace(golden2());
    const auto tool = readTrace(golden2() / "paje.trace");
    ASSERT_TRUE(ours) << ours.error().describe();
    ASSERT_TRUE(tool) << tool.error().describe();
    expectSameRanksAsStarpuFxtTool(*ours, *tool, golden2() / "paje.trace", 2);
}

TEST_F(MpiMerge, FileOrderDoesNotMatter) {
    auto files = run::findProfFiles(golden2());
    ASSERT_EQ(files.size(), 2U);
    const auto forward = readTrace(files);
    std::swap(files[0], files[1]);
    const auto backward = readTrace(files);
    ASSERT_TRUE(forward && backward);
    EXPECT_EQ(forward->lanes, backward->lanes);
    EXPECT_EQ(forward->messages, backward->messages);
}

TEST_F(MpiMerge, RanksAndMessagesSurviveTheNativeFormat) {
    const auto trace = readTrace(run::findProfFiles(golden2()));
    ASSERT_TRUE(trace) << trace.error().describe();
    starscope::testing::TempDir dir;
    ASSERT_TRUE(writeNativeFile(*trace, dir / "t.sstrace"));
    const auto back = readNative(dir / "t.sstrace");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(back->ranks, trace->ranks);
    EXPECT_EQ(back->messages, trace->messages);
    EXPECT_EQ(back->lanes, trace->lanes);
    EXPECT_EQ(back->markers, trace->markers);
}

TEST_F(MpiMerge, TwoFilesOfOneRankAreRefused) {
    const auto files = run::findProfFiles(golden2());
    ASSERT_EQ(files.size(), 2U);
    // A copy: the same file named twice is refused before
    // (ReadErrors.OneProfFileGivenTwiceIsRefused).
    starscope::testing::TempDir dir;
    std::filesystem::copy_file(files[0], dir / files[0].filename());
    const auto read = readTrace({files[0], dir / files[0].filename()});
    ASSERT_FALSE(read);
    EXPECT_NE(read.error().message.find("two prof files of rank 0"), std::string::npos) << read.error().describe();
}

TEST_F(MpiMerge, ExportsCarryRanksAndMessages) {
    const auto trace = readTrace(run::findProfFiles(golden2()));
    ASSERT_TRUE(trace) << trace.error().describe();
    std::ostringstream chrome;
    writeChromeJson(*trace, chrome);
    EXPECT_NE(chrome.str().find(R"("args":{"name":"rank 1"})"), std::string::npos);
    std::size_t flows = 0;
    for (std::size_t at = 0; (at = chrome.str().find(R"("cat":"mpi")", at)) != std::string::npos; ++at) {
        ++flows;
    }
    EXPECT_EQ(flows, 2 * trace->messages.size());   // a start and an end per message
    starscope::testing::TempDir dir;
    {
        std::ofstream out(dir / "ours.paje");
        writePaje(*trace, out);
    }
    EXPECT_EQ(toolMessageLinks(dir / "ours.paje"), trace->messages.size());
    const auto back = readPaje(dir / "ours.paje");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(back->ranks.size(), 2U);
    EXPECT_EQ(workerStateTotals(*back), workerStateTotals(*trace));
    std::size_t mpiLanes = 0;
    for (const auto& lane : back->lanes) {
        mpiLanes += lane.kind == LaneKind::MpiThread ? 1U : 0U;
    }
    EXPECT_EQ(mpiLanes, 2U);
}

// starpu_fxt_tool's paje.trace of the same ranks, read by the Paje reader: its MPIL links are
// the FxT reader's messages (same sender, receiver, size and tag, starts within the clocks'
// 10 us), and its memory managers ("Mm", which StarPU-MPI's receive buffers give states) are
// no lanes, so each rank has the workers the FxT reader finds.
TEST_F(MpiMerge, StarpuFxtToolPajeHasTheMessagesAndOnlyTheWorkers) {
    const auto ours = readTrace(run::findProfFiles(golden2()));
    const auto tool = readPaje(golden2() / "paje.trace");
    ASSERT_TRUE(ours) << ours.error().describe();
    ASSERT_TRUE(tool) << tool.error().describe();
    ASSERT_GT(ours->messages.size(), 0U);
    EXPECT_EQ(tool->messages.size(), toolMessageLinks(golden2() / "paje.trace"));
    ASSERT_EQ(tool->messages.size(), ours->messages.size());
    const auto key = [](const Message& m) { return std::tuple(m.fromRank, m.toRank, m.tag, m.size, m.start); };
    auto a = ours->messages;
    auto b = tool->messages;
    const std::int64_t perNs = ticksPerSecond(*tool) / kNsPerSecond;
    for (auto& m : b) {
        m.start /= perNs;
        m.end /= perNs;
    }
    std::sort(a.begin(), a.end(), [&](const Message& x, const Message& y) { return key(x) < key(y); });
    std::sort(b.begin(), b.end(), [&](const Message& x, const Message& y) { return key(x) < key(y); });
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].fromRank, b[i].fromRank) << "message " << i;
        EXPECT_EQ(a[i].toRank, b[i].toRank) << "message " << i;
        EXPECT_EQ(a[i].size, b[i].size) << "message " << i;
        EXPECT_EQ(a[i].tag, b[i].tag) << "message " << i;
        EXPECT_LE(std::abs(a[i].start - b[i].start), 10'000) << "message " << i;
        // Not the ends: of two messages with one tag between the same ranks, 1.4's starpu_fxt_tool
        // may pair the sends with the receives the other way round (seen on stencil5).
        const Lane* from = tool->laneAt(b[i].fromLane);
        const Lane* to = tool->laneAt(b[i].toLane);
        ASSERT_TRUE(from != nullptr && to != nullptr) << "message " << i;
        EXPECT_EQ(from->kind, LaneKind::MpiThread);
        EXPECT_EQ(from->rank, b[i].fromRank);
        EXPECT_EQ(to->rank, b[i].toRank);
    }
    std::map<std::int32_t, std::size_t> oursWorkers;
    std::map<std::int32_t, std::size_t> toolWorkers;
    for (const auto& lane : ours->lanes) {
        oursWorkers[lane.rank] += lane.isWorker() ? 1U : 0U;
    }
    for (const auto& lane : tool->lanes) {
        EXPECT_EQ(lane.name.find("MEMMANAGER"), std::string::npos) << lane.name;
        toolWorkers[lane.rank] += lane.isWorker() ? 1U : 0U;
    }
    EXPECT_EQ(toolWorkers, oursWorkers);
    EXPECT_NE(tool->metadata.at("paje.memory_manager_states"), "0");   // the case this test is about
}

// Data transfers between memory nodes: a CPU-only machine has one node, so StarPU's out-of-core
// support adds a disk node (STARPU_DISK_SWAP) and a 1 MB RAM limit makes it evict and fetch back
// the blocks of StarPU-MPI's matrix product. Our transfers are starpu_fxt_tool's F/TF/PF/IF links
// (rank, nodes, kind, size; ends within 10 us), and survive our Paje, Chrome and native files.
TEST(MpiTransfers, DriverCopiesMatchStarpuFxtToolAndSurviveTheExports) {
    const auto program = mpiExample("mm");
    SKIP_WITHOUT_MPI_EXAMPLE(program);
    starscope::testing::TempDir dir;
    fs::create_directories(dir / "swap");
    ASSERT_TRUE(recordRanks(program, "256 64", 2, dir.path(),
                            "STARPU_DISK_SWAP='" + (dir / "swap").string()
                                + "' STARPU_DISK_SWAP_SIZE=200 STARPU_LIMIT_CPU_MEM=1"));
    const auto ours = readTrace(run::findProfFiles(dir.path()));
    const auto tool = readPaje(dir / "paje.trace");
    ASSERT_TRUE(ours) << ours.error().describe();
    ASSERT_TRUE(tool) << tool.error().describe();
    ASSERT_GT(ours->transfers.size(), 0U) << "no driver copy: did StarPU evict to its disk node?";
    ASSERT_EQ(ours->transfers.size(), tool->transfers.size());
    const std::int64_t perNs = ticksPerSecond(*tool) / kNsPerSecond;
    const auto key = [](const Transfer& x) { return std::tuple(x.rank, x.start, x.fromNode, x.toNode, x.size); };
    auto a = ours->transfers;
    auto b = tool->transfers;
    for (auto& x : b) {
        x.start /= perNs;
        x.end /= perNs;
    }
    std::sort(a.begin(), a.end(), [&](const Transfer& x, const Transfer& y) { return key(x) < key(y); });
    std::sort(b.begin(), b.end(), [&](const Transfer& x, const Transfer& y) { return key(x) < key(y); });
    std::map<std::tuple<std::int32_t, std::int32_t, std::int32_t, std::string_view>, std::size_t> kinds;
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].rank, b[i].rank) << "transfer " << i;
        EXPECT_EQ(a[i].fromNode, b[i].fromNode) << "transfer " << i;
        EXPECT_EQ(a[i].toNode, b[i].toNode) << "transfer " << i;
        EXPECT_EQ(a[i].kind, b[i].kind) << "transfer " << i;
        EXPECT_EQ(a[i].size, b[i].size) << "transfer " << i;
        EXPECT_LE(std::abs(a[i].start - b[i].start), 10'000) << "transfer " << i;
        EXPECT_LE(std::abs(a[i].end - b[i].end), 10'000) << "transfer " << i;
        EXPECT_NE(a[i].fromNode, a[i].toNode);
        ++kinds[{a[i].rank, a[i].fromNode, a[i].toNode, nameOf(a[i].kind)}];
    }
    for (const auto& [k, n] : kinds) {
        std::cout << "rank " << std::get<0>(k) << ": " << n << " " << std::get<3>(k) << " node " << std::get<1>(k)
                  << " -> " << std::get<2>(k) << "\n";
    }

    // Our own Paje export reads back to the same transfers, the Chrome export has one slice each,
    // and the native file keeps them.
    {
        std::ofstream out(dir / "ours.paje");
        writePaje(*ours, out);
    }
    if (starscope::testing::runCommand("command -v pj_dump > /dev/null 2>&1") == 0) {
        EXPECT_EQ(starscope::testing::runCommand("pj_dump '" + (dir / "ours.paje").string() + "' > '"
                                                 + (dir / "dump.txt").string() + "' 2>&1"),
                  0)
            << starscope::testing::readFile(dir / "dump.txt").substr(0, 2000);
    }
    const auto back = readPaje(dir / "ours.paje");
    ASSERT_TRUE(back) << back.error().describe();
    auto c = back->transfers;
    const std::int64_t backPerNs = ticksPerSecond(*back) / kNsPerSecond;
    for (auto& x : c) {
        x.start /= backPerNs;
        x.end /= backPerNs;
    }
    // A Paje link names no task: the task a transfer was for is the FxT reader's alone.
    auto withoutTasks = ours->transfers;
    for (auto& x : withoutTasks) {
        x.job = 0;
    }
    EXPECT_EQ(c, withoutTasks);
    EXPECT_EQ(back->messages.size(), ours->messages.size());
    std::ostringstream chrome;
    writeChromeJson(*ours, chrome);
    std::size_t slices = 0;
    for (std::size_t at = 0; (at = chrome.str().find(R"("cat":"transfer")", at)) != std::string::npos; ++at) {
        ++slices;
    }
    EXPECT_EQ(slices, ours->transfers.size());
    ASSERT_TRUE(writeNativeFile(*ours, dir / "t.sstrace"));
    const auto native = readNative(dir / "t.sstrace");
    ASSERT_TRUE(native) << native.error().describe();
    EXPECT_EQ(native->transfers, ours->transfers);
}

// StarPU 1.4's two sync points: the offset moves linearly between them, fixed outside.
TEST(MpiClock, OffsetInterpolatedBetweenTwoSyncPoints) {
    const detail::RankClock clock(1000, 100, 2000, 200);
    EXPECT_EQ(clock.map(500), 400);
    EXPECT_EQ(clock.map(1000), 900);
    EXPECT_EQ(clock.map(1500), 1350);
    EXPECT_EQ(clock.map(2000), 1800);
    EXPECT_EQ(clock.map(3000), 2800);
    const detail::RankClock fixed(100);
    EXPECT_EQ(fixed.map(5000), 4900);
}

// starpu_fxt_tool's matching: sends in time order, each taking the first unmatched receive of
// its destination with the same tag.
TEST(MpiClock, SendsMatchTheFirstReceiveOfTheirTag) {
    std::vector<detail::RankTraffic> ranks(2);
    ranks[0].rank = 0;
    ranks[0].commLane = 3;
    ranks[0].sends = {{1, 7, 64, 100, 11}, {1, 7, 64, 300, 12}, {1, 9, 8, 200, 13}, {1, 5, 8, 250, 14}};
    ranks[1].rank = 1;
    ranks[1].commLane = 8;
    ranks[1].receives = {{0, 9, 260, 21}, {0, 7, 150, 22}, {0, 7, 400, 23}};
    std::size_t unmatched = 0;
    const auto messages = detail::matchMessages(ranks, unmatched);
    EXPECT_EQ(unmatched, 1U);   // tag 5 was never received
    ASSERT_EQ(messages.size(), 3U);
    EXPECT_EQ(messages[0].start, 100);
    EXPECT_EQ(messages[0].end, 150);
    EXPECT_EQ(messages[0].recvJob, 22U);
    EXPECT_EQ(messages[1].tag, 9);
    EXPECT_EQ(messages[1].end, 260);
    EXPECT_EQ(messages[2].end, 400);
    EXPECT_EQ(messages[2].fromLane, 3);
    EXPECT_EQ(messages[2].toLane, 8);
}

// Barriers of a hand-built two-rank trace: rank 1 waits for a message from rank 0 while rank
// 0 still works; then both stop for an arena reset on rank 0.
TEST(MpiBarriers, JobAndRankBarriersAreAttributed) {
    auto trace = makeTrace({{"0_CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 1'000'000}, {"Executing", 1'100'000, 2'000'000}, {"Executing", 3'000'000, 3'500'000}}},
                            {"1_CPU 0", LaneKind::CpuWorker, {{"Executing", 0, 200'000}, {"Executing", 900'000, 2'000'000}, {"Executing", 3'000'000, 3'500'000}}},
                            {"0_main", LaneKind::MainThread, {}}},
                           3'500'000);
    trace.lanes[0].rank = 0;
    trace.lanes[1].rank = 1;
    trace.lanes[2].rank = 0;
    trace.ranks = {RankInfo{0, 2, "a", 1, 0, 0, 0, 0}, RankInfo{1, 2, "b", 1, 0, 0, 0, 0}};
    Message m;
    m.fromRank = 0;
    m.toRank = 1;
    m.start = 150'000;
    m.end = 880'000;
    m.size = 4096;
    m.tag = 7;
    trace.messages.push_back(m);
    markers::Marker wait{markers::Kind::ResetWaitBegin, -1, -1, -1, -1, "batch"};
    auto reset = trace.makeMarker(2'100'000, wait);
    reset.rank = 0;
    trace.markers.push_back(reset);
    reset.time = 2'900'000;
    reset.kind = markers::Kind::ResetWaitEnd;
    trace.markers.push_back(reset);

    const auto barriers = findJobAndRankBarriers(trace);
    std::vector<std::tuple<std::int32_t, TimeNs, TimeNs, BarrierCause>> got;
    for (const auto& b : barriers) {
        got.emplace_back(b.rank, b.start, b.end, b.cause);
    }
    using T = std::tuple<std::int32_t, TimeNs, TimeNs, BarrierCause>;
    EXPECT_EQ(got, (std::vector<T>{T{-1, 2'000'000, 3'000'000, BarrierCause::ArenaReset},
                                   T{0, 2'000'000, 3'000'000, BarrierCause::ArenaReset},
                                   T{1, 200'000, 900'000, BarrierCause::DataFromRank},
                                   T{1, 2'000'000, 3'000'000, BarrierCause::Unattributed}}));
    EXPECT_EQ(barriers[2].fromRank, 0);
    EXPECT_EQ(barriers[2].message, 0);
    EXPECT_EQ(barriers[0].arena, "batch");
    // Rank 0's gap of 100 us is no barrier at the default threshold; its own main thread is
    // the one rank 0's barriers look at.
    EXPECT_EQ(barriers[1].mainThreadState, "Application code");
}

struct MpiExample {
    const char* name;
    const char* arguments;
    int ranks;
};

class StarpuMpiExample : public ::testing::TestWithParam<MpiExample> {};

TEST_P(StarpuMpiExample, MergedTraceMatchesStarpuFxtTool) {
    const auto program = mpiExample(GetParam().name);
    SKIP_WITHOUT_MPI_EXAMPLE(program);
    starscope::testing::TempDir dir;
    ASSERT_TRUE(recordRanks(program, GetParam().arguments, GetParam().ranks, dir.path()));
    const auto ours = readTrace(dir.path());
    const auto tool = readTrace(dir / "paje.trace");
    ASSERT_TRUE(ours) << ours.error().describe();
    ASSERT_TRUE(tool) << tool.error().describe();
    EXPECT_EQ(ours->metadata.at("starpu.codes").substr(0, 3), starscope::testing::starpuSeries());
    expectSameRanksAsStarpuFxtTool(*ours, *tool, dir / "paje.trace", static_cast<std::size_t>(GetParam().ranks));
    // The ranks decoded one after another and each on a thread of its own: one model.
    ReadOptions serial;
    serial.threads = 1;
    ReadOptions parallel;
    parallel.threads = static_cast<unsigned>(GetParam().ranks);
    const auto oneByOne = readTrace(dir.path(), serial);
    const auto atOnce = readTrace(dir.path(), parallel);
    ASSERT_TRUE(oneByOne && atOnce);
    EXPECT_TRUE(*oneByOne == *atOnce);
}

INSTANTIATE_TEST_SUITE_P(FromStarpuMpiSource, StarpuMpiExample,
                         ::testing::Values(MpiExample{"stencil5", "", 2}, MpiExample{"stencil5", "", 4},
                                           MpiExample{"ring", "", 2}),
                         [](const auto& param) {
                             return std::string(param.param.name) + "_" + std::to_string(param.param.ranks) + "ranks";
                         });

} // namespace
} // namespace starscope::tracer
