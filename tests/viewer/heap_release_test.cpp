// The free pages a load leaves in a thread's malloc arena go back to the system: resident size
// measured around releaseFreeHeap after a worker thread frees most of what it allocated, the
// way the reader does.
#include "viewer/core/document/heap_release.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

std::size_t residentBytes() {
    std::FILE* statm = std::fopen("/proc/self/statm", "r");
    if (statm == nullptr) {
        return 0;
    }
    unsigned long size = 0;
    unsigned long resident = 0;
    const int read = std::fscanf(statm, "%lu %lu", &size, &resident);
    std::fclose(statm);
    return read == 2 ? resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

} // namespace

TEST(HeapRelease, FreedBlocksOfAWorkerThreadLeaveTheResidentSet) {
#if !defined(__GLIBC__)
    GTEST_SKIP() << "releaseFreeHeap is a no-op without glibc";
#endif
    constexpr std::size_t kBlock = 4096;            // below malloc's mmap threshold: heap blocks
    constexpr std::size_t kBlocks = 64 * 256;       // 64 MiB
    std::unique_ptr<char[]> kept;
    std::thread worker([&] {
        std::vector<std::unique_ptr<char[]>> blocks;
        blocks.reserve(kBlocks);
        for (std::size_t i = 0; i < kBlocks; ++i) {
            blocks.push_back(std::make_unique<char[]>(kBlock));
            std::memset(blocks.back().get(), 1, kBlock);
        }
        // The last block stays, as a model outlives the reader's tables: it pins the top of the
        // heap, so free() alone cannot shrink it.
        kept = std::move(blocks.back());
    });
    worker.join();
    const std::size_t before = residentBytes();
    ASSERT_GT(before, 0u) << "no /proc/self/statm";
    EXPECT_TRUE(starscope::viewer::releaseFreeHeap());
    const std::size_t after = residentBytes();
    EXPECT_LT(after + kBlocks * kBlock / 2, before)
        << "resident " << before / 1024 << " KiB before, " << after / 1024 << " KiB after";
    EXPECT_EQ(kept[kBlock - 1], 1);
}
