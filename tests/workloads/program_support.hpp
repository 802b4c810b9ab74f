#pragma once
// For the tests of `starscope record -- PROGRAM`: StarPU's own example programs (installed beside
// the starpu_fxt_tool of the StarPU the tests are built against) and `starscope record` run
// through the shell, as a user runs it.

#include "tests/support/starpu_support.hpp"
#include "tests/support/test_support.hpp"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace starscope::workloads::testing {

struct Outcome {
    int status = 0;
    std::string output;
};

// Two CPU workers, whatever the machine, and no GPU drivers.
inline const std::string kStarpuWorkers = "STARPU_NCPU=2 STARPU_NCUDA=0 STARPU_NOPENCL=0 ";

// How long one `record` of a test may take before `timeout` ends it (status 124): a hang fails
// the test that waits, not the whole test run.
inline constexpr int kRecordDeadlineSeconds = 240;

// `starscope record ARGS` through the shell with the StarPU variables kStarpuWorkers sets,
// its stdout and stderr together (in dir/record.log), within kRecordDeadlineSeconds.
inline Outcome record(const starscope::testing::TempDir& dir, const std::string& args) {
    const auto log = dir / "record.log";
    Outcome outcome;
    outcome.status = starscope::testing::runCommand(
        kStarpuWorkers + "timeout --kill-after=10 " + std::to_string(kRecordDeadlineSeconds) + " '"
        + STARSCOPE_BINARY + "' record " + args + " > '" + log.string() + "' 2>&1");
    outcome.output = starscope::testing::readFile(log);
    return outcome;
}

// A StarPU example installed beside starpu_fxt_tool.
inline std::filesystem::path example(const std::string& name) {
    return starscope::testing::starpuFxtTool().parent_path() / name;
}

} // namespace starscope::workloads::testing

// Skips (fails in CI) when a StarPU example is missing.
#define REQUIRE_EXAMPLE(path)                                                                      \
    do {                                                                                           \
        if (!std::filesystem::exists(path)) {                                                      \
            const char* ci = std::getenv("CI");                                                    \
            if (ci != nullptr && std::string(ci) == "true") {                                      \
                FAIL() << (path)                                                                   \
                       << " does not exist: scripts/build_starpu.sh installs StarPU's examples "   \
                          "there";                                                                 \
            }                                                                                      \
            GTEST_SKIP()                                                                           \
                << (path)                                                                          \
                << " does not exist: scripts/build_starpu.sh installs StarPU's examples there";    \
        }                                                                                          \
    } while (false)
