#pragma once
// What the tests that run StarPU itself (its tools, its example programs, recordings) know of
// the StarPU the build found. A library of its own, built only with the recorder, so that a test
// which needs StarPU cannot end up in a build without it.

#include <filesystem>
#include <string>

namespace starscope::testing {

// starpu_fxt_tool of the project's StarPU-with-FxT prefix.
std::filesystem::path starpuFxtTool();
// The StarPU release the tests were built against ("1.3.10", "1.4.12") and its series ("1.3").
std::string starpuVersion();
std::string starpuSeries();
// Whether that StarPU keeps idle workers spinning: its starpu_config.h (prefix of
// starpuFxtTool(), include/starpu/<series>/) defines STARPU_NON_BLOCKING_DRIVERS, i.e. it was
// configured without --enable-blocking-drivers. Throws when the header cannot be read or does
// not mention the setting at all.
bool starpuIdleWorkersSpinPerConfigHeader();

} // namespace starscope::testing
