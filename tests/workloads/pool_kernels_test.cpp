// The branch-free pooling kernels against the plain definition, bit for bit: 2x2 max-pool where
// the first of equal values wins, and its gradient routed to the winner only where ReLU let the
// value through (+0 everywhere else, including rows and columns no window covers).

#include "workloads/cnn/kernels.hpp"

#include <cstring>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace starscope::workloads::cnn;

namespace {

template <typename Real>
void poolForwardByDefinition(const NetShape& s, const std::vector<Real>& conv, int n,
                             std::vector<Real>& pooled, std::vector<std::uint8_t>& argmax) {
    const int cr = s.convRows(), cc = s.convCols(), pr = s.poolRows(), pc = s.poolCols();
    for (int plane = 0; plane < n * s.filters; ++plane) {
        for (int y = 0; y < pr; ++y) {
            for (int x = 0; x < pc; ++x) {
                int best = 0;
                Real value = 0;
                for (int q = 0; q < 4; ++q) {
                    const Real v = conv[static_cast<std::size_t>((plane * cr + 2 * y + q / 2) * cc + 2 * x + q % 2)];
                    if (q == 0 || v > value) {
                        best = q;
                        value = v;
                    }
                }
                const auto at = static_cast<std::size_t>((plane * pr + y) * pc + x);
                pooled[at] = value;
                argmax[at] = static_cast<std::uint8_t>(best);
            }
        }
    }
}

template <typename Real>
void poolBackwardByDefinition(const NetShape& s, const std::vector<Real>& dpooled,
                              const std::vector<std::uint8_t>& argmax,
                              const std::vector<Real>& conv, int n, std::vector<Real>& dconv) {
    const int cr = s.convRows(), cc = s.convCols(), pr = s.poolRows(), pc = s.poolCols();
    std::fill(dconv.begin(), dconv.end(), Real(0));
    for (int plane = 0; plane < n * s.filters; ++plane) {
        for (int y = 0; y < pr; ++y) {
            for (int x = 0; x < pc; ++x) {
                const auto window = static_cast<std::size_t>((plane * pr + y) * pc + x);
                const int q = argmax[window];
                const auto at = static_cast<std::size_t>((plane * cr + 2 * y + q / 2) * cc + 2 * x + q % 2);
                if (conv[at] > Real(0)) {
                    dconv[at] = dpooled[window];
                }
            }
        }
    }
}

template <typename Real>
bool sameBits(const std::vector<Real>& a, const std::vector<Real>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Real)) == 0;
}

template <typename Real>
void checkShape(int rows, int cols) {
    NetShape s;
    s.rows = rows;
    s.cols = cols;
    const int n = 3;
    std::mt19937 engine(7);
    // Few distinct values (ties in most windows), half of them <= 0 (ReLU masks), and -0.
    std::uniform_int_distribution<int> level(-3, 3);
    std::vector<Real> conv(s.convSize() * n);
    for (auto& v : conv) {
        const int l = level(engine);
        v = l == 0 && engine() % 2 == 0 ? Real(-0.0) : static_cast<Real>(l) * Real(0.5);
    }
    std::vector<Real> pooled(s.pooledSize() * n), expectedPooled(pooled.size());
    std::vector<std::uint8_t> argmax(pooled.size()), expectedArgmax(pooled.size());
    poolForward(s, conv.data(), n, pooled.data(), argmax.data());
    poolForwardByDefinition(s, conv, n, expectedPooled, expectedArgmax);
    EXPECT_TRUE(sameBits(pooled, expectedPooled)) << rows << "x" << cols;
    EXPECT_EQ(argmax, expectedArgmax) << rows << "x" << cols;

    std::vector<Real> dpooled(pooled.size());
    std::uniform_real_distribution<double> gradient(-1.0, 1.0);
    for (auto& v : dpooled) {
        v = static_cast<Real>(gradient(engine));
    }
    std::vector<Real> dconv(conv.size(), Real(9)), expectedDconv(conv.size());
    poolBackward(s, dpooled.data(), expectedArgmax.data(), conv.data(), n, dconv.data());
    poolBackwardByDefinition(s, dpooled, expectedArgmax, conv, n, expectedDconv);
    EXPECT_TRUE(sameBits(dconv, expectedDconv)) << rows << "x" << cols;
}

} // namespace

TEST(PoolKernels, MatchTheDefinitionBitForBitWithTiesMasksAndOddSizes) {
    checkShape<float>(28, 28);   // MNIST: 24x24 convolution, every value in a window
    checkShape<float>(29, 30);   // 25x26: a last row no window covers
    checkShape<double>(28, 28);
    checkShape<double>(30, 29);
}
