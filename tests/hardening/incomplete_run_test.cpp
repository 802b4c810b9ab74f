// Run folders that hold less than their run: prof files of some ranks gone, or standing there as
// something that is no file (a FIFO, a folder, a socket, a dangling link, a link to /dev/zero),
// and copies of a run. Made at test time from real runs recorded by `starscope record` (3
// ranks, and 1): a missing rank is named in a warning, a prof file that is no file is refused
// naming it, `compare` refuses a run missing ranks (skips it inside a sweep) and counts a copy
// of a run once.

#include "tests/support/test_support.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using starscope::testing::readFile;
using starscope::testing::TempDir;

constexpr unsigned kSeconds = 10;

// A short run: 4 batches of 48 images, one worker per rank.
const std::string kShortRun =
    "--batches 4 --batch-size 48 --chunk 16 --workers 1 --train-images 2000 --test-images 100";

struct Outcome {
    int status = -1;
    std::string out;
    std::string err;
};

Outcome starscope(const std::string& arguments, const fs::path& dir) {
    const auto out = dir / "stdout.txt";
    const auto err = dir / "stderr.txt";
    Outcome o;
    o.status = starscope::testing::runCommand("timeout " + std::to_string(kSeconds * 6) + " '"
                                              + STARSCOPE_EXECUTABLE + "' " + arguments + " > '"
                                              + out.string() + "' 2> '" + err.string() + "' < /dev/null");
    o.out = readFile(out);
    o.err = readFile(err);
    return o;
}

class IncompleteRun : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_dir = new TempDir;
        s_ranks3 = starscope("record --ranks 3 " + kShortRun + " --out '" + whole().string() + "'", s_dir->path());
        s_single = starscope("record " + kShortRun + " --out '" + single().string() + "'", s_dir->path());
        s_other = starscope("record " + kShortRun + " --out '" + other().string() + "'", s_dir->path());
    }
    static void TearDownTestSuite() {
        delete s_dir;
        s_dir = nullptr;
    }
    void SetUp() override {
        ASSERT_EQ(s_ranks3.status, 0) << "record --ranks 3: " << s_ranks3.out << s_ranks3.err;
        ASSERT_EQ(s_single.status, 0) << "record: " << s_single.out << s_single.err;
        ASSERT_EQ(s_other.status, 0) << "record: " << s_other.out << s_other.err;
        ASSERT_EQ(starscope::tracer::run::findProfFiles(whole()).size(), 3U);
    }

    static fs::path whole() { return s_dir->path() / "ranks3"; }
    static fs::path single() { return s_dir->path() / "single"; }
    static fs::path other() { return s_dir->path() / "other"; }
    // A copy of the 3-rank run under name, without the prof files of the given ranks.
    fs::path withoutRanks(const std::string& name, const std::vector<int>& ranks) const {
        const auto copy = m_dir / name;
        fs::create_directories(copy.parent_path());
        fs::copy(whole(), copy, fs::copy_options::recursive);
        for (const int rank : ranks) {
            fs::remove(copy / ("prof_file__" + std::to_string(rank)));
        }
        return copy;
    }

    static TempDir* s_dir;
    static Outcome s_ranks3;
    static Outcome s_single;
    static Outcome s_other;
    TempDir m_dir;
};
TempDir* IncompleteRun::s_dir = nullptr;
Outcome IncompleteRun::s_ranks3;
Outcome IncompleteRun::s_single;
Outcome IncompleteRun::s_other;

std::vector<std::string> warningsOf(const fs::path& run) {
    const auto trace = starscope::tracer::readTrace(run);
    EXPECT_TRUE(trace) << run << ": " << trace.error().describe();
    return trace ? trace->warnings : std::vector<std::string>{};
}

bool holds(const std::vector<std::string>& warnings, const std::string& text) {
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

TEST_F(IncompleteRun, MissingRanksAreNamedInAWarning) {
    for (const auto& w : warningsOf(whole())) {
        EXPECT_EQ(w.find("missing"), std::string::npos) << w;
    }
    const std::string said = "run.json says the run had 3 ranks, the folder holds the trace of ";
    const std::string coverage = " missing (no prof file); every figure covers the ranks read only";
    // Two files left: the rank table names them.
    EXPECT_TRUE(holds(warningsOf(withoutRanks("no2", {2})), said + "2 (ranks 0, 1): rank 2" + coverage));
    EXPECT_TRUE(holds(warningsOf(withoutRanks("no0", {0})), said + "2 (ranks 1, 2): rank 0" + coverage));
    // One file left: its name (prof_file_USER_RANK) does.
    EXPECT_TRUE(holds(warningsOf(withoutRanks("only0", {1, 2})), said + "1 (rank 0): ranks 1, 2" + coverage));
    EXPECT_TRUE(holds(warningsOf(withoutRanks("only2", {0, 1})), said + "1 (rank 2): ranks 0, 1" + coverage));
    // A damaged run.json may claim any number: the first few missing are named.
    const auto claims = withoutRanks("claims", {});
    auto record = nlohmann::json::parse(readFile(claims / "run.json"));
    record["ranks"] = 1000;
    std::ofstream(claims / "run.json") << record.dump();
    EXPECT_TRUE(holds(warningsOf(claims), "run.json says the run had 1000 ranks, the folder holds the trace of 3 "
                                          "(ranks 0, 1, 2): ranks 3, 4, 5, 6, 7, 8, 9, 10, ... (997 in all)"
                                          + coverage));
    // The CLI prints it.
    const auto stats = starscope("stats '" + (m_dir / "only0").string() + "'", m_dir.path());
    EXPECT_EQ(stats.status, 0) << stats.err;
    EXPECT_NE(stats.err.find("warning: " + (m_dir / "only0").string() + ": " + said), std::string::npos)
        << stats.err;
}

// Where rank 1's prof file should be stands something else: the run is refused naming it, in a
// child killed after a while should a FIFO be opened.
TEST_F(IncompleteRun, ProfFileThatIsNoFileIsRefusedNamingIt) {
    struct Case {
        std::string name;
        std::string refusal;
    };
    const std::vector<Case> cases = {
        {"fifo", "is a FIFO, not a regular file"},
        {"folder", "is a folder, not a regular file"},
        {"socket", "is a socket, not a regular file"},
        {"dangling", "is a dangling symlink (to nowhere/prof_file__1), not a regular file"},
        {"zero", "is a character device, not a regular file"},
    };
    int socketFd = -1;
    for (const auto& c : cases) {
        const auto run = withoutRanks(c.name, {1});
        const auto file = run / "prof_file__1";
        if (c.name == "fifo") {
            ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0) << std::strerror(errno);
        } else if (c.name == "folder") {
            fs::create_directory(file);
        } else if (c.name == "socket") {
            socketFd = ::socket(AF_UNIX, SOCK_STREAM, 0);
            sockaddr_un address{};
            address.sun_family = AF_UNIX;
            ASSERT_LT(file.string().size(), sizeof address.sun_path);
            std::memcpy(address.sun_path, file.c_str(), file.string().size() + 1);
            ASSERT_EQ(::bind(socketFd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0)
                << std::strerror(errno);
        } else if (c.name == "dangling") {
            fs::create_symlink("nowhere/prof_file__1", file);
        } else {
            fs::create_symlink("/dev/zero", file);
        }
        std::string said;
        ASSERT_TRUE(starscope::testing::runInChild("readTrace " + run.string(), kSeconds, [&] {
            const auto trace = starscope::tracer::readTrace(run);
            return trace ? std::string("read") : trace.error().describe();
        }, said));
        EXPECT_EQ(said, file.string() + ": " + c.refusal);
        const auto stats = starscope("stats '" + run.string() + "'", m_dir.path());
        EXPECT_EQ(stats.status, 1) << c.name;
        EXPECT_NE(stats.err.find(file.string() + ": " + c.refusal), std::string::npos) << stats.err;
    }
    if (socketFd >= 0) {
        ::close(socketFd);
    }
}

TEST_F(IncompleteRun, CompareRefusesARunMissingRanks) {
    const auto partial = withoutRanks("partial", {1, 2});
    const auto refused = starscope("compare '" + whole().string() + "' '" + partial.string() + "'", m_dir.path());
    EXPECT_EQ(refused.status, 1) << refused.out;
    EXPECT_NE(refused.err.find(partial.string() + ": run.json says the run had 3 ranks, the folder holds the trace "
                                                  "of 1 (rank 0): ranks 1, 2 missing (no prof file); every figure "
                                                  "covers the ranks read only: a run missing ranks is not compared "
                                                  "with whole runs"),
              std::string::npos)
        << refused.err;
    EXPECT_TRUE(refused.out.empty()) << refused.out;

    // Inside a sweep folder it is left out, with the reason, and the whole run compared.
    const auto sweep = m_dir / "sweep";
    fs::create_directories(sweep);
    fs::copy(whole(), sweep / "a-whole", fs::copy_options::recursive);
    withoutRanks("sweep/b-partial", {2});
    const auto skipped = starscope("compare --json '" + sweep.string() + "'", m_dir.path());
    ASSERT_EQ(skipped.status, 0) << skipped.err;
    EXPECT_NE(skipped.err.find("skipping " + (sweep / "b-partial").string() + ": run.json says the run had 3 ranks"),
              std::string::npos)
        << skipped.err;
    const auto json = nlohmann::json::parse(skipped.out);
    ASSERT_EQ(json["strategies"].size(), 1U);
    EXPECT_EQ(json["strategies"][0]["runs"], nlohmann::json::array({(sweep / "a-whole").string()}));
}

// A copy of a run (byte for byte) is that run again, not a second repetition: it counts once,
// with a warning. Two runs of one strategy still count as two.
TEST_F(IncompleteRun, CompareCountsACopyOfARunOnce) {
    const auto copy = m_dir / "copy";
    fs::copy(single(), copy, fs::copy_options::recursive);
    const auto compared = starscope("compare --json '" + single().string() + "' '" + copy.string() + "'", m_dir.path());
    ASSERT_EQ(compared.status, 0) << compared.err;
    EXPECT_NE(compared.err.find(copy.string() + ": a copy of " + single().string()
                                + " (the same prof files and run.json, byte for byte), counted once"),
              std::string::npos)
        << compared.err;
    auto json = nlohmann::json::parse(compared.out);
    ASSERT_EQ(json["strategies"].size(), 1U);
    EXPECT_EQ(json["strategies"][0]["runs"].size(), 1U);
    EXPECT_EQ(json["strategies"][0]["metrics"]["makespan_ns"]["n"], 1);

    // Another run of the same strategy is a second repetition.
    const auto two = starscope("compare --json '" + single().string() + "' '" + other().string() + "'", m_dir.path());
    ASSERT_EQ(two.status, 0) << two.err;
    EXPECT_EQ(two.err.find("a copy of"), std::string::npos) << two.err;
    json = nlohmann::json::parse(two.out);
    EXPECT_EQ(json["strategies"][0]["runs"].size(), 2U);
}

} // namespace
