#pragma once
// The CNN's parameters in a "network" arena and the task graph of a training batch: per chunk
// conv_pool_fwd -> dense_fwd_bwd -> pool_conv_bwd, then one SGD task
// per layer reading every chunk's gradient. Ordering comes only from StarPU's data
// dependencies on the handles (per-chunk handles in the batch arena, the parameters' handles),
// so the main thread never waits inside a batch.

#include "runtime/arena.hpp"
#include "workloads/cnn/codelets.hpp"
#include "workloads/cnn/shape.hpp"
#include "workloads/dataset/mnist_dataset.hpp"
#include "workloads/error.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <starpu.h>
#include <vector>

namespace starscope::workloads::cnn {

struct EpochTotals {
    double lossSum = 0.0;
    double correct = 0.0;
    double samples = 0.0;
};

struct BatchInput {
    starpu_data_handle_t images = nullptr; // size * imageSize floats
    starpu_data_handle_t labels = nullptr; // size int32
    std::size_t size = 0;
};

struct Evaluation {
    std::size_t images = 0;
    std::size_t correct = 0;
    double meanLoss = 0.0;
    double accuracy() const {
        return images == 0 ? 0.0 : static_cast<double>(correct) / static_cast<double>(images);
    }
};

class Network {
public:
    // StarPU must be initialised. Parameters are drawn from seed; totals has room for `epochs`.
    static WorkloadResult<std::unique_ptr<Network>> create(const NetShape& shape,
                                                           std::uint64_t seed, std::size_t epochs);
    // The arena's destructor waits for the tasks still using the parameters.
    ~Network() = default;
    Network(const Network&) = delete;
    Network& operator=(const Network&) = delete;

    const NetShape& shape() const { return m_shape; }
    runtime::Arena& arena() { return m_arena; }
    ProgressSink& progress() { return m_progress; }
    // The convolution's and the dense layer's parameters (vectors of floats, weights then
    // biases), for the data-parallel exchange between ranks.
    std::array<starpu_data_handle_t, 2> paramHandles() const {
        return {m_conv.handle, m_dense.handle};
    }

    // Bytes submitBatch() allocates in the batch arena for a batch (alignment included).
    static std::size_t batchBytes(const NetShape& shape, std::size_t batchSize, std::size_t chunk);

    // Submits forward, backward and SGD tasks of one batch in chunks of `chunk` images; the
    // per-chunk buffers are allocated and registered in batchArena. Returns the task count.
    WorkloadResult<std::size_t> submitBatch(runtime::Arena& batchArena, const BatchInput& input,
                                            std::size_t chunk, float rate, std::size_t epoch);

    // Test images per evaluation wave: bounds the evaluation arena to a few MB.
    static constexpr std::size_t kEvalWave = 1000;

    // Forward passes over the first `limit` images of split (0: all) in chunks; blocks until
    // done. Works in waves of kEvalWave images, alternating between the two arenas: a wave is
    // converted and submitted while the workers still run the one before, whose results are
    // read only then, so the workers do not wait for the main thread between waves. An arena
    // is reset before its next wave (its last wave was read by then); the caller resets both
    // at the end.
    WorkloadResult<Evaluation> evaluate(const std::array<runtime::Arena*, 2>& arenas,
                                        const DatasetSplit& split, std::size_t limit,
                                        std::size_t chunk, std::uint64_t& tasks);

    // Per-epoch training totals; blocks until the submitted SGD tasks ran.
    std::vector<EpochTotals> totals();
    // Copies of the parameters; block until the submitted tasks on them ran.
    std::vector<float> convParams();
    std::vector<float> denseParams();

private:
    Network(const NetShape& shape);
    // A wave whose tasks are submitted: its images and one statistics vector per chunk.
    struct PendingWave {
        std::size_t images = 0;
        std::vector<runtime::ArenaVector<float>> stats;
    };
    WorkloadResult<PendingWave> submitWave(runtime::Arena& arena, const DatasetSplit& split,
                                           std::size_t firstImage, std::size_t count,
                                           std::size_t chunk, std::uint64_t& tasks);
    // Blocks until the wave's tasks ran and adds its loss and correct count to `into`.
    static void collectWave(const PendingWave& wave, double& lossSum, Evaluation& into);

    NetShape m_shape;
    runtime::Arena m_arena;
    ProgressSink m_progress;
    runtime::ArenaVector<float> m_conv;
    runtime::ArenaVector<float> m_dense;
    runtime::ArenaVector<double> m_totals;
};

} // namespace starscope::workloads::cnn
