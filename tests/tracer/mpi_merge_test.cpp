// Several ranks of a StarPU-MPI run read as one trace, against starpu_fxt_tool -i on the same
// prof files: StarPU-MPI's own example programs recorded with 2 and 4 ranks by the StarPU the
// tests are built against (scripts/build_starpu.sh installs them). No golden run is kept: two
// ranks of the shortest example make over 600 KB of prof files and paje.trace.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/barriers.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/readers/fxt/mpi_merge.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <tuple>
#include <map>
#include <sstream>

namespace starscope::tracer {
namespace {

using namespace testing;
namespace fs = std::filesystem;

// MPI messages a Paje trace draws: its PajeStartLink events of type MPIL, wherever its event
// definition puts the Type field.
std::size_t toolMessageLinks(const fs::path& paje) {
    std::istringstream in(starscope::testing::readFile(paje));
    std::map<std::string, std::size_t> typeField;   // StartLink event id -> position of its Type
    std::string current;                            // the StartLink definition being read
    std::size_t fields = 0;
    std::size_t links = 0;
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::vector<std::string> w;
        for (std::string word; words >> word;) {
            w.push_back(word);
        }
        if (w.empty()) {
            continue;
        }
        if (w[0] == "%EventDef") {
            current = w.size() >= 3 && w[1] == "PajeStartLink" ? w[2] : std::string();
            fields = 0;
        } else if (w[0] == "%" && w.size() >= 2) {
            if (!current.empty() && w[1] == "Type") {
                typeField[current] = fields + 1;
            }
            ++fields;
        } else if (w[0][0] != '%') {
            const auto it = typeField.find(w[0]);
            links += it != typeField.end() && it->second < w.size() && w[it->second] == "MPIL" ? 1U : 0U;
        }
    }
    return links;
}

// Everything the comparison with starpu_fxt_tool checks, for prof files of `ranks` ranks.
void expectSameAsStarpuFxtTool(const Trace& ours, const Trace& tool, const fs::path& paje, std::size_t ranks) {
    ASSERT_EQ(ours.ranks.size(), ranks);
    for (std::size_t r = 0; r < ranks; ++r) {
        EXPECT_EQ(ours.ranks[r].rank, static_cast<std::int32_t>(r));
        EXPECT_GE(ours.ranks[r].syncPoints, 1U) << "rank " << r << " has no StarPU-MPI sync point";
    }
    std::map<std::int32_t, std::size_t> workersPerRank;
    for (const auto& lane : ours.lanes) {
        EXPECT_GE(lane.rank, 0) << lane.name;
        workersPerRank[lane.rank] += lane.isWorker() ? 1U : 0U;
    }
    EXPECT_EQ(workersPerRank.size(), ranks);
    expectSameWorkAsStarpuFxtTool(ours, tool);
    const auto differences = clockDifferences(ours, tool);
    EXPECT_EQ(differences.size(), ranks);
    for (const auto& [rank, difference] : differences) {
        EXPECT_LE(std::abs(difference), 10'000) << "rank " << rank << ": clock " << difference
                                                << " ns from starpu_fxt_tool's";
        std::cout << "rank " << rank << ": clock offset " << ours.rankInfo(rank)->clockOffset
                  << " ns, starscope - starpu_fxt_tool " << difference << " ns\n";
    }
    EXPECT_EQ(ours.messages.size(), toolMessageLinks(paje));
    EXPECT_GT(ours.messages.size(), 0U);
    for (const auto& m : ours.messages) {
        EXPECT_NE(m.fromRank, m.toRank);
        EXPECT_GE(m.fromLane, 0);
        EXPECT_GE(m.toLane, 0);
        EXPECT_LE(m.start, m.end);
    }
}

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
                                       const fs::path& dir) {
    const auto log = dir / "example.log";
    // Root and more ranks than cores need OpenMPI's documented overrides.
    const std::string environment =
        "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none "
        "STARPU_FXT_TRACE=1 STARPU_FXT_PREFIX='"
        + dir.string() + "/' STARPU_NCPU=1 STARPU_NCUDA=0 STARPU_NOPENCL=0 STARPU_SILENT=1 ";
    if (starscope::testing::runCommand(environment + "mpirun --oversubscribe -np " + std::to_string(ranks) + " '"
                                       + program.string() + "' " + arguments + " > '" + log.string() + "' 2>&1")
        != 0) {
        return ::testing::AssertionFailure() << "mpirun failed: " << starscope::testing::readFile(log);
    }
    const auto files = findProfFiles(dir);
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
    expectSameAsStarpuFxtTool(*ours, *tool, golden2() / "paje.trace", 2);
}

TEST_F(MpiMerge, FileOrderDoesNotMatter) {
    auto files = findProfFiles(golden2());
    ASSERT_EQ(files.size(), 2U);
    const auto forward = readFxt(files);
    std::swap(files[0], files[1]);
    const auto backward = readFxt(files);
    ASSERT_TRUE(forward && backward);
    EXPECT_EQ(forward->lanes, backward->lanes);
    EXPECT_EQ(forward->messages, backward->messages);
}

TEST_F(MpiMerge, RanksAndMessagesSurviveTheNativeFormat) {
    const auto trace = readFxt(findProfFiles(golden2()));
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
    const auto files = findProfFiles(golden2());
    ASSERT_EQ(files.size(), 2U);
    const auto read = readFxt({files[0], files[0]});
    ASSERT_FALSE(read);
    EXPECT_NE(read.error().message.find("two prof files of rank 0"), std::string::npos) << read.error().describe();
}

TEST_F(MpiMerge, ExportsCarryRanksAndMessages) {
    const auto trace = readFxt(findProfFiles(golden2()));
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
    MarkerEvent reset;
    reset.time = 2'100'000;
    reset.rank = 0;
    reset.parsed = true;
    reset.marker.kind = markers::Kind::ResetWaitBegin;
    reset.marker.arena = "batch";
    trace.markers.push_back(reset);
    reset.time = 2'900'000;
    reset.marker.kind = markers::Kind::ResetWaitEnd;
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
    expectSameAsStarpuFxtTool(*ours, *tool, dir / "paje.trace", static_cast<std::size_t>(GetParam().ranks));
}

INSTANTIATE_TEST_SUITE_P(FromStarpuMpiSource, StarpuMpiExample,
                         ::testing::Values(MpiExample{"stencil5", "", 2}, MpiExample{"stencil5", "", 4},
                                           MpiExample{"ring", "", 2}),
                         [](const auto& param) {
                             return std::string(param.param.name) + "_" + std::to_string(param.param.ranks) + "ranks";
                         });

} // namespace
} // namespace starscope::tracer
