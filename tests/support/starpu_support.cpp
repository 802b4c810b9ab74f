#include "tests/support/starpu_support.hpp"

#include "tests/support/test_support.hpp"

#include <stdexcept>

namespace starscope::testing {

namespace fs = std::filesystem;

fs::path starpuFxtTool() {
    return STARSCOPE_STARPU_FXT_TOOL;
}

std::string starpuVersion() {
    return STARSCOPE_STARPU_VERSION;
}

std::string starpuSeries() {
    const std::string version = starpuVersion();
    return version.substr(0, version.find('.', version.find('.') + 1));
}

bool starpuIdleWorkersSpinPerConfigHeader() {
    const fs::path header = starpuFxtTool().parent_path().parent_path() / "include" / "starpu"
                            / starpuSeries() / "starpu_config.h";
    const std::string text = readFile(header);
    if (text.find("STARPU_NON_BLOCKING_DRIVERS") == std::string::npos) {
        throw std::runtime_error(header.string() + " does not mention STARPU_NON_BLOCKING_DRIVERS");
    }
    return text.find("#define STARPU_NON_BLOCKING_DRIVERS 1") != std::string::npos;
}

} // namespace starscope::testing
