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
    } while (false)
