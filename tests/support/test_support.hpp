#pragma once
// Helpers shared by every test: scratch folders, golden-file comparison, project paths.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace starscope::testing {

// A fresh folder under the system temp dir, removed with everything in it on destruction.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

private:
    std::filesystem::path m_path;
};

std::filesystem::path sourceDir();
std::filesystem::path testDataDir();
std::string readFile(const std::filesystem::path& path);

// The file pages this process has mapped, in KiB (/proc/self/status' RssFile): what a reader
// holds of the files it maps.
std::size_t residentFileKib();
// The most of residentFileKib() above its value at construction, sampled at each progress
// report of a read (progress()): how tests see that a reader lets go of the file behind it.
struct ResidentFileSampler {
    std::size_t before = residentFileKib();
    std::size_t most = before;
    int samples = 0;

    std::function<bool(double)> progress() {
        return [this](double) {
            most = std::max(most, residentFileKib());
            ++samples;
            return true;
        };
    }
    std::size_t heldKib() const { return most - before; }
};

// Writes head to path and extends the file with a hole to apparentSize bytes: an "enormous"
// input (many GiB) that costs no disk space. Fails the calling test when the file system
// cannot make it.
::testing::AssertionResult writeSparseFile(const std::filesystem::path& path, const std::string& head,
                                           std::uintmax_t apparentSize);

// Compares actual with the golden file tests/data/<relativePath>. On mismatch writes
// <golden>.actual beside it and returns a unified diff as the failure message. With
// STARSCOPE_UPDATE_GOLDEN=1 in the environment, rewrites the golden file instead.
::testing::AssertionResult matchesGolden(const std::string& actual,
                                         const std::filesystem::path& relativePath);

// Runs a shell command; returns its exit status (-1 when it could not run).
int runCommand(const std::string& command);

// One of StarPU's examples recorded on a simulated GPU machine by scripts/record_gpu_traces.sh
// into dir/<machine>/<example>/ (prof_file__0 and starpu_fxt_tool's paje.trace). Without the
// SimGrid build of StarPU the recording is skipped, except in CI (CI=true), whose GPU leg has
// it: there the missing build is a failure. The GPU tests (label gpu) start so:
//   const auto recorded = recordGpuExample(dir, "mirage", "sgemm");
//   if (recorded.skipped) GTEST_SKIP() << recorded.log;
//   ASSERT_TRUE(recorded.ok) << recorded.log;
struct GpuRecording {
    bool ok = false;
    bool skipped = false;
    std::string log;                 // the script's output
    std::filesystem::path run;       // dir/<machine>/<example> when ok
};
GpuRecording recordGpuExample(const std::filesystem::path& dir, const std::string& machine, const std::string& example);

// Runs fn in a forked child that alarm() kills after `seconds`, so that a call which blocks
// (an open() of a FIFO) fails its test instead of hanging the suite. Sets out to what fn
// returned; fails naming `what` when the child hung or crashed.
::testing::AssertionResult runInChild(const std::string& what, unsigned seconds,
                                      const std::function<std::string()>& fn, std::string& out);

} // namespace starscope::testing
