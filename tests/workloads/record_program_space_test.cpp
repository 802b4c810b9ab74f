// `starscope record -- PROGRAM` into a file system that fills up during the run: a small tmpfs,
// mounted by the test (as root) in a mount namespace of its own, so that it goes away with the
// test process however that ends, and unmounted by the test itself when it ends normally
// (tests/support/small_file_system.hpp).

#include "tests/support/small_file_system.hpp"
#include "tests/support/test_support.hpp"
#include "tests/workloads/program_support.hpp"
#include "tests/workloads/run_folder.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/run_folder/run_folder.hpp"
#include "workloads/record/folder_lock.hpp"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
namespace tracer = starscope::tracer;
using starscope::testing::SmallFileSystem;
using starscope::testing::TempDir;
using starscope::workloads::testing::example;
using starscope::workloads::testing::readJson;
using starscope::workloads::testing::record;

// Skips without the right to mount (fails as root, which CI is).
#define REQUIRE_SMALL_DISK(disk)                                                                   \
    do {                                                                                           \
        if (!(disk).mounted()) {                                                                   \
            if (::geteuid() == 0) {                                                                \
                FAIL() << (disk).why();                                                            \
            }                                                                                      \
            GTEST_SKIP() << "mounting a small tmpfs needs root: " << (disk).why();                 \
        }                                                                                          \
    } while (false)

// A trace bigger than the disk: record warns before the run, the folder it made and the cut
// trace in it stay, run.json says the trace is cut and the file system full (the room kept for
// it is given back first), the summary says it, and record exits non-zero.
TEST(RecordProgramSpace, AFullDiskKeepsTheCutTraceAndSaysItIsCut) {
    const auto program = example("starpu_example_sgemm");
    REQUIRE_EXAMPLE(program);
    TempDir dir;
    // 1 MiB of disk for a 2 MiB buffer and about 2 MiB of trace (768 tasks; 978,918 bytes were
    // written of it here).
    const SmallFileSystem disk(dir / "disk", 1024 * 1024);
    REQUIRE_SMALL_DISK(disk);
    const auto run = dir / "disk" / "run";
    const auto recorded = record(dir, "--buffer-mb 2 --out '" + run.string() + "' -- '"
                                          + program.string() + "' -size 512 -nblocks 16 -iter 3");
    EXPECT_EQ(recorded.status, 1) << recorded.output;
    EXPECT_NE(recorded.output.find("starscope record: warning: 0 MiB free in " + run.string()
                                   + "; the trace may need about 2 MiB"),
              std::string::npos)
        << recorded.output;
    ASSERT_TRUE(fs::is_directory(run)) << recorded.output;
    const auto files = tracer::run::findProfFiles(run);
    ASSERT_EQ(files.size(), 1U) << recorded.output;
    const auto json = readJson(run / "run.json");
    ASSERT_FALSE(json.is_discarded()) << recorded.output;
    EXPECT_EQ(json["status"], "failed");
    const auto error = json["error"].get<std::string>();
    EXPECT_NE(error.find("(the file system of " + run.string() + " is full)"), std::string::npos)
        << error;
    EXPECT_NE(recorded.output.find("  trace cut     "), std::string::npos) << recorded.output;
    EXPECT_FALSE(fs::exists(run / starscope::workloads::kRunJsonRoomName)) << recorded.output;
}

} // namespace
