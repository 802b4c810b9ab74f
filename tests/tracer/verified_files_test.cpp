// Native files checked whole once are read again without their columns' checks while they stay
// the same files (tracer/native/verified_files.hpp): what makes a stamp, what it lets the reader
// skip, and every change that makes the reader check the file again.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/native/verified_files.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <thread>
#include <vector>

namespace starscope::tracer {
namespace {

using namespace testing;
using detail::native::VerifiedFiles;
using starscope::testing::TempDir;
namespace fs = std::filesystem;

ReadOptions remembering(const fs::path& folder) {
    ReadOptions options;
    options.verifiedFiles = folder;
    return options;
}

std::size_t stampsIn(const fs::path& folder) {
    std::size_t count = 0;
    for (std::error_code ec; const auto& entry : fs::directory_iterator(folder, ec)) {
        count += entry.path().extension() == ".stamp" ? 1U : 0U;
    }
    return count;
}

files::FileIdentity identityOf(const fs::path& file) {
    const files::MappedFile map(file);
    return map.identity().value();
}

// A file the reader remembers only once it has not changed for a second (VerifiedFiles::add).
void letSettle() {
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
}

// The small test trace, written to file over a second ago: a file the reader may remember.
Trace settledNativeFile(const fs::path& file) {
    auto trace = readTrace(smallProfFile());
    EXPECT_TRUE(trace);
    EXPECT_TRUE(writeNativeFile(*trace, file));
    letSettle();
    return std::move(*trace);
}

// The checksum the file's frame ends with.
std::uint64_t frameChecksum(const fs::path& file) {
    const auto data = starscope::testing::readFile(file);
    std::uint64_t checksum = 0;
    std::memcpy(&checksum, data.data() + data.size() - 8, 8);
    return checksum;
}

// A trace whose native file has the right checksum but a span after the trace's end, which
// only the columns' checks find.
Trace withSpanAfterTheEnd() {
    auto trace = readTrace(smallProfFile());
    EXPECT_TRUE(trace);
    for (auto& lane : trace->lanes) {
        if (!lane.levels.empty() && !lane.levels.front().empty()) {
            auto& last = lane.levels.front().edit().back();
            last = Span{last.start, trace->end + 1, last.state, last.runsTask != 0};
            break;
        }
    }
    return std::move(*trace);
}

TEST(VerifiedFiles, AFileCheckedWholeIsReadAgainWithoutChecksAndTheSame) {
    const auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    TempDir dir;
    const auto file = dir / "t.sstrace";
    const auto stamps = dir / "stamps";
    ASSERT_TRUE(writeNativeFile(*trace, file));
    // Just written: checked, not yet remembered.
    ASSERT_TRUE(readNative(file, remembering(stamps)));
    EXPECT_EQ(stampsIn(stamps), 0U);
    letSettle();
    const auto checked = readNative(file, remembering(stamps));
    ASSERT_TRUE(checked) << checked.error().describe();
    EXPECT_EQ(stampsIn(stamps), 1U);
    EXPECT_TRUE(VerifiedFiles(stamps).holds(identityOf(file), frameChecksum(file)));
    const auto trusted = readNative(file, remembering(stamps));
    ASSERT_TRUE(trusted) << trusted.error().describe();
    EXPECT_EQ(*trusted, *trace);
    EXPECT_TRUE(trusted->tasks.isMapped());
    EXPECT_EQ(stampsIn(stamps), 1U);
}

// What the stamp lets the reader skip: a file that fails the columns' checks reads once a stamp
// says it passed them. Only a read that checked the file whole writes one.
TEST(VerifiedFiles, AStampIsWhatLetsTheChecksBeSkipped) {
    TempDir dir;
    const auto file = dir / "bad.sstrace";
    const auto stamps = dir / "stamps";
    ASSERT_TRUE(writeNativeFile(withSpanAfterTheEnd(), file));
    letSettle();
    const auto refused = readNative(file, remembering(stamps));
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("outside the trace"), std::string::npos) << refused.error().describe();
    EXPECT_EQ(stampsIn(stamps), 0U);
    VerifiedFiles(stamps).add(identityOf(file), frameChecksum(file));
    EXPECT_TRUE(readNative(file, remembering(stamps)));
    // Without the folder, the same file is checked and refused.
    EXPECT_FALSE(readNative(file));
}

// Any write moves the change time: a remembered file damaged since is checked and refused.
TEST(VerifiedFiles, AFileWrittenSinceItsStampIsCheckedAgain) {
    TempDir dir;
    const auto file = dir / "t.sstrace";
    const auto stamps = dir / "stamps";
    settledNativeFile(file);
    ASSERT_TRUE(readNative(file, remembering(stamps)));
    ASSERT_EQ(stampsIn(stamps), 1U);
    const auto before = identityOf(file);
    {
        // One byte of the last column, in place: the same inode and size.
        std::fstream damage(file, std::ios::in | std::ios::out | std::ios::binary);
        damage.seekp(static_cast<std::streamoff>(fs::file_size(file) - 64));
        damage.put('\x7f');
    }
    ASSERT_NE(identityOf(file), before);
    const auto back = readNative(file, remembering(stamps));
    ASSERT_FALSE(back);
    EXPECT_EQ(back.error().code, ErrorCode::Corrupt) << back.error().describe();
}

// Storage that changes a file's blocks under the file system keeps its inode, size and times:
// its stamp still holds. Made so here: a span of a stamped file shortened in place (it still
// passes every check a column has: only its bytes changed), its modification time put back, and
// the stamp written again for the file's identity (no user can put its change time back; the
// storage never moves it). What the damaged file then gives, against the intact one.
struct DamagedUnderItsStamp {
    fs::path file;
    fs::path stamps;
    std::size_t offset = 0; // of the span shortened, in the file
};

DamagedUnderItsStamp damageUnderItsStamp(const fs::path& dir) {
    DamagedUnderItsStamp damaged{dir / "t.sstrace", dir / "stamps", 0};
    const auto trace = settledNativeFile(damaged.file);
    EXPECT_TRUE(readNative(damaged.file, remembering(damaged.stamps)));
    EXPECT_EQ(stampsIn(damaged.stamps), 1U);
    // The longest span running a task: its record, byte for byte as the model holds it, is the
    // file's (the columns are mapped).
    const Span* longest = nullptr;
    for (const auto& lane : trace.lanes) {
        for (const auto& level : lane.levels) {
            for (const auto& span : level) {
                if (span.runsTask != 0
                    && (longest == nullptr || span.duration() > longest->duration())) {
                    longest = &span;
                }
            }
        }
    }
    EXPECT_NE(longest, nullptr);
    if (longest == nullptr) {
        return damaged;
    }
    const auto bytes = starscope::testing::readFile(damaged.file);
    const std::string_view record(reinterpret_cast<const char*>(longest), sizeof(Span));
    damaged.offset = bytes.find(record);
    EXPECT_NE(damaged.offset, std::string::npos);
    EXPECT_EQ(bytes.find(record, damaged.offset + 1), std::string::npos)
        << "the span's bytes are not unique";
    struct stat before {};
    EXPECT_EQ(::stat(damaged.file.c_str(), &before), 0);
    {
        const Span shortened{longest->start, longest->start + 1, longest->state, true};
        std::fstream damage(damaged.file, std::ios::in | std::ios::out | std::ios::binary);
        damage.seekp(static_cast<std::streamoff>(damaged.offset));
        damage.write(reinterpret_cast<const char*>(&shortened), sizeof shortened);
    }
    const timespec times[2] = {before.st_atim, before.st_mtim};
    EXPECT_EQ(::utimensat(AT_FDCWD, damaged.file.c_str(), times, 0), 0);
    EXPECT_EQ(fs::file_size(damaged.file), static_cast<std::uintmax_t>(before.st_size));
    letSettle();
    VerifiedFiles(damaged.stamps).add(identityOf(damaged.file), frameChecksum(damaged.file));
    EXPECT_EQ(stampsIn(damaged.stamps), 1U);
    return damaged;
}

// A stamp lets the reader skip the columns' checks, never the checksum: the damaged file is
// refused, named, whichever figures it would have given.
TEST(VerifiedFiles, AStampedFileDamagedUnderItsSizeAndTimesIsRefused) {
    TempDir dir;
    const auto damaged = damageUnderItsStamp(dir.path());
    ASSERT_NE(damaged.offset, std::string::npos);
    const auto back = readNative(damaged.file, remembering(damaged.stamps));
    ASSERT_FALSE(back) << "a damaged stamped file was read";
    EXPECT_EQ(back.error().code, ErrorCode::Corrupt) << back.error().describe();
    EXPECT_EQ(back.error().file, damaged.file.string());
    EXPECT_NE(back.error().message.find("checksum"), std::string::npos) << back.error().describe();
    // The same through the one way in that the command line and the viewer take.
    const auto viaReadTrace = readTrace(damaged.file, remembering(damaged.stamps));
    ASSERT_FALSE(viaReadTrace);
    EXPECT_EQ(viaReadTrace.error().code, ErrorCode::Corrupt) << viaReadTrace.error().describe();
}

// `stats` of the damaged stamped file prints no figure, names the file and exits non-zero; of
// the intact file it prints them (read on the fast path: the stamp holds).
TEST(VerifiedFiles, StatsOfAStampedFileDamagedUnderItsSizeAndTimesFails) {
    TempDir dir;
    const auto intact = dir / "intact.sstrace";
    settledNativeFile(intact);
    const auto damaged = damageUnderItsStamp(dir.path());
    ASSERT_NE(damaged.offset, std::string::npos);
    const auto stats = [&](const fs::path& file, const std::string& name) {
        // A deadline: a hang fails this test, not the run around it.
        return starscope::testing::runCommand(
            "STARSCOPE_VERIFIED_FILES=" + damaged.stamps.string() + " timeout 120 "
            + STARSCOPE_EXECUTABLE + " stats " + file.string() + " > "
            + (dir / (name + ".out")).string() + " 2> " + (dir / (name + ".err")).string());
    };
    ASSERT_EQ(stats(intact, "intact"), 0); // checked whole and stamped
    ASSERT_EQ(stampsIn(damaged.stamps), 2U);
    ASSERT_EQ(stats(intact, "intact"), 0); // the fast path
    EXPECT_NE(starscope::testing::readFile(dir / "intact.out").find("dleness"), std::string::npos);
    const int status = stats(damaged.file, "damaged");
    EXPECT_NE(status, 0);
    EXPECT_NE(status, 124 << 8) << "stats did not end";
    EXPECT_EQ(starscope::testing::readFile(dir / "damaged.out"), "")
        << "the intact file's figures:\n" << starscope::testing::readFile(dir / "intact.out");
    const auto error = starscope::testing::readFile(dir / "damaged.err");
    EXPECT_NE(error.find(damaged.file.string()), std::string::npos) << error;
    EXPECT_NE(error.find("checksum"), std::string::npos) << error;
}

// The checksum's pass of a stamped file tells the progress, which only grows, and stops when
// told to: on the caller's thread (one thread), after each step; on its own, whenever it is
// asked while the pass goes on (a small file's may be over before, so only its result and order
// are checked here).
TEST(VerifiedFiles, TheChecksumOfAStampedFileIsToldAndCancelledWithTheRead) {
    TempDir dir;
    const auto file = dir / "t.sstrace";
    const auto stamps = dir / "stamps";
    const auto trace = settledNativeFile(file);
    ASSERT_TRUE(readNative(file, remembering(stamps)));
    ASSERT_EQ(stampsIn(stamps), 1U);
    for (const unsigned threads : {1U, 0U}) {
        auto options = remembering(stamps);
        options.threads = threads;
        std::vector<double> told;
        options.progress = [&told](double fraction) {
            told.push_back(fraction);
            return true;
        };
        const auto back = readNative(file, options);
        ASSERT_TRUE(back) << back.error().describe();
        EXPECT_EQ(*back, trace);
        EXPECT_TRUE(std::is_sorted(told.begin(), told.end())) << threads << " thread(s)";
        EXPECT_TRUE(told.empty() || told.back() <= 1.0);
    }
    auto options = remembering(stamps);
    options.threads = 1;
    options.progress = [](double) { return false; };
    const auto cancelled = readNative(file, options);
    ASSERT_FALSE(cancelled);
    EXPECT_EQ(cancelled.error().code, ErrorCode::Cancelled) << cancelled.error().describe();
}

TEST(VerifiedFiles, AStampHoldsForItsIdentityAndChecksumOnly) {
    TempDir dir;
    const VerifiedFiles verified(dir / "stamps");
    const files::FileIdentity file{1, 2, 3, 4, 5};
    verified.add(file, 42);
    EXPECT_TRUE(verified.holds(file, 42));
    EXPECT_FALSE(verified.holds(file, 43));
    for (auto other : {files::FileIdentity{1, 2, 4, 4, 5}, files::FileIdentity{1, 2, 3, 5, 5},
                       files::FileIdentity{1, 2, 3, 4, 6}, files::FileIdentity{1, 3, 3, 4, 5}}) {
        EXPECT_FALSE(verified.holds(other, 42));
    }
    // A stamp of other checks (another version of them) holds for nothing.
    const auto stamp = *fs::directory_iterator(dir / "stamps");
    auto text = starscope::testing::readFile(stamp.path());
    text.replace(text.find(' ') + 1, 1, "0");
    std::ofstream(stamp.path(), std::ios::binary | std::ios::trunc) << text;
    EXPECT_FALSE(verified.holds(file, 42));
    // No folder: nothing is held, nothing written.
    const VerifiedFiles none{fs::path{}};
    none.add(file, 42);
    EXPECT_FALSE(none.holds(file, 42));
}

TEST(VerifiedFiles, TheFolderKeepsTheNewestStamps) {
    TempDir dir;
    const VerifiedFiles verified(dir / "stamps");
    for (std::uint64_t inode = 0; inode < VerifiedFiles::kKept + 8; ++inode) {
        verified.add(files::FileIdentity{1, inode, 3, 4, 5}, 42);
    }
    EXPECT_EQ(stampsIn(dir / "stamps"), VerifiedFiles::kKept);
    EXPECT_TRUE(verified.holds(files::FileIdentity{1, VerifiedFiles::kKept + 7, 3, 4, 5}, 42));
}

// A folder that cannot be made costs the stamp, never the read.
TEST(VerifiedFiles, AnUnwritableFolderReadsAsNone) {
    TempDir dir;
    const auto file = dir / "t.sstrace";
    const auto trace = settledNativeFile(file);
    const auto back = readNative(file, remembering(file / "stamps"));   // under a regular file
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, trace);
}

// The command line remembers in STARSCOPE_VERIFIED_FILES (the user's cache when unset); set
// empty, it remembers nothing.
TEST(VerifiedFiles, TheCommandLineRemembersWhereTheEnvironmentSays) {
    TempDir dir;
    const auto file = dir / "t.sstrace";
    settledNativeFile(file);
    const std::string stats = std::string(STARSCOPE_EXECUTABLE) + " stats " + file.string() + " > /dev/null";
    ASSERT_EQ(starscope::testing::runCommand("STARSCOPE_VERIFIED_FILES= " + stats), 0);
    ASSERT_EQ(starscope::testing::runCommand("STARSCOPE_VERIFIED_FILES=" + (dir / "stamps").string() + " " + stats), 0);
    EXPECT_EQ(stampsIn(dir / "stamps"), 1U);
    ASSERT_EQ(starscope::testing::runCommand("env -u STARSCOPE_VERIFIED_FILES XDG_CACHE_HOME=" + (dir / "cache").string()
                                             + " " + stats),
              0);
    EXPECT_EQ(stampsIn(dir / "cache" / "starscope" / "verified"), 1U);
}

} // namespace
} // namespace starscope::tracer
