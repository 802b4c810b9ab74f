// Register-blocked direct convolution in float (see SimdLevel in kernels.hpp for why and how
// the instruction set is chosen).
//
// Forward: a tile is FG filters x NV vectors of W output columns of one output row; its
// accumulators live in FG * NV vector registers while the k x k taps stream by, each tap one
// unaligned load of the input row per vector and one broadcast weight per filter. The order of
// the additions per output (bias, then taps row by row) is the reference's, so without fused
// multiply-add the results are bit for bit the reference's.
//
// Backward (weight gradient): for one kernel row ky, FG filters x K taps of accumulators sum
// dconv x input over every image, output row and column vector of the chunk; the lanes are
// added up once per chunk. That reassociates the sums (the results differ from the reference
// in the last bits), which is why this file, like kernels.cpp, is built with
// -fassociative-math.

#include "workloads/cnn/kernels.hpp"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstring>

namespace starscope::workloads::cnn {

namespace {

using std::size_t;

// V: a register of W floats. U: the same in memory at any float address (4-byte aligned,
// may alias floats): loads and stores through it are single unaligned vector moves. (Helpers
// returning vectors would change the ABI between the two builds: the loads are written out.
// memcpy into a V array made GCC 12 copy through the stack, stalling store forwarding.)
template <size_t W> struct Lanes;
template <> struct Lanes<4> {
    using V = float __attribute__((vector_size(16)));
    using U = float __attribute__((vector_size(16), aligned(4), may_alias));
};
template <> struct Lanes<8> {
    using V = float __attribute__((vector_size(32)));
    using U = float __attribute__((vector_size(32), aligned(4), may_alias));
};

// Filters per tile and vectors per tile row: FG * NV accumulators plus NV inputs and one
// broadcast weight fill the 16 vector registers of SSE2 and AVX2.
constexpr size_t kForwardFilters = 4;
constexpr size_t kForwardVectors = 3;
// Backward: kBackwardFilters * K accumulators (10 for K = 5), the filters' dconv vectors and
// one input vector.
constexpr size_t kBackwardFilters = 2;

struct ConvDims {
    size_t cols, k, outRows, outCols, filters, imageSize, convSize, plane;

    explicit ConvDims(const NetShape& s)
        : cols(static_cast<size_t>(s.cols)), k(static_cast<size_t>(s.kernel)),
          outRows(static_cast<size_t>(s.convRows())), outCols(static_cast<size_t>(s.convCols())),
          filters(static_cast<size_t>(s.filters)), imageSize(s.imageSize()),
          convSize(s.convSize()), plane(outRows * outCols) {}
};

// One output row's columns [x0, x0 + NV * W) of filters [f0, f0 + FG).
template <size_t W, size_t FG, size_t NV>
[[gnu::always_inline]] inline void forwardTile(const ConvDims& d, const float* image,
                                               const float* weights, const float* bias, size_t f0,
                                               size_t y, size_t x0, float* out) {
    using V = typename Lanes<W>::V;
    using U = typename Lanes<W>::U;
    V acc[FG][NV];
    for (size_t g = 0; g < FG; ++g) {
        float start[W];
        std::fill_n(start, W, bias[f0 + g]);
        for (size_t v = 0; v < NV; ++v) {
            std::memcpy(&acc[g][v], start, sizeof(V));
        }
    }
    const size_t taps = d.k * d.k;
    for (size_t ky = 0; ky < d.k; ++ky) {
        const float* row = image + (y + ky) * d.cols + x0;
        for (size_t kx = 0; kx < d.k; ++kx) {
            V in[NV];
            for (size_t v = 0; v < NV; ++v) {
                in[v] = *reinterpret_cast<const U*>(row + kx + v * W);
            }
            for (size_t g = 0; g < FG; ++g) {
                const float w = weights[(f0 + g) * taps + ky * d.k + kx];
                for (size_t v = 0; v < NV; ++v) {
                    acc[g][v] += w * in[v];
                }
            }
        }
    }
    for (size_t g = 0; g < FG; ++g) {
        float* o = out + (f0 + g) * d.plane + y * d.outCols + x0;
        for (size_t v = 0; v < NV; ++v) {
            // As std::max(value, 0): NaN and -0 pass through unchanged.
            const V relu = acc[g][v] < 0 ? V{} : acc[g][v];
            *reinterpret_cast<U*>(o + v * W) = relu;
        }
    }
}

// Columns [x0, outCols) of one row that no whole vector covers, accumulated tap by tap over
// the columns as the reference does (a per-output sum over the taps would be a reduction the
// compiler may reorder under -fassociative-math).
inline void forwardTail(const ConvDims& d, const float* image, const float* weights,
                        const float* bias, size_t f, size_t y, size_t x0, float* out) {
    float* o = out + f * d.plane + y * d.outCols;
    std::fill(o + x0, o + d.outCols, bias[f]);
    for (size_t ky = 0; ky < d.k; ++ky) {
        for (size_t kx = 0; kx < d.k; ++kx) {
            const float w = weights[f * d.k * d.k + ky * d.k + kx];
            const float* in = image + (y + ky) * d.cols + kx;
            for (size_t x = x0; x < d.outCols; ++x) {
                o[x] += w * in[x];
            }
        }
    }
    for (size_t x = x0; x < d.outCols; ++x) {
        o[x] = std::max(o[x], 0.0F);
    }
}

template <size_t W, size_t FG>
[[gnu::always_inline]] inline void forwardFilters(const ConvDims& d, const float* image,
                                                  const float* weights, const float* bias,
                                                  size_t f0, float* out) {
    constexpr size_t wide = kForwardVectors * W;
    for (size_t y = 0; y < d.outRows; ++y) {
        size_t x = 0;
        for (; x + wide <= d.outCols; x += wide) {
            forwardTile<W, FG, kForwardVectors>(d, image, weights, bias, f0, y, x, out);
        }
        for (; x + W <= d.outCols; x += W) {
            forwardTile<W, FG, 1>(d, image, weights, bias, f0, y, x, out);
        }
        if (x < d.outCols) {
            for (size_t g = 0; g < FG; ++g) {
                forwardTail(d, image, weights, bias, f0 + g, y, x, out);
            }
        }
    }
}

template <size_t W>
[[gnu::always_inline]] inline void forwardBody(const NetShape& shape, const float* images, int n,
                                               const float* params, float* convOut) {
    const ConvDims d(shape);
    const float* bias = params + shape.convWeightCount();
    for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
        const float* image = images + i * d.imageSize;
        float* out = convOut + i * d.convSize;
        size_t f = 0;
        for (; f + kForwardFilters <= d.filters; f += kForwardFilters) {
            forwardFilters<W, kForwardFilters>(d, image, params, bias, f, out);
        }
        for (; f < d.filters; ++f) {
            forwardFilters<W, 1>(d, image, params, bias, f, out);
        }
    }
}

// Weight gradients of filters [f0, f0 + FG), kernel row ky, summed over the chunk.
template <size_t W, size_t FG, size_t K>
[[gnu::always_inline]] inline void backwardRow(const ConvDims& d, const float* images,
                                               const float* dconv, size_t n, size_t f0, size_t ky,
                                               float* wGrad) {
    using V = typename Lanes<W>::V;
    using U = typename Lanes<W>::U;
    V acc[FG][K] = {};
    float tail[FG][K] = {};
    for (size_t i = 0; i < n; ++i) {
        const float* image = images + i * d.imageSize;
        const float* planes = dconv + i * d.convSize + f0 * d.plane;
        for (size_t y = 0; y < d.outRows; ++y) {
            const float* row = image + (y + ky) * d.cols;
            size_t x = 0;
            for (; x + W <= d.outCols; x += W) {
                V dv[FG];
                for (size_t g = 0; g < FG; ++g) {
                    dv[g] = *reinterpret_cast<const U*>(planes + g * d.plane + y * d.outCols + x);
                }
                for (size_t t = 0; t < K; ++t) {
                    const V in = *reinterpret_cast<const U*>(row + x + t);
                    for (size_t g = 0; g < FG; ++g) {
                        acc[g][t] += dv[g] * in;
                    }
                }
            }
            for (; x < d.outCols; ++x) {
                for (size_t g = 0; g < FG; ++g) {
                    const float dval = planes[g * d.plane + y * d.outCols + x];
                    for (size_t t = 0; t < K; ++t) {
                        tail[g][t] += dval * row[x + t];
                    }
                }
            }
        }
    }
    for (size_t g = 0; g < FG; ++g) {
        for (size_t t = 0; t < K; ++t) {
            float sum = tail[g][t];
            for (size_t lane = 0; lane < W; ++lane) {
                sum += acc[g][t][lane];
            }
            wGrad[(f0 + g) * K * K + ky * K + t] += sum;
        }
    }
}

template <size_t W, size_t K>
[[gnu::always_inline]] inline void backwardBody(const NetShape& shape, const float* images,
                                                const float* dconv, int n, float* convGrad) {
    const ConvDims d(shape);
    const auto count = static_cast<size_t>(n);
    std::fill_n(convGrad, shape.convParamCount(), 0.0F);
    float* biasGrad = convGrad + shape.convWeightCount();
    for (size_t i = 0; i < count; ++i) {
        for (size_t f = 0; f < d.filters; ++f) {
            const float* plane = dconv + i * d.convSize + f * d.plane;
            float sum = 0.0F;
            for (size_t p = 0; p < d.plane; ++p) {
                sum += plane[p];
            }
            biasGrad[f] += sum;
        }
    }
    for (size_t ky = 0; ky < K; ++ky) {
        size_t f = 0;
        for (; f + kBackwardFilters <= d.filters; f += kBackwardFilters) {
            backwardRow<W, kBackwardFilters, K>(d, images, dconv, count, f, ky, convGrad);
        }
        for (; f < d.filters; ++f) {
            backwardRow<W, 1, K>(d, images, dconv, count, f, ky, convGrad);
        }
    }
}

template <size_t W>
[[gnu::always_inline]] inline bool backwardDispatch(const NetShape& shape, const float* images,
                                                    const float* dconv, int n, float* convGrad) {
    switch (shape.kernel) {
    case 3: backwardBody<W, 3>(shape, images, dconv, n, convGrad); return true;
    case 5: backwardBody<W, 5>(shape, images, dconv, n, convGrad); return true;
    case 7: backwardBody<W, 7>(shape, images, dconv, n, convGrad); return true;
    default: return false;
    }
}

// The baseline build: 4-lane vectors, which every target GCC and Clang know lowers to its own
// (SSE2 on x86-64, NEON on AArch64) or to scalar code.
void forwardPortable(const NetShape& shape, const float* images, int n, const float* params,
                     float* convOut) {
    forwardBody<4>(shape, images, n, params, convOut);
}
bool backwardPortable(const NetShape& shape, const float* images, const float* dconv, int n,
                      float* convGrad) {
    return backwardDispatch<4>(shape, images, dconv, n, convGrad);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define STARSCOPE_HAVE_AVX2_BUILD 1
// The same loops compiled for x86-64-v3 (AVX2, FMA): 8 lanes, fused multiply-add.
[[gnu::target("arch=x86-64-v3")]] void forwardAvx2(const NetShape& shape, const float* images,
                                                   int n, const float* params, float* convOut) {
    forwardBody<8>(shape, images, n, params, convOut);
}
[[gnu::target("arch=x86-64-v3")]] bool backwardAvx2(const NetShape& shape, const float* images,
                                                    const float* dconv, int n, float* convGrad) {
    return backwardDispatch<8>(shape, images, dconv, n, convGrad);
}
#endif

} // namespace

const char* simdLevelName(SimdLevel level) {
    switch (level) {
    case SimdLevel::Portable: return "portable";
    case SimdLevel::Avx2Fma: return "avx2-fma";
    }
    return "unknown";
}

bool simdLevelAvailable(SimdLevel level) {
    switch (level) {
    case SimdLevel::Portable: return true;
    case SimdLevel::Avx2Fma:
#ifdef STARSCOPE_HAVE_AVX2_BUILD
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
        return false;
#endif
    }
    return false;
}

SimdLevel activeSimdLevel() {
    static const SimdLevel level =
        simdLevelAvailable(SimdLevel::Avx2Fma) ? SimdLevel::Avx2Fma : SimdLevel::Portable;
    return level;
}

bool convForwardSimd(SimdLevel level, const NetShape& shape, const float* images, int n,
                     const float* convParams, float* convOut) {
    assert(simdLevelAvailable(level) && "the CPU lacks this instruction set");
#ifdef STARSCOPE_HAVE_AVX2_BUILD
    if (level == SimdLevel::Avx2Fma) {
        forwardAvx2(shape, images, n, convParams, convOut);
        return true;
    }
#endif
    (void)level;
    forwardPortable(shape, images, n, convParams, convOut);
    return true;
}

bool convBackwardSimd(SimdLevel level, const NetShape& shape, const float* images,
                      const float* dconv, int n, float* convGrad) {
    assert(simdLevelAvailable(level) && "the CPU lacks this instruction set");
#ifdef STARSCOPE_HAVE_AVX2_BUILD
    if (level == SimdLevel::Avx2Fma) {
        return backwardAvx2(shape, images, dconv, n, convGrad);
    }
#endif
    (void)level;
    return backwardPortable(shape, images, dconv, n, convGrad);
}

} // namespace starscope::workloads::cnn
