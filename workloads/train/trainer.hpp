#pragma once
// The training loop: per batch, begin a ring slot (the reset that may wait: the barrier being
// measured), get the batch from the chosen loader, submit the network's tasks, ask the loader
// to prefetch the next batch, end the slot. No wait inside a batch; the caller's stop flag is
// honoured at batch boundaries.

#include "runtime/arena.hpp"
#include "runtime/image_loader.hpp"
#include "workloads/cnn/shape.hpp"
#include "workloads/dataset/mnist_dataset.hpp"
#include "workloads/error.hpp"
#include "workloads/train/step_exchange.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace starscope::workloads {

struct TrainConfig {
    std::size_t epochs = 1;
    // Batches per epoch; 0: every full batch of the training images used.
    std::size_t batchesPerEpoch = 0;
    std::size_t batchSize = 64;
    std::size_t chunk = 32;
    std::size_t ringSlots = 1;
    runtime::LoaderKind loader = runtime::LoaderKind::Naive;
    float learningRate = 0.1F;
    std::uint64_t seed = 42;
    // Use only the first trainLimit training / testLimit test images (0: all).
    std::size_t trainLimit = 0;
    std::size_t testLimit = 0;
    // Data parallelism: this process trains on shard shardIndex of shardCount equal, contiguous
    // parts of the training images used (equal, so every rank runs the same batches).
    std::size_t shardIndex = 0;
    std::size_t shardCount = 1;
    bool evaluate = true;
    // Images per task in the test-set evaluation.
    std::size_t evalChunk = 50;
    // Copy the trained parameters into the report (tests compare them).
    bool keepParams = false;
};

struct EpochReport {
    std::size_t epoch = 0;
    std::size_t batches = 0;
    double loss = 0.0;     // mean training cross-entropy over the epoch's batches
    double accuracy = 0.0; // training accuracy, measured before each batch's update
    double seconds = 0.0;  // wall time from this epoch's first submission to the next's
};

struct ArenaReport {
    std::string name;
    std::string role; // "network", "batch", "loader", "eval"
    runtime::ArenaStats stats;
};

struct TrainReport {
    std::vector<EpochReport> epochs;
    std::optional<double> testAccuracy; // absent when interrupted or not evaluated
    std::optional<double> testLoss;
    std::size_t testImages = 0;
    bool interrupted = false;
    std::uint64_t tasksSubmitted = 0; // training, loader and evaluation tasks
    std::uint64_t batchesLoaded = 0;
    std::vector<ArenaReport> arenas;
    double trainSeconds = 0.0; // training, until every training task finished
    double evalSeconds = 0.0;
    // With TrainConfig::keepParams: weights then biases, per layer.
    std::vector<float> convParams;
    std::vector<float> denseParams;
};

struct Progress {
    std::size_t epoch = 0;
    std::size_t epochs = 0;
    std::size_t batch = 0; // batches of this epoch submitted so far
    std::size_t batches = 0;
    std::size_t batchesDone = 0; // over the run, as reported by finished SGD tasks
    std::size_t batchesTotal = 0;
    float lastLoss = 0.0F; // of the last finished batch
    double elapsedSeconds = 0.0;
};

// Sees every arena of the run while it is alive: to export counters on them, and to read
// them back before they are destroyed.
class ArenaObserver {
public:
    virtual ~ArenaObserver() = default;
    virtual void arenasCreated(std::span<const runtime::Arena* const> arenas) = 0;
    // Training finished (or stopped); the arenas are drained but still alive.
    virtual void trainingFinished(std::span<const runtime::Arena* const> arenas) = 0;
};

class Trainer {
public:
    Trainer(const MnistDataset& dataset, TrainConfig config);

    // Batches per epoch the configuration yields (after trainLimit, the shard and
    // batchesPerEpoch).
    std::size_t batchesPerEpoch() const;

    // Runs the training (and the test evaluation); StarPU must be initialised. stop is read at
    // every batch boundary. With an exchange (data-parallel ranks), the parameters are
    // exchanged after every batch and the stop is agreed between the ranks.
    WorkloadResult<TrainReport> run(const std::atomic<bool>& stop,
                                    const std::function<void(const Progress&)>& progress = {},
                                    ArenaObserver* observer = nullptr,
                                    StepExchange* exchange = nullptr);

private:
    // The training images this process uses: first image and count.
    std::pair<std::size_t, std::size_t> shard() const;

    const MnistDataset& m_dataset;
    TrainConfig m_config;
};

} // namespace starscope::workloads
