// Bad input to `starscope record`: a clear message naming the flag or file, a non-zero exit
// before StarPU starts, and nothing written.

#include "common/version.hpp"
#include "tests/support/test_support.hpp"
#include "tests/workloads/idx_writer.hpp"

#include <filesystem>
#include <gtest/gtest.h>

using starscope::testing::TempDir;
using namespace starscope::workloads::testing;
namespace fs = std::filesystem;

namespace {

struct Outcome {
    int status = 0;
    std::string output;
};

class RecordErrors : public ::testing::Test {
protected:
    Outcome run(const std::string& args) {
        const auto log = m_dir / "log.txt";
        Outcome outcome;
        outcome.status =
            starscope::testing::runCommand(std::string("'") + STARSCOPE_BINARY + "' record " + args
                                           + " > '" + log.string() + "' 2>&1");
        outcome.output = starscope::testing::readFile(log);
        fs::remove(log);
        return outcome;
    }
    // A valid tiny dataset, so that only the flag under test is wrong.
    std::string tiny() {
        const auto dir = m_dir / "tiny";
        if (!fs::exists(dir)) {
            writeTinyDataset(dir, 40);
        }
        return " --dataset '" + dir.string() + "'";
    }
    std::string out() const { return " --out '" + (m_dir / "run").string() + "'"; }
    bool nothingWritten() const { return !fs::exists(m_dir / "run"); }

    TempDir m_dir;
};

#define EXPECT_REJECTED(outcome, text)                                                             \
    do {                                                                                           \
        EXPECT_NE((outcome).status, 0) << (outcome).output;                                        \
        EXPECT_NE((outcome).output.find(text), std::string::npos) << (outcome).output;             \
    } while (false)

} // namespace

TEST_F(RecordErrors, MissingDatasetSaysHowToGetIt) {
    const auto outcome = run(out() + " --dataset '" + (m_dir / "absent").string() + "'");
    EXPECT_REJECTED(outcome, "scripts/setup.sh");
    EXPECT_NE(outcome.output.find((m_dir / "absent").string()), std::string::npos);
    EXPECT_TRUE(nothingWritten());
}

TEST_F(RecordErrors, CorruptIdxNamesTheFile) {
    tiny();
    const auto images = m_dir / "tiny" / "train-images-idx3-ubyte";
    fs::resize_file(images, fs::file_size(images) - 10);
    const auto outcome = run(tiny() + out());
    EXPECT_REJECTED(outcome, "truncated");
    EXPECT_NE(outcome.output.find(images.string()), std::string::npos) << outcome.output;
    EXPECT_TRUE(nothingWritten());
}

TEST_F(RecordErrors, ExistingOutputNeedsForce) {
    fs::create_directories(m_dir / "run");
    writeBytes(m_dir / "run" / "notes.txt", "keep me");
    const auto outcome = run(tiny() + out() + " --batch-size 8");
    EXPECT_REJECTED(outcome, "--force");
    EXPECT_EQ(starscope::testing::readFile(m_dir / "run" / "notes.txt"), "keep me");
    EXPECT_EQ(std::distance(fs::directory_iterator(m_dir / "run"), fs::directory_iterator{}), 1);
}

TEST_F(RecordErrors, UnwritableOutput) {
    writeBytes(m_dir / "file", "x");
    const auto underFile =
        run(tiny() + " --batch-size 8 --out '" + (m_dir / "file" / "run").string() + "'");
    EXPECT_REJECTED(underFile, "is not a folder");
    // /proc refuses new folders even to root, whom permission bits do not stop.
    const auto inProc = run(tiny() + " --batch-size 8 --out /proc/starscope-run");
    EXPECT_NE(inProc.status, 0) << inProc.output;
    EXPECT_NE(inProc.output.find("/proc/starscope-run"), std::string::npos) << inProc.output;
    EXPECT_FALSE(fs::exists("/proc/starscope-run"));
}

TEST_F(RecordErrors, UnknownStrategyNamesListTheChoices) {
    const auto arenas = run(tiny() + out() + " --batch-size 8 --arenas triple");
    EXPECT_REJECTED(arenas, "--arenas");
    EXPECT_NE(arenas.output.find("single, double"), std::string::npos) << arenas.output;
    const auto loader = run(tiny() + out() + " --batch-size 8 --loader lazy");
    EXPECT_REJECTED(loader, "lazy");
    EXPECT_NE(loader.output.find("double-prefetch"), std::string::npos) << loader.output;
    const auto sched = run(tiny() + out() + " --batch-size 8 --sched fastest");
    EXPECT_REJECTED(sched, "unknown StarPU scheduler 'fastest'");
    EXPECT_NE(sched.output.find("dmda"), std::string::npos) << sched.output;
    EXPECT_TRUE(nothingWritten());
}

TEST_F(RecordErrors, BatchLargerThanTheDataset) {
    const auto outcome = run(tiny() + out() + " --batch-size 64");
    EXPECT_REJECTED(outcome, "larger than the 40 training images");
    EXPECT_NE(outcome.output.find("--batch-size"), std::string::npos);
    EXPECT_TRUE(nothingWritten());
}

TEST_F(RecordErrors, ZeroEpochsAndOtherBadNumbers) {
    EXPECT_REJECTED(run(tiny() + out() + " --batch-size 8 --epochs 0"), "--epochs");
    EXPECT_REJECTED(run(tiny() + out() + " --batch-size 8 --chunk 16"), "--chunk");
    EXPECT_REJECTED(run(tiny() + out() + " --batch-size 8 --batches 6"), "make only 5 batches");
    EXPECT_TRUE(nothingWritten());
}

TEST_F(RecordErrors, ForceReplacesAPreviousRun) {
    const std::string args = tiny() + out() + " --batch-size 8 --batches 2 --test-images 20";
    ASSERT_EQ(run(args).status, 0);
    const auto again = run(args);
    EXPECT_NE(again.status, 0);
    EXPECT_NE(again.output.find("--force"), std::string::npos) << again.output;
    const auto forced = run(args + " --force");
    EXPECT_EQ(forced.status, 0) << forced.output;
    EXPECT_TRUE(fs::exists(m_dir / "run" / "run.json"));
}

// Usage mistakes exit 2 like every other usage error of the tools (CLI11 alone answered 105,
// 106 or 109 by kind), with a range a person reads; `--epochs -1` used to wrap around to
// 18446744073709551615 epochs and start recording.
TEST_F(RecordErrors, UsageErrorsExitTwoWithARangeMessage) {
    const struct {
        std::string args;
        std::string message;
    } cases[] = {
        {" --epochs -1", "--epochs: must be between 1 and 100000, got -1"},
        {" --epochs 1.5", "--epochs: must be a whole number between 1 and 100000, got 1.5"},
        {" --seed 18446744073709551616", "--seed: must be between 0 and 18446744073709551615"},
        {" --learning-rate 0", "--learning-rate: must be greater than 0 and at most 1000, got 0"},
        {" --learning-rate nan", "--learning-rate: 'nan' is not a number"},
        {" --workers 5000", "--workers: must be between 0 and 1024, got 5000"},
        {" --no-such-flag", "--no-such-flag"},
    };
    for (const auto& c : cases) {
        const auto outcome = run(tiny() + out() + c.args);
        EXPECT_EQ(outcome.status, 2) << c.args << "\n" << outcome.output;
        EXPECT_NE(outcome.output.find(c.message), std::string::npos) << c.args << "\n" << outcome.output;
        EXPECT_LT(outcome.output.size(), 400U) << outcome.output;
    }
    EXPECT_TRUE(nothingWritten());
    const auto log = m_dir / "sweep.txt";
    EXPECT_EQ(starscope::testing::runCommand(std::string("'") + STARSCOPE_BINARY + "' sweep --out '"
                                             + (m_dir / "sweep").string() + "' --repeat 0 > '" + log.string()
                                             + "' 2>&1"),
              2);
    EXPECT_NE(starscope::testing::readFile(log).find("--repeat: must be between 1 and 100, got 0"), std::string::npos)
        << starscope::testing::readFile(log);
}

// --version works without a subcommand and prints the version of CMake's project(VERSION).
TEST(StarscopeVersion, PrintsTheProjectVersion) {
    TempDir dir;
    const auto log = dir / "version.txt";
    ASSERT_EQ(starscope::testing::runCommand(std::string("'") + STARSCOPE_BINARY + "' --version > '" + log.string()
                                             + "' 2>&1"),
              0)
        << starscope::testing::readFile(log);
    EXPECT_EQ(starscope::testing::readFile(log), std::string("starscope ") + starscope::kVersion + "\n");
}

// record and sweep run in the recorder executable, found beside the front end as an
// installation lays them out (../lib/starscope): a front end copied without it says which file
// it could not run, exit 1, and records nothing.
TEST(RecorderLaunch, AFrontEndWithoutItsRecorderNamesTheMissingFile) {
    TempDir dir;
    fs::create_directories(dir / "bin");
    fs::copy_file(STARSCOPE_BINARY, dir / "bin" / "starscope");
    const auto log = dir / "record.txt";
    for (const std::string command : {"record", "sweep"}) {
        EXPECT_EQ(starscope::testing::runCommand("'" + (dir / "bin" / "starscope").string() + "' " + command
                                                 + " --out '" + (dir / "run").string() + "' > '" + log.string()
                                                 + "' 2>&1"),
                  1);
        const auto output = starscope::testing::readFile(log);
        EXPECT_NE(output.find("starscope " + command + ": cannot run the recorder "
                              + (dir / "lib" / "starscope" / "starscope-recorder").string()),
                  std::string::npos)
            << output;
        EXPECT_FALSE(fs::exists(dir / "run"));
    }
}
