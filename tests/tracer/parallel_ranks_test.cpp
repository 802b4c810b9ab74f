// A job's prof files decoded each on a thread of its own, their partial models merged in rank
// order, against the same files decoded one after another into one model: the real 2-rank CNN
// runs of tests/data/tracer (StarPU 1.3.10 and 1.4.12), whole, cut short and damaged. The model,
// its warnings and its errors are the same, naming the same file.
#include "tests/hardening/rank_damage.hpp"
#include "tests/support/test_support.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace starscope::tracer {
namespace {

namespace fs = std::filesystem;
using starscope::testing::TempDir;

fs::path rankRun(const std::string& name) {
    return starscope::testing::testDataDir() / "tracer" / name;
}

ReadOptions withThreads(unsigned threads) {
    ReadOptions options;
    options.threads = threads;
    return options;
}

// Both reads fail alike or give one model (every table, warning and metadata entry).
void expectSameRead(const std::vector<fs::path>& inputs, unsigned threads) {
    const auto serial = readTrace(inputs, withThreads(1));
    const auto parallel = readTrace(inputs, withThreads(threads));
    ASSERT_EQ(static_cast<bool>(serial), static_cast<bool>(parallel))
        << (serial ? parallel.error().describe() : serial.error().describe());
    if (!serial) {
        EXPECT_EQ(serial.error().code, parallel.error().code);
        EXPECT_EQ(serial.error().message, parallel.error().message);
        EXPECT_EQ(serial.error().file, parallel.error().file);
        EXPECT_EQ(serial.error().offset, parallel.error().offset);
        return;
    }
    EXPECT_EQ(serial->lanes, parallel->lanes);
    EXPECT_EQ(serial->tasks, parallel->tasks);
    EXPECT_EQ(serial->warnings, parallel->warnings);
    EXPECT_EQ(serial->metadata, parallel->metadata);
    EXPECT_EQ(serial->messages, parallel->messages);
    EXPECT_TRUE(*serial == *parallel);
    // What a user compares: the exports.
    std::ostringstream serialPaje;
    std::ostringstream parallelPaje;
    writePaje(*serial, serialPaje);
    writePaje(*parallel, parallelPaje);
    EXPECT_EQ(serialPaje.str(), parallelPaje.str());
}

class ParallelRanks : public ::testing::TestWithParam<const char*> {};

TEST_P(ParallelRanks, GiveTheModelOfTheFilesReadOneAfterAnother) {
    const auto run = rankRun(GetParam());
    expectSameRead({run}, 2);
    expectSameRead({run}, 8);   // more threads than files: one a file
    expectSameRead({run / "prof_file__1", run / "prof_file__0"}, 2);
}

TEST_P(ParallelRanks, DecodeEachRankOnAThreadOfItsOwn) {
    std::mutex mutex;
    std::set<std::thread::id> threads;
    std::vector<double> fractions;
    ReadOptions options = withThreads(2);
    options.progress = [&](double fraction) {
        const std::lock_guard lock(mutex);
        threads.insert(std::this_thread::get_id());
        fractions.push_back(fraction);
        return true;
    };
    const auto trace = readTrace(rankRun(GetParam()), options);
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_EQ(threads.size(), 2U);
    // The files' mean fraction: it only grows, and the reader's callback is never entered twice
    // at once (the lock above would hide that; the reader's own lock is what keeps it so).
    EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
    ASSERT_FALSE(fractions.empty());
    EXPECT_LE(fractions.back(), 1.0);
}

TEST_P(ParallelRanks, ACancelledReadFailsAsCancelled) {
    ReadOptions options = withThreads(2);
    options.progress = [](double) { return false; };
    const auto trace = readTrace(rankRun(GetParam()), options);
    ASSERT_FALSE(trace);
    EXPECT_EQ(trace.error().code, ErrorCode::Cancelled) << trace.error().describe();
}

// Cut anywhere (before its first block, in its header, mid-event): the warnings of a cut rank
// and the errors of a file with no event name the cut file, as one after another.
TEST_P(ParallelRanks, ACutRankWarnsOrFailsNamingItsFile) {
    const auto run = rankRun(GetParam());
    const auto size = fs::file_size(run / "prof_file__1");
    for (const std::size_t keep : {std::size_t{16}, std::size_t{200}, std::size_t{4000}, std::size_t{30001},
                                   static_cast<std::size_t>(size) - 5}) {
        SCOPED_TRACE("prof_file__1 cut at byte " + std::to_string(keep));
        const TempDir dir;
        fs::create_directory(dir / "job");
        fs::copy_file(run / "prof_file__0", dir / "job" / "prof_file__0");
        const auto cut = dir / "job" / "prof_file__1";
        hardening::cutFile(run / "prof_file__1", cut, keep);
        expectSameRead({dir / "job"}, 2);
        const auto parallel = readTrace(dir / "job", withThreads(2));
        if (parallel) {
            const bool named = std::any_of(parallel->warnings.begin(), parallel->warnings.end(),
                                           [&](const std::string& w) { return w.find(cut.string()) != std::string::npos; });
            EXPECT_TRUE(named) << "no warning names " << cut;
        } else {
            EXPECT_EQ(parallel.error().file, cut.string()) << parallel.error().describe();
        }
    }
}

// A sync point after the rank's last event is known once the rank is decoded: checked as the
// parts are merged, in rank order, it names the damaged file.
TEST(ParallelRanksDamaged, ASyncPointAfterTheDataIsRefusedNamingItsFile) {
    const TempDir dir;
    const auto run = rankRun("ranks14");
    fs::create_directory(dir / "job");
    fs::copy_file(run / "prof_file__0", dir / "job" / "prof_file__0");
    const auto damaged = dir / "job" / "prof_file__1";
    ASSERT_TRUE(hardening::patchRankFile(run / "prof_file__1", damaged,
                                         {hardening::SyncPointEvent, 1, hardening::Field::LocalSyncTime, 40836244578101}));
    expectSameRead({dir / "job"}, 2);
    const auto trace = readTrace(dir / "job", withThreads(2));
    ASSERT_FALSE(trace);
    EXPECT_EQ(trace.error().file, damaged.string()) << trace.error().describe();
    EXPECT_NE(trace.error().message.find("after its last event"), std::string::npos) << trace.error().describe();
}

INSTANTIATE_TEST_SUITE_P(RecordedJobs, ParallelRanks, ::testing::Values("ranks13", "ranks14"));

} // namespace
} // namespace starscope::tracer
