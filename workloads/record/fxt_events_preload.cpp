// Part of the library preloaded (LD_PRELOAD) into the program `starscope record -- PROGRAM` runs
// traced. StarPU 1.4 starts FxT with every event category whatever STARPU_FXT_EVENTS says,
// unless the program calls starpu_fxt_autostart_profiling(1) before starpu_init
// (src/common/fxt.c of 1.4.12). When STARPU_FXT_EVENTS is set (by record, or by the user), this
// constructor makes that call for it, before main; unset, StarPU's default (every category)
// stays. The symbol is looked up, not linked, so the library fits whatever StarPU the program
// loads and does nothing in a process without one (mpirun itself, a static program); a
// program's own later call still wins.
// bench/workloads/fxt_categories_1.4.12.md has the measure: StarPU's LU example wrote 543654
// bytes with STARPU_FXT_EVENTS=USER alone and 10038 with this library preloaded.
#include <cstdlib>
#include <dlfcn.h>

namespace {

using AutostartProfiling = void (*)(int);

__attribute__((constructor)) void applyFxtEvents() {
    if (std::getenv("STARPU_FXT_EVENTS") == nullptr) {
        return;
    }
    void* symbol = ::dlsym(RTLD_DEFAULT, "starpu_fxt_autostart_profiling");
    if (symbol != nullptr) {
        reinterpret_cast<AutostartProfiling>(symbol)(1);
    }
}

} // namespace
