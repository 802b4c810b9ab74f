// starscope-viewer --render's flags that name something the trace or the file name does not
// have: a --fold of a rank the trace lacks, an output without an extension. Each is told what is
// wrong and what would do, instead of a picture drawn as if the flag were absent or an
// "unsupported picture format '.'".

#include "tests/support/test_support.hpp"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace {

using starscope::testing::readFile;
using starscope::testing::runCommand;
using starscope::testing::TempDir;

// starscope-viewer ARGS without a display (--render needs none), both streams into log; timeout
// bounds a render that hangs.
int viewer(const std::string& args, const std::filesystem::path& log) {
    return runCommand(std::string("env -u DISPLAY -u WAYLAND_DISPLAY timeout -k 5 120 '")
                      + STARSCOPE_VIEWER_BINARY + "' " + args + " > '" + log.string() + "' 2>&1");
}

std::string smallTrace() {
    return (starscope::testing::testDataDir() / "tracer" / "small" / "prof_file__0").string();
}

TEST(RenderFlags, FoldOfARankTheTraceLacksIsRefused) {
    TempDir dir;
    const auto log = dir / "log.txt";
    const auto out = dir / "out.png";
    EXPECT_EQ(viewer("--render '" + out.string() + "' --fold 'rank 5' '" + smallTrace() + "'", log),
              2)
        << readFile(log);
    EXPECT_NE(readFile(log).find(
                  "--fold: rank 5 is not in the trace, which is one process without ranks"),
              std::string::npos)
        << readFile(log);
    EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(RenderFlags, AnOutputWithoutExtensionIsToldSo) {
    TempDir dir;
    const auto log = dir / "log.txt";
    const auto out = dir / "picture";
    EXPECT_EQ(viewer("--render '" + out.string() + "' '" + smallTrace() + "'", log), 1)
        << readFile(log);
    EXPECT_NE(
        readFile(log).find(out.string()
                           + " has no extension to tell the picture format: name it .png, .jpg, "
                             ".pdf or .svg"),
        std::string::npos)
        << readFile(log);
    EXPECT_EQ(readFile(log).find("'.'"), std::string::npos) << readFile(log);
}

} // namespace
