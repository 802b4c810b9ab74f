#include "tests/runtime/starpu_environment.hpp"

#include "tests/support/test_support.hpp"

#include <starpu.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace starscope::runtime::testing {

void StarpuEnvironment::SetUp() {
    ::setenv("STARPU_NCPU", "2", 0);
    ::setenv("STARPU_FXT_TRACE", "0", 0);
    ::setenv("STARPU_WORKERS_NOBIND", "1", 0);
    ::setenv("STARPU_SILENT", "1", 0);
    ASSERT_EQ(starpu_init(nullptr), 0) << "starpu_init failed";
}

void StarpuEnvironment::TearDown() {
    starpu_shutdown();
}

namespace {

std::vector<std::uint8_t> readAll(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::size_t bigEndian32(const std::vector<std::uint8_t>& bytes, std::size_t offset) {
    return (std::size_t{bytes[offset]} << 24U) | (std::size_t{bytes[offset + 1]} << 16U)
           | (std::size_t{bytes[offset + 2]} << 8U) | std::size_t{bytes[offset + 3]};
}

} // namespace

IdxData readMnist(const std::string& prefix) {
    IdxData data;
    const auto dir = starscope::testing::sourceDir() / "data" / "mnist";
    const auto imagesPath = dir / (prefix + "-images-idx3-ubyte");
    const auto labelsPath = dir / (prefix + "-labels-idx1-ubyte");
    auto images = readAll(imagesPath);
    auto labels = readAll(labelsPath);
    if (images.size() < 16 || labels.size() < 8) {
        ADD_FAILURE() << "MNIST files missing or truncated: " << imagesPath << ", " << labelsPath
                      << " (run scripts/setup.sh)";
        return data;
    }
    if (bigEndian32(images, 0) != 0x803 || bigEndian32(labels, 0) != 0x801) {
        ADD_FAILURE() << "bad IDX magic in " << imagesPath << " or " << labelsPath;
        return data;
    }
    const std::size_t count = bigEndian32(images, 4);
    const std::size_t rows = bigEndian32(images, 8);
    const std::size_t cols = bigEndian32(images, 12);
    if (bigEndian32(labels, 4) != count || images.size() != 16 + count * rows * cols
        || labels.size() != 8 + count) {
        ADD_FAILURE() << "IDX sizes disagree with their headers in " << dir;
        return data;
    }
    data.pixels.assign(images.begin() + 16, images.end());
    data.labels.assign(labels.begin() + 8, labels.end());
    data.count = count;
    data.rows = rows;
    data.cols = cols;
    return data;
}

} // namespace starscope::runtime::testing

// Read by LeakSanitizer (asan preset) at exit; unused otherwise. StarPU 1.3.10 leaks one
// 48-byte data requester per starpu_data_unregister_submit issued on a busy handle, which
// starpu_data_partition_clean does for the children of a planned partition. StarPU is built
// without frame pointers, so the leak's stack ends inside StarPU and is matched by its
// innermost function. (The arena itself never calls starpu_data_unregister_submit.) Set here
// rather than through LSAN_OPTIONS so that running a test binary by hand behaves the same.
extern "C" const char* __lsan_default_suppressions() {
    return "leak:_starpu_attempt_to_submit_data_request\n";
}

namespace {
// Registered at static initialisation; gtest_main's RUN_ALL_TESTS runs it around the tests.
[[maybe_unused]] ::testing::Environment* const g_starpu =
    ::testing::AddGlobalTestEnvironment(new starscope::runtime::testing::StarpuEnvironment);
} // namespace
