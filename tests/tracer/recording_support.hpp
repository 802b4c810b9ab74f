#pragma once
// Fresh traces for the tracer tests: the sample program recorded by the StarPU the build found,
// and starpu_fxt_tool's conversion of prof files. Built only with the recorder (it alone finds
// StarPU), so that tests needing them stay out of a build without StarPU.

#include <filesystem>
#include <string>
#include <vector>

namespace starscope::tracer::testing {

// Runs the sample program into dir (extra arguments appended); returns its exit status.
int recordSample(const std::filesystem::path& dir, const std::string& arguments);
// Runs starpu_fxt_tool -i on the prof file(s) (several: one per rank of a StarPU-MPI run),
// writing dir/paje.trace; returns its exit status.
int runStarpuFxtTool(const std::filesystem::path& profFile, const std::filesystem::path& dir);
int runStarpuFxtTool(const std::vector<std::filesystem::path>& profFiles,
                     const std::filesystem::path& dir);

} // namespace starscope::tracer::testing
