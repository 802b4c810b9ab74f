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

// conv + bias + ReLU.
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
// convGrad (weights then biases) is overwritten with this chunk's gradient.
template <typename Real>
void convBackward(const NetShape& shape, const Real* images, const Real* dconv, int n,
                  Real* convGrad);
// params -= rate * sum of the gradients.
template <typename Real>
void sgdStep(Real* params, const Real* const* grads, int gradCount, std::size_t size, Real rate);

// Mean loss of a chunk through the whole network (used by the gradient check).
template <typename Real>
double chunkLoss(const NetShape& shape, const Real* images, const std::int32_t* labels, int n,
                 const Real* convParams, const Real* denseParams);

} // namespace starscope::workloads::cnn
