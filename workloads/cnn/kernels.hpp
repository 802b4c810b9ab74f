#pragma once
// The network's arithmetic on plain float buffers for a chunk of n images. The StarPU
// codelets are thin wrappers around these, and the gradient check calls them directly.
// Buffers are image-major: image i's data starts at i * (per-image size). Instantiated for
// float (training) and double (the gradient check, free of float rounding noise).

#include "workloads/cnn/shape.hpp"

#include <cstdint>

namespace starscope::workloads::cnn {

// Two floats per chunk: summed cross-entropy loss and number of correct predictions.
inline constexpr int kStatsSize = 2;

// Deterministic He-style initialisation from seed; biases start at zero.
void initParams(const NetShape& shape, std::uint64_t seed, float* convParams, float* denseParams);

// conv + bias + ReLU. float runs the vectorised kernel below when it covers the shape.
template <typename Real>
void convForward(const NetShape& shape, const Real* images, int n, const Real* convParams,
                 Real* convOut);
// 2x2 max-pool; argmax holds the winning position (0-3) of each pooled value.
template <typename Real>
void poolForward(const NetShape& shape, const Real* convOut, int n, Real* pooled,
                 std::uint8_t* argmax);
// dense + softmax cross-entropy. dlogits = (softmax - onehot) * gradScale, where gradScale is
// 1 / batch size so that chunk gradients sum to the batch mean. stats gets loss sum, correct.
template <typename Real>
void denseForwardLoss(const NetShape& shape, const Real* pooled, int n, const Real* denseParams,
                      const std::int32_t* labels, Real gradScale, Real* dlogits, Real* stats);
// denseGrad (weights then biases) is overwritten with this chunk's gradient.
template <typename Real>
void denseBackward(const NetShape& shape, const Real* pooled, const Real* dlogits, int n,
                   const Real* denseParams, Real* denseGrad, Real* dpooled);
// Routes dpooled to the pooled maxima, masked by ReLU (convOut > 0).
template <typename Real>
void poolBackward(const NetShape& shape, const Real* dpooled, const std::uint8_t* argmax,
                  const Real* convOut, int n, Real* dconv);
// convGrad (weights then biases) is overwritten with this chunk's gradient. float runs the
// vectorised kernel below when it covers the shape.
template <typename Real>
void convBackward(const NetShape& shape, const Real* images, const Real* dconv, int n,
                  Real* convGrad);

// The plain loops convForward/convBackward compute, kept as the reference the vectorised
// kernels are tested against (and what double, used by the gradient check, runs).
template <typename Real>
void convForwardReference(const NetShape& shape, const Real* images, int n,
                          const Real* convParams, Real* convOut);
template <typename Real>
void convBackwardReference(const NetShape& shape, const Real* images, const Real* dconv, int n,
                           Real* convGrad);

// The convolutions are most of a training's arithmetic. Their float kernels keep every
// accumulator of a tile of output columns x filters in vector registers (register-blocked
// direct convolution: no im2col copy, the input rows are read in place). One binary carries
// two builds of them: Portable (the compiler's baseline vectors, SSE2 on x86-64) and Avx2Fma
// (x86-64-v3), chosen once at run time from what the CPU supports, so the default build stays
// portable. The two differ in float rounding only (fused multiply-add); within one process
// every task uses the same one, so training stays deterministic.
enum class SimdLevel : std::uint8_t { Portable, Avx2Fma };
const char* simdLevelName(SimdLevel level);
bool simdLevelAvailable(SimdLevel level);
// The best available level: what convForward/convBackward use.
SimdLevel activeSimdLevel();
// The vectorised kernels at a given (available) level. They return false, writing nothing,
// for shapes they do not cover (kernel sizes other than 3, 5 or 7 for the backward pass).
bool convForwardSimd(SimdLevel level, const NetShape& shape, const float* images, int n,
                     const float* convParams, float* convOut);
bool convBackwardSimd(SimdLevel level, const NetShape& shape, const float* images,
                      const float* dconv, int n, float* convGrad);
// params -= rate * sum of the gradients.
template <typename Real>
void sgdStep(Real* params, const Real* const* grads, int gradCount, std::size_t size, Real rate);

// Mean loss of a chunk through the whole network (used by the gradient check).
template <typename Real>
double chunkLoss(const NetShape& shape, const Real* images, const std::int32_t* labels, int n,
                 const Real* convParams, const Real* denseParams);

} // namespace starscope::workloads::cnn
