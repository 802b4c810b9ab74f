#pragma once
// One StarPU per test binary: initialised before the first test, shut down after the last.
// Defaults (kept when already set in the environment): 2 CPU workers, no FxT trace, no
// thread binding (the machine's cores are shared).

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace starscope::runtime::testing {

class StarpuEnvironment : public ::testing::Environment {
public:
    void SetUp() override;
    void TearDown() override;
};

// A dataset as read straight from IDX files, for comparing with what the loaders hand out.
struct IdxData {
    std::vector<std::uint8_t> pixels;
    std::vector<std::uint8_t> labels;
    std::size_t count = 0;
    std::size_t rows = 0;
    std::size_t cols = 0;
};

// Reads data/mnist/<prefix>-images-idx3-ubyte and <prefix>-labels-idx1-ubyte, parsing their
// 16- and 8-byte big-endian headers. Fails the calling test (ADD_FAILURE) when they are
// missing or malformed and returns count 0.
IdxData readMnist(const std::string& prefix);

} // namespace starscope::runtime::testing
