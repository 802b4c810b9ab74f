#include "workloads/cnn/codelets.hpp"

#include "workloads/cnn/kernels.hpp"

#include <vector>

namespace starscope::workloads::cnn {

namespace {

template <typename T> T* vectorPtr(void* buffer) {
    return reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffer));
}

ChunkArgs chunkArgs(void* clArg) {
    ChunkArgs args;
    starpu_codelet_unpack_args(clArg, &args);
    return args;
}

std::size_t imageOffset(const ChunkArgs& args) {
    return static_cast<std::size_t>(args.first) * args.shape.imageSize();
}

// Convolution (with ReLU) and max-pool of a chunk in one task: as two tasks, the pool task
// cost a StarPU task's overhead (scheduling, fetching, pushing, about 15 us of worker time and
// 20 us of the submitting thread's, traced) for 60 us of work, and its FxT events.
void convPoolForwardCpu(void* buffers[], void* clArg) {
    const auto args = chunkArgs(clArg);
    float* convOut = vectorPtr<float>(buffers[2]);
    convForward(args.shape, vectorPtr<const float>(buffers[0]) + imageOffset(args), args.count,
                vectorPtr<const float>(buffers[1]), convOut);
    poolForward(args.shape, convOut, args.count, vectorPtr<float>(buffers[3]),
                vectorPtr<std::uint8_t>(buffers[4]));
}

void denseForwardCpu(void* buffers[], void* clArg) {
    const auto args = chunkArgs(clArg);
    float* dlogits = vectorPtr<float>(buffers[3]);
    float* stats = dlogits + static_cast<std::size_t>(args.count * args.shape.classes);
    denseForwardLoss(args.shape, vectorPtr<const float>(buffers[0]), args.count,
                     vectorPtr<const float>(buffers[1]),
                     vectorPtr<const std::int32_t>(buffers[2]) + args.first, args.gradScale,
                     dlogits, stats);
}

void denseBackwardCpu(void* buffers[], void* clArg) {
    const auto args = chunkArgs(clArg);
    const float* dlogits = vectorPtr<const float>(buffers[1]);
    float* grad = vectorPtr<float>(buffers[3]);
    denseBackward(args.shape, vectorPtr<const float>(buffers[0]), dlogits, args.count,
                  vectorPtr<const float>(buffers[2]), grad, vectorPtr<float>(buffers[4]));
    // The chunk's stats ride along with its gradient to the SGD task.
    const float* stats = dlogits + static_cast<std::size_t>(args.count * args.shape.classes);
    float* statsOut = grad + args.shape.denseParamCount();
    for (int i = 0; i < kStatsSize; ++i) {
        statsOut[i] = stats[i];
    }
}

// The pool's and the convolution's gradients of a chunk in one task (see convPoolForwardCpu).
void poolConvBackwardCpu(void* buffers[], void* clArg) {
    const auto args = chunkArgs(clArg);
    float* dconv = vectorPtr<float>(buffers[4]);
    poolBackward(args.shape, vectorPtr<const float>(buffers[0]),
                 vectorPtr<const std::uint8_t>(buffers[1]), vectorPtr<const float>(buffers[2]),
                 args.count, dconv);
    convBackward(args.shape, vectorPtr<const float>(buffers[3]) + imageOffset(args), dconv,
                 args.count, vectorPtr<float>(buffers[5]));
}

SgdArgs sgdArgs(void* clArg) {
    SgdArgs args;
    starpu_codelet_unpack_args(clArg, &args);
    return args;
}

// At most this many gradient buffers per SGD task: a batch of up to 4096 chunks.
constexpr int kMaxGrads = 4096;

void sgdConvCpu(void* buffers[], void* clArg) {
    const auto args = sgdArgs(clArg);
    const float* grads[kMaxGrads];
    for (int g = 0; g < args.grads; ++g) {
        grads[g] = vectorPtr<const float>(buffers[1 + g]);
    }
    sgdStep(vectorPtr<float>(buffers[0]), grads, args.grads, args.size, args.rate);
}

void sgdDenseCpu(void* buffers[], void* clArg) {
    const auto args = sgdArgs(clArg);
    const float* grads[kMaxGrads];
    double lossSum = 0.0;
    double correct = 0.0;
    for (int g = 0; g < args.grads; ++g) {
        grads[g] = vectorPtr<const float>(buffers[2 + g]);
        lossSum += static_cast<double>(grads[g][args.size]);
        correct += static_cast<double>(grads[g][args.size + 1]);
    }
    sgdStep(vectorPtr<float>(buffers[0]), grads, args.grads, args.size, args.rate);
    double* totals =
        vectorPtr<double>(buffers[1]) + static_cast<std::size_t>(args.epoch) * kEpochTotalsSize;
    totals[0] += lossSum;
    totals[1] += correct;
    totals[2] += args.samples;
    if (args.sink != nullptr && args.samples > 0) {
        args.sink->lastBatchLoss.store(static_cast<float>(lossSum / args.samples),
                                       std::memory_order_relaxed);
        args.sink->batchesDone.fetch_add(1, std::memory_order_relaxed);
    }
}

void evalDenseCpu(void* buffers[], void* clArg) {
    const auto args = chunkArgs(clArg);
    denseForwardLoss(args.shape, vectorPtr<const float>(buffers[0]), args.count,
                     vectorPtr<const float>(buffers[1]),
                     vectorPtr<const std::int32_t>(buffers[2]) + args.first, 1.0F,
                     static_cast<float*>(nullptr), vectorPtr<float>(buffers[3]));
}

} // namespace

starpu_codelet makeCodelet(const char* name, starpu_cpu_func_t func,
                           std::vector<starpu_data_access_mode> modes) {
    starpu_codelet codelet;
    starpu_codelet_init(&codelet);
    codelet.name = name;
    codelet.cpu_funcs[0] = func;
    codelet.cpu_funcs_name[0] = name;
    if (modes.empty()) {
        codelet.nbuffers = STARPU_VARIABLE_NBUFFERS;
    } else {
        codelet.nbuffers = static_cast<int>(modes.size());
        for (std::size_t i = 0; i < modes.size(); ++i) {
            codelet.modes[i] = modes[i];
        }
    }
    return codelet;
}

starpu_codelet& convPoolForwardCodelet() {
    static starpu_codelet codelet = makeCodelet(
        "conv_pool_fwd", convPoolForwardCpu, {STARPU_R, STARPU_R, STARPU_W, STARPU_W, STARPU_W});
    return codelet;
}

starpu_codelet& denseForwardCodelet() {
    static starpu_codelet codelet =
        makeCodelet("dense_fwd", denseForwardCpu, {STARPU_R, STARPU_R, STARPU_R, STARPU_W});
    return codelet;
}

starpu_codelet& denseBackwardCodelet() {
    static starpu_codelet codelet = makeCodelet("dense_bwd", denseBackwardCpu,
                                                {STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_W});
    return codelet;
}

starpu_codelet& poolConvBackwardCodelet() {
    static starpu_codelet codelet =
        makeCodelet("pool_conv_bwd", poolConvBackwardCpu,
                    {STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_W});
    return codelet;
}

starpu_codelet& sgdConvCodelet() {
    static starpu_codelet codelet = makeCodelet("sgd_conv", sgdConvCpu, {});
    return codelet;
}

starpu_codelet& sgdDenseCodelet() {
    static starpu_codelet codelet = makeCodelet("sgd_dense", sgdDenseCpu, {});
    return codelet;
}

starpu_codelet& evalDenseCodelet() {
    static starpu_codelet codelet =
        makeCodelet("eval_dense", evalDenseCpu, {STARPU_R, STARPU_R, STARPU_R, STARPU_W});
    return codelet;
}

} // namespace starscope::workloads::cnn
