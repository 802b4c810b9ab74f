// What record checks in a run's trace files before it writes run.json: after a full disk each
// rank's prof file may be cut, and every one that is must be named, not the first alone.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "workloads/train_record/run_json.hpp"

#include <filesystem>
#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;
using starscope::testing::TempDir;

// Two ranks' prof files, copies of the golden single-rank trace, the given ones cut in half.
fs::path twoRankFiles(const TempDir& dir, bool cutFirst, bool cutSecond) {
    const auto source = starscope::tracer::testing::smallProfFile();
    const auto size = fs::file_size(source);
    for (const auto& [name, cut] : {std::pair{"prof_file__0", cutFirst}, std::pair{"prof_file__1", cutSecond}}) {
        fs::copy_file(source, dir / name);
        if (cut) {
            fs::resize_file(dir / name, size / 2);
        }
    }
    return dir.path();
}

TEST(CutTraceFiles, WholeFilesAreNotNamed) {
    TempDir dir;
    EXPECT_EQ(starscope::workloads::cutTraceFiles(twoRankFiles(dir, false, false), {"prof_file__0", "prof_file__1"}),
              "");
}

TEST(CutTraceFiles, EveryCutFileIsNamedWithTheByteWhereItStops) {
    TempDir dir;
    const auto folder = twoRankFiles(dir, true, true);
    const auto cut = starscope::workloads::cutTraceFiles(folder, {"prof_file__0", "prof_file__1"});
    EXPECT_NE(cut.find((folder / "prof_file__0").string() + ": byte "), std::string::npos) << cut;
    EXPECT_NE(cut.find((folder / "prof_file__1").string() + ": byte "), std::string::npos) << cut;
    EXPECT_NE(cut.find("; "), std::string::npos) << cut;
}

TEST(CutTraceFiles, OnlyTheCutRankIsNamed) {
    TempDir dir;
    const auto folder = twoRankFiles(dir, false, true);
    const auto cut = starscope::workloads::cutTraceFiles(folder, {"prof_file__0", "prof_file__1"});
    EXPECT_EQ(cut.find("prof_file__0"), std::string::npos) << cut;
    EXPECT_NE(cut.find((folder / "prof_file__1").string()), std::string::npos) << cut;
}

} // namespace
