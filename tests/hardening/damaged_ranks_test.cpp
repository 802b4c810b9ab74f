// Jobs of several ranks that went wrong, made from the real 2-rank CNN runs of
// tests/data/tracer/ranks13 (StarPU 1.3.10) and ranks14 (1.4.12): a rank's file cut short, its
// StarPU-MPI rank or clock synchronisation damaged, the job read back through Paje and the native
// format. A damaged rank is refused naming its file, the same way whether the files are given
// one by one or as a run folder; a cut one ends where its data ends.
#include "tests/hardening/rank_damage.hpp"
#include "tests/support/test_support.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace starscope::hardening {
namespace {

namespace fs = std::filesystem;
using starscope::testing::TempDir;
using namespace tracer;

fs::path rankRun(const std::string& name) {
    return starscope::testing::testDataDir() / "tracer" / name;
}

// Time per state name of one lane.
std::map<std::string, TimeNs> stateTotals(const Trace& trace, const Lane& lane) {
    std::map<std::string, TimeNs> totals;
    for (const auto& span : lane.spans()) {
        totals[trace.stateOf(span).name] += span.duration();
    }
    return totals;
}

const Lane* laneNamed(const Trace& trace, const std::string& name) {
    const auto it = std::find_if(trace.lanes.begin(), trace.lanes.end(), [&](const Lane& l) { return l.name == name; });
    return it == trace.lanes.end() ? nullptr : &*it;
}

// --- item 3: a Paje trace of several ranks -----------------------------------------------------

TEST(PajeOfRanks, MarkersKeepTheirRankAndWhatConvertWritesReadsBack) {
    const TempDir dir;
    const auto run = rankRun("ranks13");
    const auto fxt = readTrace(run);
    ASSERT_TRUE(fxt) << fxt.error().describe();
    {
        std::ofstream out(dir / "job.paje");
        writePaje(*fxt, out);
    }
    const auto paje = readTrace(dir / "job.paje");
    ASSERT_TRUE(paje) << paje.error().describe();
    ASSERT_EQ(paje->markers.size(), fxt->markers.size());
    for (std::size_t i = 0; i < paje->markers.size(); ++i) {
        EXPECT_EQ(paje->markers[i].rank, fxt->markers[i].rank) << "marker " << i;
    }
    // The batch transitions and their stalls are rank 0's, as the prof files give them.
    const auto fromFxt = summarize(*fxt);
    const auto fromPaje = summarize(*paje);
    ASSERT_FALSE(fromFxt.transitions.empty());
    EXPECT_EQ(fromPaje.transitions.size(), fromFxt.transitions.size());
    EXPECT_EQ(fromPaje.meanTransitionStall, fromFxt.meanTransitionStall);
    std::printf("transitions: prof files %zu, Paje %zu; mean stall %lld and %lld ns\n",
                fromFxt.transitions.size(), fromPaje.transitions.size(),
                static_cast<long long>(fromFxt.meanTransitionStall.value.value_or(-1)),
                static_cast<long long>(fromPaje.meanTransitionStall.value.value_or(-1)));
    // convert: the native file reads back as the trace it was made from.
    ASSERT_TRUE(writeNativeFile(*paje, dir / "job.sstrace"));
    const auto back = readNative(dir / "job.sstrace");
    ASSERT_TRUE(back) << back.error().describe();
    auto expected = *paje;
    expected.metadata.try_emplace("format", "native");
    EXPECT_EQ(*back, expected);
}

// --- item 4: a rank cut short ---------------------------------------------------------------

TEST(CutRank, ItsLanesEndWhereItsDataEnds) {
    const TempDir dir;
    const auto run = rankRun("ranks13");
    fs::create_directory(dir / "job");
    fs::copy_file(run / "prof_file__0", dir / "job" / "prof_file__0");
    cutFile(run / "prof_file__1", dir / "job" / "prof_file__1", 30000);
    const auto alone = readTrace(dir / "job" / "prof_file__1");
    ASSERT_TRUE(alone) << alone.error().describe();
    const auto job = readTrace(dir / "job");
    ASSERT_TRUE(job) << job.error().describe();
    EXPECT_LT(alone->end + 100'000'000, job->end) << "the cut rank should end well before the job";
    // Each of its lanes holds what the file alone gives, however long the job goes on.
    for (const auto& lane : alone->lanes) {
        const Lane* merged = laneNamed(*job, "1_" + lane.name);
        ASSERT_NE(merged, nullptr) << lane.name;
        EXPECT_EQ(stateTotals(*job, *merged), stateTotals(*alone, lane)) << lane.name;
    }
    const auto cpu = laneNamed(*job, "1_CPU 0");
    ASSERT_NE(cpu, nullptr);
    std::printf("1_CPU 0: last span ends at %lld ns, the job at %lld ns\n",
                static_cast<long long>(cpu->spans().back().end), static_cast<long long>(job->end));
    const bool named = std::any_of(job->warnings.begin(), job->warnings.end(), [](const std::string& w) {
        return w.find("prof_file__1: rank 1 is cut short") != std::string::npos;
    });
    EXPECT_TRUE(named) << "no warning names the cut rank";
}

// The multi-rank fuzzer's first find: a file cut right after a user event (a starscope marker)
// had the marker's text read after the walk, from the buffer its parameters had been realigned
// into or from the file's mapping, both gone by then (the mapping: a crash).
TEST(CutRank, AMarkerJustBeforeTheCutKeepsItsText) {
    const auto run = rankRun("ranks13");
    for (const bool aligned : {false, true}) {
        const TempDir dir;
        const auto whole = aligned ? withAlignedEvents(readBytes(run / "prof_file__1")) : readBytes(run / "prof_file__1");
        constexpr std::uint64_t kUserStringCode = 0x513c;   // starpu_fxt_trace_user_event_string
        const auto events = findFxtEvents(whole, kUserStringCode, kUserStringCode);
        ASSERT_GT(events.size(), 4U);
        const auto& last = events[events.size() / 2];
        const std::string text(whole.c_str() + last.offset + 24);   // NUL-terminated in its parameters
        ASSERT_TRUE(text.starts_with("ss1:")) << text;
        fs::create_directory(dir / "job");
        fs::copy_file(run / "prof_file__0", dir / "job" / "prof_file__0");
        writeBytes(dir / "job" / "prof_file__1", whole.substr(0, last.offset + 24 + std::size_t{last.params} * 8));
        for (const auto& input : {dir / "job", dir / "job" / "prof_file__1"}) {
            const auto trace = readTrace(input);
            ASSERT_TRUE(trace) << trace.error().describe();
            const auto rank = input == dir / "job" ? 1 : -1;
            const auto mine = std::find_if(trace->markers.rbegin(), trace->markers.rend(),
                                           [&](const MarkerEvent& m) { return m.rank == rank; });
            ASSERT_NE(mine, trace->markers.rend());
            EXPECT_EQ(trace->textOf(*mine), text) << input << (aligned ? ", aligned" : "");
        }
    }
}

// --- item 6 and the minor ones: a damaged rank or clock synchronisation ---------------------------

struct Damage {
    const char* name;
    const char* run;
    RankPatch patch;           // applied to rank 1's file
    const char* says;          // in the error
};

std::ostream& operator<<(std::ostream& out, const Damage& d) {
    return out << d.name;
}

class DamagedRank : public ::testing::TestWithParam<Damage> {};

TEST_P(DamagedRank, IsRefusedNamingItsFileWhicheverWayTheFilesAreGiven) {
    const TempDir dir;
    const auto& damage = GetParam();
    const auto run = rankRun(damage.run);
    fs::create_directory(dir / "job");
    fs::copy_file(run / "prof_file__0", dir / "job" / "prof_file__0");
    const auto damaged = dir / "job" / "prof_file__1";
    ASSERT_TRUE(patchRankFile(run / "prof_file__1", damaged, damage.patch));
    const std::vector<std::vector<fs::path>> ways = {
        {dir / "job"},
        {dir / "job" / "prof_file__0", damaged},
        {damaged, dir / "job" / "prof_file__0"},
    };
    for (const auto& inputs : ways) {
        const auto trace = readTrace(inputs);
        ASSERT_FALSE(trace) << "accepted: " << inputs.front() << ", makespan " << trace->end << " ns";
        EXPECT_EQ(trace.error().code, ErrorCode::Corrupt) << trace.error().describe();
        EXPECT_EQ(trace.error().file, damaged.string()) << trace.error().describe();
        EXPECT_NE(trace.error().message.find(damage.says), std::string::npos) << trace.error().describe();
        std::printf("%s: %s\n", inputs.front().filename().c_str(), trace.error().describe().c_str());
    }
}

constexpr std::uint64_t kTwoTo63 = std::uint64_t{1} << 63;

INSTANTIATE_TEST_SUITE_P(
    Sync, DamagedRank,
    ::testing::Values(
        Damage{"SyncTimeTwoTo63", "ranks13", {SyncPointEvent, 0, Field::Time, kTwoTo63}, "more than 39 hours"},
        Damage{"SyncTimeOne", "ranks13", {SyncPointEvent, 0, Field::Time, 1}, "before its first event"},
        Damage{"LocalSyncTimeTwoTo63", "ranks14", {SyncPointEvent, 0, Field::LocalSyncTime, kTwoTo63},
               "more than 39 hours"},
        // 1.4's second sync point (at shutdown) 43 ns before its first.
        Damage{"SecondSyncBeforeFirst", "ranks14", {SyncPointEvent, 1, Field::Time, 40835828167000},
               "before its first one"},
        // 100 ms after the file's last event: within the model, but not within the rank's data.
        Damage{"SyncAfterTheLastEvent", "ranks14", {SyncPointEvent, 1, Field::LocalSyncTime, 40836244578101},
               "after its last event"}),
    [](const auto& test) { return std::string(test.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Rank, DamagedRank,
    ::testing::Values(
        Damage{"BeyondTheJob", "ranks13", {SyncPointEvent | MpiStartEvent, 0, Field::Rank, 2}, "rank 2 of 2"},
        Damage{"Int32Max", "ranks13", {SyncPointEvent | MpiStartEvent, 0, Field::Rank, 2147483647},
               "rank 2147483647 of 2"},
        Damage{"Negative", "ranks14", {SyncPointEvent | MpiStartEvent, 0, Field::Rank, ~std::uint64_t{0}},
               "rank -1 of 2"},
        Damage{"StartAndSyncDisagree", "ranks13", {SyncPointEvent, 0, Field::Rank, 9},
               "its StarPU-MPI start names rank 1 of 2, its sync point names rank 9 of 2"}),
    [](const auto& test) { return std::string(test.param.name); });

} // namespace
} // namespace starscope::hardening
