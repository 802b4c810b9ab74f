// main() of every test executable: the environment every test expects, then GoogleTest.
// Set here rather than as CTest properties so a test binary run by hand behaves the same.

#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char** argv) {
    // Defaults only: a caller's own values win.
    ::setenv("QT_QPA_PLATFORM", "offscreen", 0);
    ::setenv("STARPU_SILENT", "1", 0);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
