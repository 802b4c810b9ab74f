// The calling thread's id for StarPU's FxT probes, asked of the kernel once per thread.
//
// Every FxT event StarPU records passes the calling thread's id, and StarPU's _starpu_gettid()
// asks the kernel for it each time: a gettid system call per event (src/common/fxt.c of 1.3.10
// and 1.4.12). A task of the CNN records about 45 events, so tracing spent most of its cost in
// system calls: on a one-epoch run with record's default event set (StarPU 1.4.12), train time
// +12 % over --no-trace with StarPU's function, +4 % with this one (bench/workloads/
// tracing_cost.sh has the table). StarPU exports _starpu_gettid and calls it through the PLT, so
// a definition that comes first answers instead: the recorder executable's (starscope-recorder,
// which runs `starscope record`) for the CNN it trains, the preloaded library's (fxt_preload)
// for a program record runs.
//
// The value is StarPU's own: each thread's first call asks StarPU's function, found next in the
// lookup order, and keeps its answer only when it is the kernel's thread id. A SimGrid StarPU
// returns the simulated actor instead, and actors may share a thread, so it is asked every time
// as before. In a forked child the thread that forked has a new id: the cache forgets it.
#include <dlfcn.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

using StarpuGettid = long (*)();

thread_local long t_threadId = 0;            // 0: not known yet
thread_local bool t_askStarpuEveryTime = false; // StarPU's ids are not the kernel's (SimGrid)

StarpuGettid starpusOwnGettid() {
    static const auto own = reinterpret_cast<StarpuGettid>(::dlsym(RTLD_NEXT, "_starpu_gettid"));
    return own;
}

long kernelThreadId() { return ::syscall(SYS_gettid); }

__attribute__((constructor)) void forgetThreadIdInForkedChildren() {
    ::pthread_atfork(nullptr, nullptr, [] { t_threadId = 0; });
}

} // namespace

extern "C" __attribute__((visibility("default"))) long _starpu_gettid() {
    if (t_threadId != 0) {
        return t_threadId;
    }
    const StarpuGettid own = starpusOwnGettid();
    if (t_askStarpuEveryTime) {
        return own();
    }
    const long kernels = kernelThreadId();
    if (own == nullptr) {
        return kernels;
    }
    const long starpus = own();
    if (starpus == kernels) {
        t_threadId = kernels;
    } else {
        t_askStarpuEveryTime = true;
    }
    return starpus;
}
