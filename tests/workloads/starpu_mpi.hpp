#pragma once
// For the tests that record on several StarPU-MPI ranks: whether this build has StarPU-MPI
// (CMake defines STARSCOPE_HAVE_STARPU_MPI when it finds starpumpi) and the check that skips
// such a test without it, but fails it in CI, whose StarPU is built with it.

#include <cstdlib>
#include <gtest/gtest.h>
#include <string>

#ifdef STARSCOPE_HAVE_STARPU_MPI
inline constexpr bool kHaveStarpuMpi = true;
#else
inline constexpr bool kHaveStarpuMpi = false;
#endif

// Open MPI's own allocations (its MCA components, MPI_Op tables) are never freed and come from
// plugins it unloads, so LeakSanitizer cannot suppress them by name: the ranks of an ASan build
// (which inherit this process's environment through mpirun) run without leak detection. Our code
// is leak-checked by every single-process test. A user's own ASAN_OPTIONS is kept.
inline void ignoreOpenMpiLeaksUnderAsan() { ::setenv("ASAN_OPTIONS", "detect_leaks=0", 0); }

#define REQUIRE_STARPU_MPI()                                                                       \
    do {                                                                                           \
        if (!kHaveStarpuMpi) {                                                                     \
            const char* ci = std::getenv("CI");                                                    \
            if (ci != nullptr && std::string(ci) == "true") {                                      \
                FAIL() << "StarPU was built without MPI: scripts/build_starpu.sh builds it "       \
                          "--enable-mpi";                                                          \
            }                                                                                      \
            GTEST_SKIP() << "StarPU was built without MPI (no starpumpi pkg-config module in "     \
                            "its prefix): recording on several ranks is not available";            \
        }                                                                                          \
        ignoreOpenMpiLeaksUnderAsan();                                                             \
    } while (false)
