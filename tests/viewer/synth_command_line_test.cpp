// starscope-viewer-synth, which benchmarks and screenshots run to make traces of any size: its
// --help answers (it was taken for an option missing its value), and a mistake still exits 2.

#include "tests/support/test_support.hpp"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace {

using starscope::testing::readFile;
using starscope::testing::runCommand;
using starscope::testing::TempDir;

int synth(const std::string& args, const std::filesystem::path& log) {
    return runCommand(std::string("timeout -k 5 60 '") + STARSCOPE_VIEWER_SYNTH + "' " + args
                      + " > '" + log.string() + "' 2>&1");
}

TEST(SynthCommandLine, HelpPrintsTheUsage) {
    TempDir dir;
    const auto log = dir / "log.txt";
    for (const std::string flag : {"--help", "-h"}) {
        EXPECT_EQ(synth(flag, log), 0) << flag << ": " << readFile(log);
        EXPECT_NE(readFile(log).find("usage: starscope-viewer-synth OUT [--workers N]"),
                  std::string::npos)
            << readFile(log);
    }
}

TEST(SynthCommandLine, MistakesExitTwoAndWriteNothing) {
    TempDir dir;
    const auto log = dir / "log.txt";
    EXPECT_EQ(synth("", log), 2) << readFile(log);
    EXPECT_NE(readFile(log).find("no output file given"), std::string::npos) << readFile(log);
    EXPECT_EQ(synth("'" + (dir / "out").string() + "' --workers", log), 2) << readFile(log);
    EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

} // namespace
