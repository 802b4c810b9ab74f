#pragma once
// Helpers shared by every test: scratch folders, golden-file comparison, project paths.

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
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
// starpu_fxt_tool of the project's StarPU-with-FxT prefix.
std::filesystem::path starpuFxtTool();
std::string readFile(const std::filesystem::path& path);

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

} // namespace starscope::testing
