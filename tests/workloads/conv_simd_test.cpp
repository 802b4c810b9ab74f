// The vectorised float convolutions against the plain reference loops, on random inputs, for
// every instruction-set build this CPU can run and for shapes that exercise their edges (filter
// groups with a remainder, rows with columns no whole vector covers, 3x3 and 7x7 kernels).
// Tolerances are bounds on float rounding: the reference computed in double, error at most a
// small multiple of float epsilon times the sum of the absolute products.

#include "workloads/cnn/kernels.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

using namespace starscope::workloads::cnn;

namespace {

std::vector<SimdLevel> availableLevels() {
    std::vector<SimdLevel> levels;
    for (const auto level : {SimdLevel::Portable, SimdLevel::Avx2Fma}) {
        if (simdLevelAvailable(level)) {
            levels.push_back(level);
        }
    }
    return levels;
}

struct Case {
    NetShape shape;
    int n;
};

NetShape shapeOf(int rows, int cols, int filters, int kernel) {
    NetShape shape;
    shape.rows = rows;
    shape.cols = cols;
    shape.filters = filters;
    shape.kernel = kernel;
    return shape;
}

std::vector<Case> cases() {
    return {
        {NetShape{}, 32}, // the network's own shape, a full chunk
        // 15 output columns: one 12-wide tile and a 3-column tail at 4 lanes; 6 filters: one
        // group of 4 and 2 single filters.
        {shapeOf(13, 19, 6, 5), 3},
        {shapeOf(9, 11, 3, 3), 2},
        {shapeOf(20, 40, 9, 7), 4},
    };
}

struct Inputs {
    std::vector<float> images;
    std::vector<float> params;
    std::vector<float> dconv;
};

Inputs randomInputs(const Case& c, unsigned seed) {
    std::mt19937 engine(seed);
    std::uniform_real_distribution<float> value(-1.0F, 1.0F);
    Inputs in;
    const auto n = static_cast<std::size_t>(c.n);
    in.images.resize(n * c.shape.imageSize());
    in.params.resize(c.shape.convParamCount());
    in.dconv.resize(n * c.shape.convSize());
    for (auto* v : {&in.images, &in.params, &in.dconv}) {
        for (auto& x : *v) {
            x = value(engine);
        }
    }
    // Some exact zeros in dconv, as the ReLU mask leaves them.
    for (std::size_t i = 0; i < in.dconv.size(); i += 3) {
        in.dconv[i] = 0.0F;
    }
    return in;
}

std::vector<double> toDouble(const std::vector<float>& v) {
    return {v.begin(), v.end()};
}

std::string describe(const Case& c, SimdLevel level) {
    return std::string(simdLevelName(level)) + " " + std::to_string(c.shape.rows) + "x"
           + std::to_string(c.shape.cols) + " k" + std::to_string(c.shape.kernel) + " f"
           + std::to_string(c.shape.filters) + " n" + std::to_string(c.n);
}

constexpr double kFloatEps = 1.1920929e-7;

} // namespace

TEST(ConvSimd, ForwardMatchesTheReference) {
    for (const auto& c : cases()) {
        const auto in = randomInputs(c, 11);
        const auto n = static_cast<std::size_t>(c.n);
        std::vector<double> exact(n * c.shape.convSize());
        convForwardReference(c.shape, toDouble(in.images).data(), c.n,
                             toDouble(in.params).data(), exact.data());
        // Bound per output: the bias plus k*k products, each at most 1 in magnitude.
        const double bound = 8.0 * kFloatEps * (1.0 + c.shape.kernel * c.shape.kernel);
        for (const auto level : availableLevels()) {
            std::vector<float> out(exact.size(), -7.0F);
            ASSERT_TRUE(convForwardSimd(level, c.shape, in.images.data(), c.n, in.params.data(),
                                        out.data()));
            for (std::size_t i = 0; i < out.size(); ++i) {
                ASSERT_NEAR(out[i], exact[i], bound) << describe(c, level) << " output " << i;
            }
        }
    }
}

TEST(ConvSimd, ForwardWithoutFusedMultiplyAddIsTheReferenceBitForBit) {
    // The portable build adds in the reference's order; on x86-64 its baseline has no fused
    // multiply-add either, so every output is the reference's float.
#if defined(__x86_64__)
    for (const auto& c : cases()) {
        const auto in = randomInputs(c, 12);
        std::vector<float> reference(static_cast<std::size_t>(c.n) * c.shape.convSize());
        std::vector<float> out(reference.size());
        convForwardReference(c.shape, in.images.data(), c.n, in.params.data(), reference.data());
        ASSERT_TRUE(convForwardSimd(SimdLevel::Portable, c.shape, in.images.data(), c.n,
                                    in.params.data(), out.data()));
        EXPECT_EQ(out, reference) << describe(c, SimdLevel::Portable);
    }
#else
    GTEST_SKIP() << "the portable build may fuse multiply-adds on this architecture";
#endif
}

TEST(ConvSimd, BackwardMatchesTheReference) {
    for (const auto& c : cases()) {
        const auto in = randomInputs(c, 21);
        std::vector<double> exact(c.shape.convParamCount());
        const auto images = toDouble(in.images);
        const auto dconv = toDouble(in.dconv);
        convBackwardReference(c.shape, images.data(), dconv.data(), c.n, exact.data());
        // Each weight gradient sums n * outRows * outCols products of magnitude at most 1.
        const double terms = static_cast<double>(c.n) * c.shape.convRows() * c.shape.convCols();
        const double bound = 4.0 * kFloatEps * terms;
        for (const auto level : availableLevels()) {
            std::vector<float> grad(exact.size(), -7.0F);
            ASSERT_TRUE(convBackwardSimd(level, c.shape, in.images.data(), in.dconv.data(), c.n,
                                         grad.data()));
            for (std::size_t i = 0; i < grad.size(); ++i) {
                ASSERT_NEAR(grad[i], exact[i], bound) << describe(c, level) << " parameter " << i;
            }
        }
    }
}

TEST(ConvSimd, BackwardLeavesUncoveredKernelSizesToTheReference) {
    Case c{NetShape{}, 2};
    c.shape.kernel = 4;
    const auto in = randomInputs(c, 31);
    for (const auto level : availableLevels()) {
        std::vector<float> grad(c.shape.convParamCount(), -7.0F);
        EXPECT_FALSE(convBackwardSimd(level, c.shape, in.images.data(), in.dconv.data(), c.n,
                                      grad.data()));
        EXPECT_EQ(grad, std::vector<float>(grad.size(), -7.0F)) << "written though not covered";
    }
    // convBackward then runs the reference.
    std::vector<float> dispatched(c.shape.convParamCount());
    std::vector<float> reference(dispatched.size());
    convBackward(c.shape, in.images.data(), in.dconv.data(), c.n, dispatched.data());
    convBackwardReference(c.shape, in.images.data(), in.dconv.data(), c.n, reference.data());
    EXPECT_EQ(dispatched, reference);
}

TEST(ConvSimd, TheLayersUseTheBestAvailableBuild) {
    const Case c{NetShape{}, 5};
    const auto in = randomInputs(c, 41);
    const SimdLevel level = activeSimdLevel();
    EXPECT_TRUE(simdLevelAvailable(level));
    if (simdLevelAvailable(SimdLevel::Avx2Fma)) {
        EXPECT_EQ(level, SimdLevel::Avx2Fma);
    }
    std::vector<float> viaLayer(static_cast<std::size_t>(c.n) * c.shape.convSize());
    std::vector<float> direct(viaLayer.size());
    convForward(c.shape, in.images.data(), c.n, in.params.data(), viaLayer.data());
    ASSERT_TRUE(
        convForwardSimd(level, c.shape, in.images.data(), c.n, in.params.data(), direct.data()));
    EXPECT_EQ(viaLayer, direct);
    std::vector<float> gradLayer(c.shape.convParamCount());
    std::vector<float> gradDirect(gradLayer.size());
    convBackward(c.shape, in.images.data(), in.dconv.data(), c.n, gradLayer.data());
    ASSERT_TRUE(convBackwardSimd(level, c.shape, in.images.data(), in.dconv.data(), c.n,
                                 gradDirect.data()));
    EXPECT_EQ(gradLayer, gradDirect);
}
