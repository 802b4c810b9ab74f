#pragma once
// The network's layers as StarPU CPU codelets. Each task works on one chunk of a batch; the
// codelet names ("conv_pool_fwd", ...) are what a trace shows as the worker's Executing state.
// Arguments travel by value (STARPU_VALUE) in the structs below.

#include "workloads/cnn/shape.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <starpu.h>
#include <vector>

namespace starscope::workloads::cnn {

// A chunk of a batch: images [first, first + count) of the batch's images/labels handles.
struct ChunkArgs {
    NetShape shape;
    std::int32_t first = 0;
    std::int32_t count = 0;
    float gradScale = 0.0F; // 1 / batch size
};

// Where the SGD task of the dense layer reports progress, without the main thread waiting.
struct ProgressSink {
    std::atomic<float> lastBatchLoss{0.0F};
    std::atomic<std::uint64_t> batchesDone{0};
};

// params -= rate * sum of `grads` gradient buffers of `size` floats. For the dense layer the
// gradient buffers carry the chunk's stats after the gradient, and an extra RW buffer of
// per-epoch totals (3 doubles per epoch: loss sum, correct, samples) receives them.
struct SgdArgs {
    float rate = 0.0F;
    std::int32_t grads = 0;
    std::uint64_t size = 0;
    std::int32_t epoch = -1;  // dense only: which totals to add the stats to
    std::int32_t samples = 0; // dense only: images in the batch
    ProgressSink* sink = nullptr;
};

// Per epoch in the totals buffer.
inline constexpr std::size_t kEpochTotalsSize = 3;

// A CPU codelet named `name` (the name the trace shows); no modes: a variable number of
// buffers, their modes given at submission (STARPU_DATA_MODE_ARRAY).
starpu_codelet makeCodelet(const char* name, starpu_cpu_func_t func,
                           std::vector<starpu_data_access_mode> modes);

// Buffers: images (R, batch), convParams (R) -> convOut (W, chunk), pooled (W), argmax (W).
starpu_codelet& convPoolForwardCodelet();
// pooled (R), denseParams (R), labels (R, batch) -> dlogitsAndStats (W): n x classes dlogits,
// then the chunk's stats.
starpu_codelet& denseForwardCodelet();
// pooled (R), dlogitsAndStats (R), denseParams (R) -> denseGradAndStats (W), dpooled (W).
starpu_codelet& denseBackwardCodelet();
// dpooled (R), argmax (R), convOut (R), images (R, batch) -> dconv (W, scratch), convGrad (W).
starpu_codelet& poolConvBackwardCodelet();
// convParams (RW), convGrad_0..k-1 (R).
starpu_codelet& sgdConvCodelet();
// denseParams (RW), epochTotals (RW), denseGradAndStats_0..k-1 (R).
starpu_codelet& sgdDenseCodelet();
// Test-set evaluation: pooled (R), denseParams (R), labels (R) -> stats (W).
starpu_codelet& evalDenseCodelet();

} // namespace starscope::workloads::cnn
