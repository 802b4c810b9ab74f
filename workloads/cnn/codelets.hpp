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

// Where a chunk's buffers lie in its one workspace vector of floats, in floats from its start
// (argmax: bytes from there). One StarPU handle per chunk instead of one per buffer: the main
// thread registers and unregisters one per chunk and batch, and each task names one buffer
// (fewer implicit dependencies to track and FxT events to write); the chunk's tasks run one
// after the other anyway. Each region starts on a 64-byte boundary.
struct ChunkLayout {
    // The gradients come first: their offsets are the same for every chunk size, so one SGD
    // task reads every chunk's at one offset.
    std::size_t convGrad = 0;  // convParamCount
    std::size_t denseGrad = 0; // denseParamCount, then the chunk's stats (kStatsSize)
    std::size_t dlogits = 0;   // n x classes, then the chunk's stats
    std::size_t convOut = 0;   // n x convSize
    std::size_t pooled = 0;    // n x pooledSize
    std::size_t dpooled = 0;   // n x pooledSize
    std::size_t dconv = 0;     // n x convSize
    std::size_t argmax = 0;    // n x pooledSize bytes
    std::size_t floats = 0;    // the workspace's size

    // Every buffer of a training chunk of n images.
    static ChunkLayout training(const NetShape& shape, std::size_t n);
    // What evaluation uses: convOut, pooled and argmax.
    static ChunkLayout evaluation(const NetShape& shape, std::size_t n);
};

// A chunk of a batch: images [first, first + count) of the batch's images/labels handles.
struct ChunkArgs {
    NetShape shape;
    ChunkLayout layout;
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
    std::size_t offset = 0; // of the gradient in each chunk's workspace (ChunkLayout)
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

// Buffers: images (R, batch), convParams (R), workspace (W: convOut, pooled, argmax).
starpu_codelet& convPoolForwardCodelet();
// workspace (RW: pooled -> dlogits and stats -> denseGrad with the stats, dpooled),
// denseParams (R), labels (R, batch).
starpu_codelet& denseCodelet();
// workspace (RW: dpooled, argmax, convOut -> dconv -> convGrad), images (R, batch).
starpu_codelet& poolConvBackwardCodelet();
// convParams (RW), workspace_0..k-1 (R: convGrad).
starpu_codelet& sgdConvCodelet();
// denseParams (RW), epochTotals (RW), workspace_0..k-1 (R: denseGrad and stats).
starpu_codelet& sgdDenseCodelet();
// Test-set evaluation: workspace (R: pooled), denseParams (R), labels (R) -> stats (W).
starpu_codelet& evalDenseCodelet();

} // namespace starscope::workloads::cnn
