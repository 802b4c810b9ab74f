#include "workloads/cnn/kernels.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

namespace starscope::workloads::cnn {

namespace {

using std::size_t;

size_t sz(int value) {
    assert(value >= 0);
    return static_cast<size_t>(value);
}

// Uniform in [-limit, limit] from the raw 32-bit engine output, so the values depend only on
// the seed and not on the standard library's distribution implementation.
void fillUniform(std::mt19937& engine, float* out, size_t count, float limit) {
    for (size_t i = 0; i < count; ++i) {
        const double unit = static_cast<double>(engine()) / 4294967295.0;
        out[i] = static_cast<float>((2.0 * unit - 1.0) * static_cast<double>(limit));
    }
}

// value when keep, else +0: a bit mask, not a branch, so the compiler cannot make it one.
template <typename Real>
Real passIf(bool keep, Real value) {
    using Bits = std::conditional_t<sizeof(Real) == 4, std::uint32_t, std::uint64_t>;
    const Bits mask = Bits{0} - static_cast<Bits>(keep);
    return std::bit_cast<Real>(static_cast<Bits>(std::bit_cast<Bits>(value) & mask));
}

} // namespace

void initParams(const NetShape& shape, std::uint64_t seed, float* convParams, float* denseParams) {
    std::mt19937 engine(static_cast<std::mt19937::result_type>(seed));
    const size_t fanConv = sz(shape.kernel * shape.kernel);
    // Uniform with the variance of He initialisation: limit = sqrt(6 / fan_in).
    fillUniform(engine, convParams, shape.convWeightCount(),
                static_cast<float>(std::sqrt(6.0 / static_cast<double>(fanConv))));
    std::fill_n(convParams + shape.convWeightCount(), sz(shape.filters), 0.0F);
    fillUniform(engine, denseParams, shape.denseWeightCount(),
                static_cast<float>(std::sqrt(6.0 / static_cast<double>(shape.pooledSize()))));
    std::fill_n(denseParams + shape.denseWeightCount(), sz(shape.classes), 0.0F);
}

template <typename Real>
void convForwardReference(const NetShape& shape, const Real* images, int n,
                          const Real* convParams, Real* convOut) {
    const size_t cols = sz(shape.cols), k = sz(shape.kernel);
    const size_t outRows = sz(shape.convRows()), outCols = sz(shape.convCols());
    const size_t filters = sz(shape.filters);
    const Real* bias = convParams + shape.convWeightCount();
    for (size_t i = 0; i < sz(n); ++i) {
        const Real* image = images + i * shape.imageSize();
        Real* out = convOut + i * shape.convSize();
        for (size_t f = 0; f < filters; ++f) {
            Real* plane = out + f * outRows * outCols;
            std::fill_n(plane, outRows * outCols, bias[f]);
            const Real* w = convParams + f * k * k;
            // Accumulating whole output rows keeps the innermost loop contiguous (vectorised).
            for (size_t ky = 0; ky < k; ++ky) {
                for (size_t kx = 0; kx < k; ++kx) {
                    const Real weight = w[ky * k + kx];
                    for (size_t y = 0; y < outRows; ++y) {
                        const Real* in = image + (y + ky) * cols + kx;
                        Real* o = plane + y * outCols;
                        for (size_t x = 0; x < outCols; ++x) {
                            o[x] += weight * in[x];
                        }
                    }
                }
            }
            for (size_t p = 0; p < outRows * outCols; ++p) {
                plane[p] = std::max(plane[p], Real(0));
            }
        }
    }
}

template <typename Real>
void poolForward(const NetShape& shape, const Real* convOut, int n, Real* pooled,
                 std::uint8_t* argmax) {
    const size_t convCols = sz(shape.convCols()), convRows = sz(shape.convRows());
    const size_t poolRows = sz(shape.poolRows()), poolCols = sz(shape.poolCols());
    const size_t planes = sz(n) * sz(shape.filters);
    for (size_t plane = 0; plane < planes; ++plane) {
        const Real* in = convOut + plane * convRows * convCols;
        Real* out = pooled + plane * poolRows * poolCols;
        std::uint8_t* arg = argmax + plane * poolRows * poolCols;
        // Branch-free: which of the four values wins is data-dependent, so a branch per
        // comparison was mispredicted about half the time (the kernel took longer than the
        // convolution). Strictly greater keeps the first of equal values, as before.
        for (size_t y = 0; y < poolRows; ++y) {
            const Real* top = in + 2 * y * convCols;
            const Real* bottom = top + convCols;
            for (size_t x = 0; x < poolCols; ++x) {
                Real best = top[2 * x];
                std::uint8_t winner = 0;
                const Real candidates[3] = {top[2 * x + 1], bottom[2 * x], bottom[2 * x + 1]};
                for (std::uint8_t q = 0; q < 3; ++q) {
                    const bool greater = candidates[q] > best;
                    best = greater ? candidates[q] : best;
                    winner = greater ? static_cast<std::uint8_t>(q + 1) : winner;
                }
                out[y * poolCols + x] = best;
                arg[y * poolCols + x] = winner;
            }
        }
    }
}

namespace {

// The dense layer's inner loops. For float they also exist for x86-64-v3 (AVX2, FMA), chosen
// at run time as the convolutions' build is (activeSimdLevel): 8 lanes and fused multiply-adds
// roughly halve the dense tasks' time. (Not target_clones: an ifunc resolver runs before
// ThreadSanitizer's runtime is up and crashes sanitised binaries at start.)
// Always inlined, so that each caller compiles them for its own target.
template <typename Real>
[[gnu::always_inline]] inline Real dotLoop(const Real* a, const Real* b, size_t n) {
    Real sum = Real(0);
    for (size_t j = 0; j < n; ++j) {
        sum += a[j] * b[j];
    }
    return sum;
}

// wGrad += g * input and dIn += g * w, over n values.
template <typename Real>
[[gnu::always_inline]] inline void accumulateLoop(Real* __restrict wGrad, Real* __restrict dIn,
                                                  const Real* input, const Real* w, Real g,
                                                  size_t n) {
    for (size_t j = 0; j < n; ++j) {
        wGrad[j] += g * input[j];
        dIn[j] += g * w[j];
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define STARSCOPE_HAVE_AVX2_DENSE 1
[[gnu::target("arch=x86-64-v3")]] float dotAvx2(const float* a, const float* b, size_t n) {
    return dotLoop(a, b, n);
}
[[gnu::target("arch=x86-64-v3")]] void accumulateAvx2(float* __restrict wGrad,
                                                      float* __restrict dIn, const float* input,
                                                      const float* w, float g, size_t n) {
    accumulateLoop(wGrad, dIn, input, w, g, n);
}
#endif

template <typename Real>
Real dotProduct(const Real* a, const Real* b, size_t n) {
#ifdef STARSCOPE_HAVE_AVX2_DENSE
    if constexpr (std::is_same_v<Real, float>) {
        if (activeSimdLevel() == SimdLevel::Avx2Fma) {
            return dotAvx2(a, b, n);
        }
    }
#endif
    return dotLoop(a, b, n);
}

template <typename Real>
void accumulateGradients(Real* wGrad, Real* dIn, const Real* input, const Real* w, Real g,
                         size_t n) {
#ifdef STARSCOPE_HAVE_AVX2_DENSE
    if constexpr (std::is_same_v<Real, float>) {
        if (activeSimdLevel() == SimdLevel::Avx2Fma) {
            accumulateAvx2(wGrad, dIn, input, w, g, n);
            return;
        }
    }
#endif
    accumulateLoop(wGrad, dIn, input, w, g, n);
}

// logits of one image; returns the index of the largest.
template <typename Real>
size_t denseLogits(const NetShape& shape, const Real* input, const Real* denseParams,
                   double* logits) {
    const size_t classes = sz(shape.classes), inSize = shape.pooledSize();
    const Real* bias = denseParams + shape.denseWeightCount();
    size_t best = 0;
    for (size_t c = 0; c < classes; ++c) {
        const Real sum = dotProduct(denseParams + c * inSize, input, inSize);
        logits[c] = static_cast<double>(sum + bias[c]);
        if (logits[c] > logits[best]) {
            best = c;
        }
    }
    return best;
}

// Softmax in place (max-shifted); returns -log p[label].
double softmaxLoss(double* logits, size_t classes, size_t label) {
    const double top = *std::max_element(logits, logits + classes);
    double total = 0.0;
    for (size_t c = 0; c < classes; ++c) {
        logits[c] = std::exp(logits[c] - top);
        total += logits[c];
    }
    for (size_t c = 0; c < classes; ++c) {
        logits[c] /= total;
    }
    return -std::log(std::max(logits[label], 1e-30));
}

constexpr size_t kMaxClasses = 256;
// Kernels run inside StarPU codelets, where nothing may throw: no heap allocation there.
constexpr size_t kMaxConvCols = 1024;

} // namespace

template <typename Real>
void denseForwardLoss(const NetShape& shape, const Real* pooled, int n, const Real* denseParams,
                      const std::int32_t* labels, Real gradScale, Real* dlogits, Real* stats) {
    const size_t classes = sz(shape.classes);
    assert(classes <= kMaxClasses);
    double logits[kMaxClasses];
    double lossSum = 0.0;
    int correct = 0;
    for (size_t i = 0; i < sz(n); ++i) {
        const size_t predicted =
            denseLogits(shape, pooled + i * shape.pooledSize(), denseParams, logits);
        const auto label = static_cast<size_t>(labels[i]);
        correct += predicted == label ? 1 : 0;
        lossSum += softmaxLoss(logits, classes, label);
        if (dlogits != nullptr) {
            for (size_t c = 0; c < classes; ++c) {
                const double target = c == label ? 1.0 : 0.0;
                dlogits[i * classes + c] = static_cast<Real>((logits[c] - target) * gradScale);
            }
        }
    }
    stats[0] = static_cast<Real>(lossSum);
    stats[1] = static_cast<Real>(correct);
}

template <typename Real>
void denseBackward(const NetShape& shape, const Real* pooled, const Real* dlogits, int n,
                   const Real* denseParams, Real* denseGrad, Real* dpooled) {
    const size_t classes = sz(shape.classes), inSize = shape.pooledSize();
    std::fill_n(denseGrad, shape.denseParamCount(), Real(0));
    Real* biasGrad = denseGrad + shape.denseWeightCount();
    for (size_t i = 0; i < sz(n); ++i) {
        const Real* input = pooled + i * inSize;
        const Real* d = dlogits + i * classes;
        Real* dIn = dpooled + i * inSize;
        std::fill_n(dIn, inSize, Real(0));
        for (size_t c = 0; c < classes; ++c) {
            const Real g = d[c];
            accumulateGradients(denseGrad + c * inSize, dIn, input, denseParams + c * inSize, g,
                                inSize);
            biasGrad[c] += g;
        }
    }
}

template <typename Real>
void poolBackward(const NetShape& shape, const Real* dpooled, const std::uint8_t* argmax,
                  const Real* convOut, int n, Real* dconv) {
    const size_t convCols = sz(shape.convCols()), convRows = sz(shape.convRows());
    const size_t poolRows = sz(shape.poolRows()), poolCols = sz(shape.poolCols());
    const size_t planes = sz(n) * sz(shape.filters);
    std::fill_n(dconv, planes * convRows * convCols, Real(0));
    for (size_t plane = 0; plane < planes; ++plane) {
        const Real* d = dpooled + plane * poolRows * poolCols;
        const std::uint8_t* arg = argmax + plane * poolRows * poolCols;
        const Real* activation = convOut + plane * convRows * convCols;
        Real* out = dconv + plane * convRows * convCols;
        for (size_t y = 0; y < poolRows; ++y) {
            for (size_t x = 0; x < poolCols; ++x) {
                const size_t q = arg[y * poolCols + x];
                const size_t at = (2 * y + q / 2) * convCols + 2 * x + q % 2;
                // ReLU passes the gradient only where it let the value through; selected
                // without a branch (a mispredicted one per value cost more than the rest).
                out[at] = passIf(activation[at] > Real(0), d[y * poolCols + x]);
            }
        }
    }
}

template <typename Real>
void convBackwardReference(const NetShape& shape, const Real* images, const Real* dconv, int n,
                           Real* convGrad) {
    const size_t cols = sz(shape.cols), k = sz(shape.kernel);
    const size_t outRows = sz(shape.convRows()), outCols = sz(shape.convCols());
    const size_t filters = sz(shape.filters);
    std::fill_n(convGrad, shape.convParamCount(), Real(0));
    Real* biasGrad = convGrad + shape.convWeightCount();
    assert(outCols <= kMaxConvCols);
    Real rowSums[kMaxConvCols];
    for (size_t i = 0; i < sz(n); ++i) {
        const Real* image = images + i * shape.imageSize();
        for (size_t f = 0; f < filters; ++f) {
            const Real* d = dconv + i * shape.convSize() + f * outRows * outCols;
            Real* wGrad = convGrad + f * k * k;
            for (size_t p = 0; p < outRows * outCols; ++p) {
                biasGrad[f] += d[p];
            }
            for (size_t ky = 0; ky < k; ++ky) {
                for (size_t kx = 0; kx < k; ++kx) {
                    // Lane-wise partial sums keep the inner loop vectorisable without
                    // reassociating a single accumulator.
                    std::fill_n(rowSums, outCols, Real(0));
                    for (size_t y = 0; y < outRows; ++y) {
                        const Real* in = image + (y + ky) * cols + kx;
                        const Real* dRow = d + y * outCols;
                        for (size_t x = 0; x < outCols; ++x) {
                            rowSums[x] += dRow[x] * in[x];
                        }
                    }
                    Real sum = Real(0);
                    for (size_t x = 0; x < outCols; ++x) {
                        sum += rowSums[x];
                    }
                    wGrad[ky * k + kx] += sum;
                }
            }
        }
    }
}

template <typename Real>
void convForward(const NetShape& shape, const Real* images, int n, const Real* convParams,
                 Real* convOut) {
    if constexpr (std::is_same_v<Real, float>) {
        if (convForwardSimd(activeSimdLevel(), shape, images, n, convParams, convOut)) {
            return;
        }
    }
    convForwardReference(shape, images, n, convParams, convOut);
}

template <typename Real>
void convBackward(const NetShape& shape, const Real* images, const Real* dconv, int n,
                  Real* convGrad) {
    if constexpr (std::is_same_v<Real, float>) {
        if (convBackwardSimd(activeSimdLevel(), shape, images, dconv, n, convGrad)) {
            return;
        }
    }
    convBackwardReference(shape, images, dconv, n, convGrad);
}

template <typename Real>
void sgdStep(Real* params, const Real* const* grads, int gradCount, std::size_t size, Real rate) {
    for (size_t g = 0; g < sz(gradCount); ++g) {
        const Real* grad = grads[g];
        for (size_t j = 0; j < size; ++j) {
            params[j] -= rate * grad[j];
        }
    }
}

template <typename Real>
double chunkLoss(const NetShape& shape, const Real* images, const std::int32_t* labels, int n,
                 const Real* convParams, const Real* denseParams) {
    std::vector<Real> conv(sz(n) * shape.convSize());
    std::vector<Real> pooled(sz(n) * shape.pooledSize());
    std::vector<std::uint8_t> argmax(pooled.size());
    convForward(shape, images, n, convParams, conv.data());
    poolForward(shape, conv.data(), n, pooled.data(), argmax.data());
    Real stats[kStatsSize];
    denseForwardLoss(shape, pooled.data(), n, denseParams, labels, Real(1),
                     static_cast<Real*>(nullptr), stats);
    return static_cast<double>(stats[0]) / n;
}

#define STARSCOPE_INSTANTIATE_KERNELS(Real)                                                        \
    template void convForward<Real>(const NetShape&, const Real*, int, const Real*, Real*);        \
    template void poolForward<Real>(const NetShape&, const Real*, int, Real*, std::uint8_t*);      \
    template void denseForwardLoss<Real>(const NetShape&, const Real*, int, const Real*,           \
                                         const std::int32_t*, Real, Real*, Real*);                 \
    template void denseBackward<Real>(const NetShape&, const Real*, const Real*, int, const Real*, \
                                      Real*, Real*);                                               \
    template void poolBackward<Real>(const NetShape&, const Real*, const std::uint8_t*,            \
                                     const Real*, int, Real*);                                     \
    template void convBackward<Real>(const NetShape&, const Real*, const Real*, int, Real*);       \
    template void convForwardReference<Real>(const NetShape&, const Real*, int, const Real*,       \
                                             Real*);                                               \
    template void convBackwardReference<Real>(const NetShape&, const Real*, const Real*, int,      \
                                              Real*);                                              \
    template void sgdStep<Real>(Real*, const Real* const*, int, std::size_t, Real);                \
    template double chunkLoss<Real>(const NetShape&, const Real*, const std::int32_t*, int,        \
                                    const Real*, const Real*);

STARSCOPE_INSTANTIATE_KERNELS(float)
STARSCOPE_INSTANTIATE_KERNELS(double)
#undef STARSCOPE_INSTANTIATE_KERNELS

} // namespace starscope::workloads::cnn
