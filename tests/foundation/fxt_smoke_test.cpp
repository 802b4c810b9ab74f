// Proves the build really records FxT traces: StarPU runs tasks with tracing on, libfxt reads
// the resulting prof_file and the prefix's starpu_fxt_tool turns it into Paje with the tasks'
// Executing states.

#include "tests/support/starpu_support.hpp"
#include "tests/support/test_support.hpp"

#include "tracer/readers/read_trace.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <gtest/gtest.h>
#include <starpu.h>

extern "C" {
#include <fxt/fxt.h>
}

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using starscope::testing::TempDir;

namespace {

fs::path firstProfFile(const fs::path& dir) {
    const auto files = starscope::tracer::run::findProfFiles(dir);
    return files.empty() ? fs::path{} : files.front();
}

constexpr int kTasks = 300;

void spin(void* buffers[], void* /*arg*/) {
    auto* value = reinterpret_cast<long*>(STARPU_VARIABLE_GET_PTR(buffers[0]));
    volatile long sum = 0;
    for (int i = 0; i < 20000; ++i) {
        sum = sum + i;
    }
    *value += 1;
}

// Records kTasks tasks into dir with FxT on.
void recordTrace(const fs::path& dir) {
    ::setenv("STARPU_FXT_PREFIX", dir.c_str(), 1);
    ::setenv("STARPU_FXT_TRACE", "1", 1);
    ::setenv("STARPU_NCPU", "2", 1);
    ASSERT_EQ(starpu_init(nullptr), 0);

    starpu_codelet codelet;
    starpu_codelet_init(&codelet);
    codelet.cpu_funcs[0] = spin;
    codelet.nbuffers = 1;
    codelet.modes[0] = STARPU_RW;
    codelet.name = "smoke_spin";

    long counters[4] = {};
    starpu_data_handle_t handles[4];
    for (int i = 0; i < 4; ++i) {
        starpu_variable_data_register(&handles[i], STARPU_MAIN_RAM,
                                      reinterpret_cast<uintptr_t>(&counters[i]), sizeof(long));
    }
    for (int t = 0; t < kTasks; ++t) {
        ASSERT_EQ(starpu_task_insert(&codelet, STARPU_RW, handles[t % 4], 0), 0);
    }
    starpu_task_wait_for_all();
    for (auto& handle : handles) {
        starpu_data_unregister(handle);
    }
    starpu_shutdown();
    EXPECT_EQ(counters[0] + counters[1] + counters[2] + counters[3], kTasks);
}

} // namespace

TEST(FxtSmoke, StarpuRecordsATraceThatLibfxtAndStarpuFxtToolRead) {
    TempDir dir;
    recordTrace(dir.path());
    const auto prof = firstProfFile(dir.path());
    ASSERT_FALSE(prof.empty()) << "no prof_file_* in " << dir.path();

    fxt_t fxt = fxt_open(prof.c_str());
    ASSERT_NE(fxt, nullptr) << "libfxt cannot open " << prof;
    fxt_blockev_t block = fxt_blockev_enter(fxt);
    fxt_ev event{};
    long events = 0;
    while (fxt_next_ev(block, FXT_EV_TYPE_64, &event) == FXT_EV_OK) {
        ++events;
    }
    fxt_blockev_leave(block);
    fxt_close(fxt);
    EXPECT_GT(events, 2 * kTasks) << "too few FxT events: is tracing really on?";

    // starpu_fxt_tool 1.3.10 frees argv on '-o' and crashes: let it write paje.trace into
    // its working folder instead.
    const auto paje = dir / "paje.trace";
    const std::string command = "cd '" + dir.path().string() + "' && '"
                                + starscope::testing::starpuFxtTool().string() + "' -i '"
                                + prof.string() + "' > tool.log 2>&1";
    ASSERT_EQ(starscope::testing::runCommand(command), 0)
        << starscope::testing::readFile(dir / "tool.log");
    const auto text = starscope::testing::readFile(paje);
    // starpu_fxt_tool shows a running task as a worker state (type WS) whose value is the
    // codelet's name: one such state-setting line per executed task (event definitions and
    // entity values, the lines starting with '%' or '6', are not counted).
    std::size_t executing = 0;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (!line.starts_with('%') && !line.starts_with("6\t")
            && line.find("\tWS\tsmoke_spin\t") != std::string::npos) {
            ++executing;
        }
    }
    EXPECT_EQ(executing, static_cast<std::size_t>(kTasks));
    EXPECT_NE(text.find("WS       Executing"), std::string::npos);
}
