// Standard output that cannot be written (a full disk; /dev/full fails every write with
// ENOSPC): every command that prints or exports to it exits non-zero and says so, naming
// standard output and the reason, instead of reporting success over a lost output. Each runs as
// a user runs it, in a child process with its output redirected.

#include "tests/support/test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using starscope::testing::readFile;
using starscope::testing::TempDir;

struct Run {
    int status = -1;
    std::string err;
};

Run starscope(const std::string& arguments, const std::string& output, const TempDir& dir) {
    const auto err = dir / "err.txt";
    Run run;
    run.status = starscope::testing::runCommand("'" + std::string(STARSCOPE_EXECUTABLE) + "' " + arguments + " > "
                                                + output + " 2> '" + err.string() + "' < /dev/null");
    run.err = readFile(err);
    return run;
}

TEST(StandardOutput, EveryCommandFailsWhenItsOutputCannotBeWritten) {
    TempDir dir;
    const std::string run = "'" + (starscope::testing::testDataDir() / "tracer/small").string() + "'";
    const std::vector<std::pair<std::string, std::string>> commands = {
        {"stats", "stats " + run},
        {"stats", "stats --json " + run},
        {"barriers", "barriers " + run},
        {"barriers", "barriers --json " + run},
        {"barriers", "barriers --csv " + run},
        {"export", "export --format chrome -o - " + run},
        {"export", "export --format paje " + run},
        {"export", "export --format csv --table tasks -o - " + run},
        {"convert", "convert -o - " + run},
        {"compare", "compare " + run},
    };
    for (const auto& [command, arguments] : commands) {
        // The command itself succeeds: its output reaches a regular file.
        const auto file = dir / "out";
        const auto ok = starscope(arguments, "'" + file.string() + "'", dir);
        EXPECT_EQ(ok.status, 0) << arguments << ": " << ok.err;
        EXPECT_GT(fs::file_size(file), 0U) << arguments;
        const auto full = starscope(arguments, "/dev/full", dir);
        EXPECT_EQ(full.status, 1) << arguments;
        EXPECT_NE(full.err.find("starscope " + command + ": standard output: write error: No space left on device"),
                  std::string::npos)
            << arguments << " said: " << full.err;
    }
}

// --help and --version print through the same standard output.
TEST(StandardOutput, HelpAndVersionFailToo) {
    TempDir dir;
    const auto version = starscope("--version", "/dev/full", dir);
    EXPECT_EQ(version.status, 1);
    EXPECT_NE(version.err.find("starscope: standard output: write error: No space left on device"), std::string::npos)
        << version.err;
    const auto help = starscope("stats --help", "/dev/full", dir);
    EXPECT_EQ(help.status, 1);
    EXPECT_NE(help.err.find("standard output: write error"), std::string::npos) << help.err;
}

// `convert -o -` writes the native file to standard output, nothing else: it reads back as the
// file `convert -o FILE` writes.
TEST(StandardOutput, ConvertToStandardOutputWritesTheNativeFile) {
    TempDir dir;
    const std::string run = "'" + (starscope::testing::testDataDir() / "tracer/small").string() + "'";
    const auto piped = dir / "piped.sstrace";
    ASSERT_EQ(starscope("convert -o - " + run, "'" + piped.string() + "'", dir).status, 0);
    const auto named = dir / "named.sstrace";
    const auto written = starscope("convert -o '" + named.string() + "' " + run, "/dev/null", dir);
    ASSERT_EQ(written.status, 0) << written.err;
    EXPECT_EQ(readFile(piped), readFile(named));
    EXPECT_FALSE(fs::exists(fs::current_path() / "-"));
}

} // namespace
