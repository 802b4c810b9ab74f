// `starscope record -- PROGRAM` into a file system that fills up during the run: a small tmpfs,
// mounted by the test (as root) in a mount namespace of its own, so that it goes away with the
// test process however that ends, and unmounted by the test itself when it ends normally.

#include "tests/support/test_support.hpp"
#include "tests/workloads/program_support.hpp"
#include "tests/workloads/run_folder.hpp"
#include "tracer/readers/read_trace.hpp"
#include "workloads/record/folder_lock.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <sched.h>
#include <string>
#include <sys/mount.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
namespace tracer = starscope::tracer;
using starscope::testing::TempDir;
using starscope::workloads::testing::example;
using starscope::workloads::testing::readJson;
using starscope::workloads::testing::record;

// A tmpfs of `size` at dir, unmounted on destruction. The test process first moves into a mount
// namespace of its own (private propagation): should it die before the destructor runs, the
// mount dies with it, and the machine's mounts never see it.
class SmallDisk {
public:
    SmallDisk(const fs::path& dir, const std::string& size) : m_dir(dir) {
        fs::create_directories(dir);
        if (::unshare(CLONE_NEWNS) != 0
            || ::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
            m_error = std::string("a mount namespace of its own: ") + std::strerror(errno);
            return;
        }
        const std::string options = "size=" + size;
        if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str()) != 0) {
            m_error = "mount -t tmpfs -o " + options + ": " + std::strerror(errno);
            return;
        }
        m_mounted = true;
    }
    ~SmallDisk() {
        if (m_mounted) {
            ::umount2(m_dir.c_str(), MNT_DETACH);
        }
    }
    SmallDisk(const SmallDisk&) = delete;
    SmallDisk& operator=(const SmallDisk&) = delete;

    bool mounted() const { return m_mounted; }
    const std::string& error() const { return m_error; }

private:
    fs::path m_dir;
    bool m_mounted = false;
    std::string m_error;
};

#define REQUIRE_SMALL_DISK(disk)                                                                   \
    do {                                                                                           \
        if (!(disk).mounted()) {                                                                   \
            if (::geteuid() == 0) {                                                                \
                FAIL() << (disk).error();                                                          \
            }                                                                                      \
            GTEST_SKIP() << "mounting a small tmpfs needs root: " << (disk).error();               \
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
    SmallDisk disk(dir / "disk", "1m");
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
    const auto files = tracer::findProfFiles(run);
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
