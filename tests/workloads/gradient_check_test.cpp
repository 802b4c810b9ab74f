// Finite-difference check of the CNN's backward pass, in double precision so that rounding
// does not hide a wrong gradient: every conv parameter and a spread of dense parameters.

#include "workloads/cnn/kernels.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace starscope::workloads::cnn;

namespace {

struct Gradients {
    std::vector<double> conv;
    std::vector<double> dense;
};

struct Problem {
    NetShape shape;
    int n = 3;
    std::vector<double> images;
    std::vector<std::int32_t> labels;
    std::vector<double> conv;
    std::vector<double> dense;

    explicit Problem(int count) : n(count) {
        std::mt19937 engine(1234);
        std::uniform_real_distribution<double> pixel(0.0, 1.0);
        images.resize(static_cast<std::size_t>(n) * shape.imageSize());
        for (auto& value : images) {
            value = pixel(engine);
        }
        for (int i = 0; i < n; ++i) {
            labels.push_back(static_cast<std::int32_t>((i * 3 + 1) % shape.classes));
        }
        std::vector<float> convF(shape.convParamCount());
        std::vector<float> denseF(shape.denseParamCount());
        initParams(shape, 7, convF.data(), denseF.data());
        conv.assign(convF.begin(), convF.end());
        dense.assign(denseF.begin(), denseF.end());
        // Non-zero biases, so their gradients are exercised away from the initial point.
        std::uniform_real_distribution<double> bias(-0.1, 0.1);
        for (std::size_t i = shape.convWeightCount(); i < conv.size(); ++i) {
            conv[i] = bias(engine);
        }
        for (std::size_t i = shape.denseWeightCount(); i < dense.size(); ++i) {
            dense[i] = bias(engine);
        }
    }

    // Analytic gradient of the loss averaged over `batch` images, for images [first, first+count).
    Gradients gradients(int first, int count, int batch) const {
        const auto at = static_cast<std::size_t>(first);
        const auto size = static_cast<std::size_t>(count);
        std::vector<double> convOut(size * shape.convSize());
        std::vector<double> pooled(size * shape.pooledSize());
        std::vector<std::uint8_t> argmax(pooled.size());
        std::vector<double> dlogits(size * static_cast<std::size_t>(shape.classes));
        std::vector<double> dpooled(pooled.size());
        std::vector<double> dconv(convOut.size());
        double stats[kStatsSize];
        Gradients grads{std::vector<double>(conv.size()), std::vector<double>(dense.size())};
        const double* input = images.data() + at * shape.imageSize();
        convForward(shape, input, count, conv.data(), convOut.data());
        poolForward(shape, convOut.data(), count, pooled.data(), argmax.data());
        denseForwardLoss(shape, pooled.data(), count, dense.data(), labels.data() + at, 1.0 / batch,
                         dlogits.data(), stats);
        denseBackward(shape, pooled.data(), dlogits.data(), count, dense.data(), grads.dense.data(),
                      dpooled.data());
        poolBackward(shape, dpooled.data(), argmax.data(), convOut.data(), count, dconv.data());
        convBackward(shape, input, dconv.data(), count, grads.conv.data());
        return grads;
    }

    double loss() const {
        return chunkLoss(shape, images.data(), labels.data(), n, conv.data(), dense.data());
    }
};

// Central difference of the loss with respect to params[index].
double numericGradient(Problem& problem, std::vector<double>& params, std::size_t index) {
    constexpr double kStep = 1e-6;
    const double saved = params[index];
    params[index] = saved + kStep;
    const double up = problem.loss();
    params[index] = saved - kStep;
    const double down = problem.loss();
    params[index] = saved;
    return (up - down) / (2 * kStep);
}

::testing::AssertionResult close(double analytic, double numeric) {
    if (std::abs(analytic - numeric) <= 1e-7 + 1e-4 * std::abs(numeric)) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "analytic " << analytic << " vs numeric " << numeric;
}

} // namespace

TEST(GradientCheck, ConvParametersMatchFiniteDifferences) {
    Problem problem(3);
    const auto grads = problem.gradients(0, problem.n, problem.n);
    double largest = 0.0;
    for (std::size_t i = 0; i < problem.conv.size(); ++i) {
        const double numeric = numericGradient(problem, problem.conv, i);
        EXPECT_TRUE(close(grads.conv[i], numeric)) << "conv parameter " << i;
        largest = std::max(largest, std::abs(numeric));
    }
    // A vanishing gradient would make the comparison meaningless.
    EXPECT_GT(largest, 1e-3);
}

TEST(GradientCheck, DenseParametersMatchFiniteDifferences) {
    Problem problem(3);
    const auto grads = problem.gradients(0, problem.n, problem.n);
    const std::size_t weights = problem.shape.denseWeightCount();
    std::vector<std::size_t> indices;
    for (std::size_t i = 0; i < weights; i += 97) {
        indices.push_back(i);
    }
    for (std::size_t i = weights; i < problem.dense.size(); ++i) {
        indices.push_back(i);
    }
    int nonZero = 0;
    for (const auto i : indices) {
        const double numeric = numericGradient(problem, problem.dense, i);
        EXPECT_TRUE(close(grads.dense[i], numeric)) << "dense parameter " << i;
        nonZero += std::abs(numeric) > 1e-6 ? 1 : 0;
    }
    EXPECT_GT(nonZero, static_cast<int>(indices.size()) / 2);
}

TEST(GradientCheck, ChunkGradientsSumToTheBatchGradient) {
    Problem problem(4);
    const auto whole = problem.gradients(0, 4, 4);
    const auto first = problem.gradients(0, 1, 4);
    const auto rest = problem.gradients(1, 3, 4);
    for (std::size_t i = 0; i < whole.conv.size(); ++i) {
        EXPECT_NEAR(first.conv[i] + rest.conv[i], whole.conv[i], 1e-12) << "conv " << i;
    }
    for (std::size_t i = 0; i < whole.dense.size(); i += 13) {
        EXPECT_NEAR(first.dense[i] + rest.dense[i], whole.dense[i], 1e-12) << "dense " << i;
    }
}

TEST(GradientCheck, SgdStepLowersTheLoss) {
    Problem problem(3);
    const double before = problem.loss();
    const auto grads = problem.gradients(0, problem.n, problem.n);
    const double* convGrad[] = {grads.conv.data()};
    const double* denseGrad[] = {grads.dense.data()};
    sgdStep(problem.conv.data(), convGrad, 1, problem.conv.size(), 0.05);
    sgdStep(problem.dense.data(), denseGrad, 1, problem.dense.size(), 0.05);
    EXPECT_LT(problem.loss(), before);
}
