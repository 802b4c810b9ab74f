#include "viewer/core/document/heap_release.hpp"

#include <cstdlib>   // any C library header: it says whether this is glibc (__GLIBC__)

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace starscope::viewer {

bool releaseFreeHeap() {
#if defined(__GLIBC__)
    // Every arena, not only the calling thread's: the reader ran on a pool thread.
    malloc_trim(0);
    return true;
#else
    return false;
#endif
}

} // namespace starscope::viewer
