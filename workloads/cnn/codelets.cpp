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

// The chunk's workspace (ChunkLayout), viewed as floats or bytes at an offset.
float* region(void* buffer, std::size_t offset) { return vectorPtr<float>(buffer) + offset; }
std::uint8_t* bytesAt(void* buffer, std::size_t offset) {
    return reinterpret_cast<std::uint8_t*>(region(buffer, offset));
}

// Convolution (with ReLU) and max-pool of a chunk in one task: as two tasks, the pool task
// cost a StarPU task's overhead (scheduling, fetching, pushing, about 15 us of worker time and
// 20 us of the submitting thread's, traced) for 60 us of work, and its FxT events.
void convPoolForwardCpu(void* buffers[], void* clArg) {
    const auto args = chunkArgs(clArg);
    const ChunkLayout& at = args.layout;
    float* convOut = region(buffers[2], at.convOut);
    convForward(args.shape, vectorPtr<const float>(buffers[0]) + imageOffset(args), args.count,
                vectorPtr<const float>(buffers[1]), convOut);
    poolForward(args.shape, convOut, args.count, region(buffers[2], at.pooled),
                bytesAt(buffers[2], at.argmax));
}

// The dense layer of a chunk in one task: forward, loss, then backward. Nothing else runs
// between the two passes of a chunk, so as two tasks the backward one only added a StarPU
// task's overhead (scheduling, fetching, pushing: about 15 us of worker time and 20 us of the
// submitting thread's, traced) and a dependency hop on every batch's critical path.
void denseCpu(void* buffers[], void* clArg) {
    const auto args = chunkArgs(clArg);
    const ChunkLayout& at = args.layout;
    const float* pooled = region(buffers[0], at.pooled);
    const float* params = vectorPtr<const float>(buffers[1]);
    float* dlogits = region(buffers[0], at.dlogits);
    float* stats = dlogits + static_cast<std::size_t>(args.count * args.shape.classes);
    denseForwardLoss(args.shape, pooled, args.count, params,
                     vectorPtr<const std::int32_t>(buffers[2]) + args.first, args.gradScale,
                     dlogits, stats);
    float* grad = region(buffers[0], at.denseGrad);
    denseBackward(args.shape, pooled, dlogits, args.count, params, grad,
                  region(buffers[0], at.dpooled));
    // The chunk's stats ride along with its gradient to the SGD task.
    float* statsOut = grad + args.shape.denseParamCount();
    for (int i = 0; i < kStatsSize; ++i) {
        statsOut[i] = stats[i];
    }
}

// The pool's and the convolution's gradients of a chunk in one task (see convPoolForwardCpu).
void poolConvBackwardCpu(void* buffers[], void* clArg) {
    const auto args = chunkArgs(clArg);
    const ChunkLayout& at = args.layout;
    float* dconv = region(buffers[0], at.dconv);
    poolBackward(args.shape, region(buffers[0], at.dpooled), bytesAt(buffers[0], at.argmax),
                 region(buffers[0], at.convOut), args.count, dconv);
    convBackward(args.shape, vectorPtr<const float>(buffers[1]) + imageOffset(args), dconv,
                 args.count, region(buffers[0], at.convGrad));
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
        grads[g] = region(buffers[1 + g], args.offset);
    }
    sgdStep(vectorPtr<float>(buffers[0]), grads, args.grads, args.size, args.rate);
}

void sgdDenseCpu(void* buffers[], void* clArg) {
    const auto args = sgdArgs(clArg);
    const float* grads[kMaxGrads];
    double lossSum = 0.0;
    double correct = 0.0;
    for (int g = 0; g < args.grads; ++g) {
        grads[g] = region(buffers[2 + g], args.offset);
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
    denseForwardLoss(args.shape, region(buffers[0], args.layout.pooled), args.count,
                     vectorPtr<const float>(buffers[1]),
                     vectorPtr<const std::int32_t>(buffers[2]) + args.first, 1.0F,
                     static_cast<float*>(nullptr), vectorPtr<float>(buffers[3]));
}

} // namespace

namespace {

// Appends a region of `floats` floats at a 64-byte boundary; returns its offset.
std::size_t place(std::size_t& end, std::size_t floats) {
    constexpr std::size_t kAlign = 64 / sizeof(float);
    const std::size_t at = (end + kAlign - 1) / kAlign * kAlign;
    end = at + floats;
    return at;
}

std::size_t floatsFor(std::size_t bytes) { return (bytes + sizeof(float) - 1) / sizeof(float); }

} // namespace

ChunkLayout ChunkLayout::training(const NetShape& s, std::size_t n) {
    ChunkLayout layout;
    std::size_t end = 0;
    layout.convGrad = place(end, s.convParamCount());
    layout.denseGrad = place(end, s.denseParamCount() + kStatsSize);
    layout.dlogits = place(end, n * static_cast<std::size_t>(s.classes) + kStatsSize);
    layout.convOut = place(end, n * s.convSize());
    layout.pooled = place(end, n * s.pooledSize());
    layout.dpooled = place(end, n * s.pooledSize());
    layout.dconv = place(end, n * s.convSize());
    layout.argmax = place(end, floatsFor(n * s.pooledSize()));
    layout.floats = end;
    return layout;
}

ChunkLayout ChunkLayout::evaluation(const NetShape& s, std::size_t n) {
    ChunkLayout layout;
    std::size_t end = 0;
    layout.convOut = place(end, n * s.convSize());
    layout.pooled = place(end, n * s.pooledSize());
    layout.argmax = place(end, floatsFor(n * s.pooledSize()));
    layout.floats = end;
    return layout;
}

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
    static starpu_codelet codelet =
        makeCodelet("conv_pool_fwd", convPoolForwardCpu, {STARPU_R, STARPU_R, STARPU_W});
    return codelet;
}

starpu_codelet& denseCodelet() {
    static starpu_codelet codelet =
        makeCodelet("dense_fwd_bwd", denseCpu, {STARPU_RW, STARPU_R, STARPU_R});
    return codelet;
}

starpu_codelet& poolConvBackwardCodelet() {
    static starpu_codelet codelet =
        makeCodelet("pool_conv_bwd", poolConvBackwardCpu, {STARPU_RW, STARPU_R});
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
