// Where `record -- PROGRAM` takes the library it preloads into the program from: beside the
// recorder executable that runs it, in the build tree as in an installation, never from a path
// compiled in. An installed recorder used to look at the build tree's path first: once that
// tree is gone, whoever can write there would run code in every program recorded.

#include "tests/support/test_support.hpp"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace {

namespace fs = std::filesystem;
using starscope::testing::readFile;
using starscope::testing::runCommand;
using starscope::testing::TempDir;

constexpr const char* kPreloadName = "libstarscope_fxt_preload.so";
// Every child of these tests is bounded: a recording that hangs fails the test, not the run.
const std::string kDeadline = "timeout -k 5 120 ";

// The LD_PRELOAD that `starscope record -- sh` gives its program, as the program saw it ("" when
// none). The program writes no trace, so record fails after it; what it saw is what counts.
std::string preloadSeenThrough(const fs::path& starscope, const TempDir& dir,
                               const std::string& run) {
    const auto seen = dir / (run + ".preload");
    const auto log = dir / (run + ".log");
    runCommand(kDeadline + "env -u LD_PRELOAD -u LD_LIBRARY_PATH '" + starscope.string()
               + "' record --out '" + (dir / run).string()
               + "' -- sh -c 'printf %s \"$LD_PRELOAD\" > \"$0\"' '" + seen.string() + "' > '"
               + log.string() + "' 2>&1");
    EXPECT_TRUE(fs::exists(seen)) << readFile(log);
    return fs::exists(seen) ? readFile(seen) : std::string();
}

} // namespace

TEST(InstalledPreload, TheRecorderPreloadsOnlyFromBesideItself) {
    const fs::path build = STARSCOPE_BINARY_DIR;
    const auto builtPreload = build / "lib/starscope" / kPreloadName;
    ASSERT_TRUE(fs::is_regular_file(builtPreload)) << "the build tree puts it beside its recorder";
    TempDir dir;
    EXPECT_EQ(preloadSeenThrough(STARSCOPE_BINARY, dir, "built"), builtPreload.string());

    // The install rules of the folders that make the recorder (the front end, the recorder, its
    // libraries and the preloaded one), into a prefix of the test's own.
    const auto prefix = dir / "prefix";
    for (const char* folder : {"runtime", "workloads", "cli"}) {
        const auto log = dir / (std::string(folder) + "-install.log");
        ASSERT_EQ(runCommand(kDeadline + "'" + STARSCOPE_CMAKE_COMMAND + "' --install '"
                             + (build / folder).string() + "' --prefix '" + prefix.string()
                             + "' > '" + log.string() + "' 2>&1"),
                  0)
            << readFile(log);
    }
    const auto installed = prefix / "bin/starscope";
    const auto installedPreload = prefix / "lib/starscope" / kPreloadName;
    ASSERT_TRUE(fs::is_regular_file(installedPreload));
    EXPECT_EQ(preloadSeenThrough(installed, dir, "installed"), installedPreload.string());

    // Without its own, the installed recorder preloads nothing, though a library of that name
    // lies in the build tree (as one planted where a removed tree was would).
    fs::remove(installedPreload);
    ASSERT_TRUE(fs::is_regular_file(builtPreload));
    EXPECT_EQ(preloadSeenThrough(installed, dir, "without"), "");
}
