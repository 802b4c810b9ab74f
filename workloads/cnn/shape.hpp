#pragma once
// Sizes of the network: conv (filters x kernel x kernel, valid) -> ReLU -> max-pool 2x2 ->
// dense -> softmax over the classes. Derived from the image size so Fashion-MNIST or any
// other IDX dataset of at least kernel+1 pixels a side fits.

#include <cstddef>

namespace starscope::workloads::cnn {

struct NetShape {
    int rows = 28;
    int cols = 28;
    int filters = 8;
    int kernel = 5;
    int classes = 10;

    int convRows() const { return rows - kernel + 1; }
    int convCols() const { return cols - kernel + 1; }
    int poolRows() const { return convRows() / 2; }
    int poolCols() const { return convCols() / 2; }

    // Floats per image at each stage.
    std::size_t imageSize() const { return static_cast<std::size_t>(rows * cols); }
    std::size_t convSize() const {
        return static_cast<std::size_t>(filters * convRows() * convCols());
    }
    std::size_t pooledSize() const {
        return static_cast<std::size_t>(filters * poolRows() * poolCols());
    }

    // Parameters, weights first then biases, in one buffer per layer.
    std::size_t convWeightCount() const {
        return static_cast<std::size_t>(filters * kernel * kernel);
    }
    std::size_t convParamCount() const {
        return convWeightCount() + static_cast<std::size_t>(filters);
    }
    std::size_t denseWeightCount() const {
        return static_cast<std::size_t>(classes) * pooledSize();
    }
    std::size_t denseParamCount() const {
        return denseWeightCount() + static_cast<std::size_t>(classes);
    }

    bool operator==(const NetShape&) const = default;
};

} // namespace starscope::workloads::cnn
