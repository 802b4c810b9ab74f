// starscope-viewer as a user runs it: --version without a display, and the exit code of a
// usage mistake, the same 2 as every starscope tool (QCommandLineParser::process exited 1).

#include "common/version.hpp"
#include "tests/support/test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {

using starscope::testing::readFile;
using starscope::testing::runCommand;
using starscope::testing::TempDir;

// Standard output to log, standard error to log.err, or both to log.
std::string viewer(const std::string& args, const std::filesystem::path& log, bool separate = false) {
    // No display: --version and usage errors must not need one.
    return std::string("env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM '") + STARSCOPE_VIEWER_BINARY + "' "
           + args + " > '" + log.string() + "' " + (separate ? "2> '" + log.string() + ".err'" : "2>&1");
}

TEST(ViewerExecutable, VersionPrintsTheProjectVersion) {
    TempDir dir;
    const auto log = dir / "log.txt";
    ASSERT_EQ(runCommand(viewer("--version", log, true)), 0) << readFile(log.string() + ".err");
    EXPECT_EQ(readFile(log), std::string("starscope-viewer ") + starscope::kVersion + "\n");
}

TEST(ViewerExecutable, UsageMistakesExitTwo) {
    TempDir dir;
    const auto log = dir / "log.txt";
    EXPECT_EQ(runCommand(viewer("--render out.png --no-such-flag x", log)), 2) << readFile(log);
    EXPECT_NE(readFile(log).find("no-such-flag"), std::string::npos) << readFile(log);
    EXPECT_EQ(runCommand(viewer("--render out.png --size 10x10 x", log)), 2) << readFile(log);
    EXPECT_NE(readFile(log).find("--size"), std::string::npos) << readFile(log);
}

// --render draws SVG and PDF headless too, the format chosen by OUT's extension.
TEST(ViewerExecutable, RendersSvgAndPdfWithoutADisplay) {
    TempDir dir;
    const auto log = dir / "log.txt";
    const auto trace = starscope::testing::testDataDir() / "tracer" / "small" / "prof_file__0";
    const auto svg = dir / "out.svg";
    ASSERT_EQ(runCommand(viewer("--render '" + svg.string() + "' --size 640x400 '" + trace.string() + "'", log)), 0)
        << readFile(log);
    const std::string drawing = readFile(svg);
    EXPECT_EQ(drawing.rfind("<?xml", 0), 0u) << drawing.substr(0, 80);
    EXPECT_NE(drawing.find("<svg"), std::string::npos);
    EXPECT_NE(drawing.find("</svg>"), std::string::npos);
    const auto pdf = dir / "out.pdf";
    ASSERT_EQ(runCommand(viewer("--render '" + pdf.string() + "' '" + trace.string() + "'", log)), 0) << readFile(log);
    EXPECT_EQ(readFile(pdf).rfind("%PDF-", 0), 0u);
    EXPECT_EQ(runCommand(viewer("--render '" + (dir / "out.bmp").string() + "' '" + trace.string() + "'", log)), 1);
    EXPECT_NE(readFile(log).find("unsupported picture format '.bmp'"), std::string::npos) << readFile(log);
}

// --compare --render takes the single view's formats and --range: SVG and PDF, a window of the
// aligned axis; a --range outside every run, or without --render, is a usage mistake (exit 2).
TEST(ViewerExecutable, CompareRendersSvgPdfAndARange) {
    TempDir dir;
    const auto log = dir / "log.txt";
    const auto small = starscope::testing::testDataDir() / "tracer" / "small";
    const auto small14 = starscope::testing::testDataDir() / "tracer" / "small14";
    const std::string runs = " '" + small.string() + "' '" + small14.string() + "'";
    const auto svg = dir / "cmp.svg";
    ASSERT_EQ(runCommand(viewer("--compare --render '" + svg.string() + "' --size 1200x800 --range 5ms:20ms" + runs, log)), 0)
        << readFile(log);
    EXPECT_NE(readFile(svg).find("<svg"), std::string::npos);
    const auto pdf = dir / "cmp.pdf";
    ASSERT_EQ(runCommand(viewer("--compare --render '" + pdf.string() + "'" + runs, log)), 0) << readFile(log);
    EXPECT_EQ(readFile(pdf).rfind("%PDF-", 0), 0u);
    EXPECT_EQ(runCommand(viewer("--compare --render '" + pdf.string() + "' --range 100s:200s" + runs, log)), 2);
    EXPECT_NE(readFile(log).find("outside the runs"), std::string::npos) << readFile(log);
    // Without --render the window would open: a platform for it, though the mistake stops it first.
    EXPECT_EQ(runCommand(std::string("QT_QPA_PLATFORM=offscreen '") + STARSCOPE_VIEWER_BINARY + "' --compare --range 1ms:2ms"
                         + runs + " > '" + log.string() + "' 2>&1"),
              2);
    EXPECT_NE(readFile(log).find("--range apply to --render only"), std::string::npos) << readFile(log);
}

// --render reads its trace on another thread while Qt starts: the picture is the one drawn from
// the trace read after Qt started (--threshold and all), and a trace that cannot be read is
// still the reader's error, naming the file, exit 1.
TEST(ViewerExecutable, RendersAPngFromATraceReadWhileQtStarts) {
    TempDir dir;
    const auto log = dir / "log.txt";
    const auto trace = starscope::testing::testDataDir() / "tracer" / "small" / "prof_file__0";
    const auto png = dir / "out.png";
    ASSERT_EQ(runCommand(viewer("--render '" + png.string() + "' --threshold 50us --size 640x400 '" + trace.string() + "'",
                                log)),
              0)
        << readFile(log);
    EXPECT_EQ(readFile(png).rfind("\x89PNG\r\n\x1a\n", 0), 0u);
    const auto missing = dir / "no-such-trace";
    EXPECT_EQ(runCommand(viewer("--render '" + png.string() + "' '" + missing.string() + "'", log)), 1) << readFile(log);
    EXPECT_NE(readFile(log).find(missing.string()), std::string::npos) << readFile(log);
}

// Several prof files are one job, merged into one picture (a rank each), not refused.
TEST(ViewerExecutable, RendersSeveralProfFilesAsOneJob) {
    TempDir dir;
    const auto log = dir / "log.txt";
    const auto data = starscope::testing::testDataDir();
    const auto png = dir / "job.png";
    ASSERT_EQ(runCommand(viewer("--render '" + png.string() + "' --size 640x400 '"
                                    + (data / "tracer" / "small" / "prof_file__0").string() + "' '"
                                    + (data / "viewer" / "single_naive" / "prof_file__0").string() + "'",
                                log)),
              0)
        << readFile(log);
    EXPECT_EQ(readFile(png).rfind("\x89PNG\r\n\x1a\n", 0), 0u);
}

// A headless render prints nothing but its own errors: no warning of Qt's offscreen platform
// (the comparison view shown off screen made it print "This plugin does not support
// propagateSizeHints()" twice), given a private runtime folder as a session has one.
TEST(ViewerExecutable, HeadlessRendersPrintNoQtWarnings) {
    TempDir dir;
    const auto runtimeDir = dir / "runtime";
    std::filesystem::create_directory(runtimeDir);
    std::filesystem::permissions(runtimeDir, std::filesystem::perms::owner_all);
    const auto log = dir / "log.txt";
    const auto small = starscope::testing::testDataDir() / "tracer" / "small";
    const auto small14 = starscope::testing::testDataDir() / "tracer" / "small14";
    const std::string env = "XDG_RUNTIME_DIR='" + runtimeDir.string() + "' ";
    ASSERT_EQ(runCommand(env + viewer("--render '" + (dir / "one.png").string() + "' '" + small.string() + "'", log,
                                      true)),
              0)
        << readFile(log.string() + ".err");
    EXPECT_EQ(readFile(log.string() + ".err"), "");
    ASSERT_EQ(runCommand(env + viewer("--compare --render '" + (dir / "two.png").string() + "' '" + small.string()
                                          + "' '" + small14.string() + "'",
                                      log, true)),
              0)
        << readFile(log.string() + ".err");
    EXPECT_EQ(readFile(log.string() + ".err"), "");
}

// --compare refuses runs `starscope compare` refuses (exit 1, its message), and draws them
// with --allow-mixed; --allow-mixed without --compare is a usage mistake.
TEST(ViewerExecutable, CompareRefusesUnlikeRunsUnlessAllowMixed) {
    TempDir dir;
    const auto log = dir / "log.txt";
    std::string runs;
    for (const int batches : {30, 400}) {
        const auto folder = dir / ("batches-" + std::to_string(batches));
        std::filesystem::create_directories(folder);
        std::filesystem::copy_file(starscope::testing::testDataDir() / "tracer/small/prof_file__0",
                                   folder / "prof_file__0");
        std::ofstream(folder / "run.json") << R"({"format":"starscope-run","strategy":{"arenas":"single",)"
                                           << R"("ring_slots":2,"loader":"naive"},"batches_per_epoch":)" << batches
                                           << "}";
        runs += " '" + folder.string() + "'";
    }
    const auto picture = dir / "cmp.png";
    EXPECT_EQ(runCommand(viewer("--compare --render '" + picture.string() + "'" + runs, log)), 1) << readFile(log);
    EXPECT_NE(readFile(log).find("runs of different workloads cannot be compared: " + (dir / "batches-400").string()
                                 + " has batches 400 (30 in " + (dir / "batches-30").string() + ")"),
              std::string::npos)
        << readFile(log);
    EXPECT_FALSE(std::filesystem::exists(picture));
    EXPECT_EQ(runCommand(viewer("--compare --allow-mixed --render '" + picture.string() + "'" + runs, log)), 0)
        << readFile(log);
    EXPECT_TRUE(std::filesystem::exists(picture));
    EXPECT_EQ(runCommand(viewer("--allow-mixed --render '" + picture.string() + "'" + runs, log)), 2) << readFile(log);
}

} // namespace
