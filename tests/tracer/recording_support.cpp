#include "tests/tracer/recording_support.hpp"

#include "tests/support/starpu_support.hpp"
#include "tests/support/test_support.hpp"

namespace starscope::tracer::testing {

namespace fs = std::filesystem;

int recordSample(const fs::path& dir, const std::string& arguments) {
    return starscope::testing::runCommand(std::string("'") + STARSCOPE_TRACER_SAMPLE_PROGRAM + "' '"
                                          + dir.string() + "' " + arguments + " > '" + dir.string()
                                          + ".log' 2>&1");
}

int runStarpuFxtTool(const fs::path& profFile, const fs::path& dir) {
    return runStarpuFxtTool(std::vector<fs::path>{profFile}, dir);
}

int runStarpuFxtTool(const std::vector<fs::path>& profFiles, const fs::path& dir) {
    // starpu_fxt_tool 1.3.10 crashes with -o: it writes paje.trace into its working folder.
    std::string files;
    for (const auto& file : profFiles) {
        files += " '" + file.string() + "'";
    }
    return starscope::testing::runCommand("cd '" + dir.string() + "' && '"
                                          + starscope::testing::starpuFxtTool().string() + "' -i"
                                          + files + " > tool.log 2>&1");
}

} // namespace starscope::tracer::testing
