#include "workloads/train/trainer.hpp"

#include "runtime/batch_arena_ring.hpp"
#include "workloads/cnn/network.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <memory>

namespace starscope::workloads {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

Unexpected<WorkloadError> fromRuntime(const runtime::RuntimeError& error) {
    return workloadError(ErrorCode::Runtime, error.message);
}

// Calls trainingFinished once, on every path out of run() after arenasCreated.
class FinishGuard {
public:
    FinishGuard(ArenaObserver* observer, std::span<const runtime::Arena* const> arenas)
        : m_observer(observer), m_arenas(arenas) {
        if (m_observer != nullptr) {
            m_observer->arenasCreated(m_arenas);
        }
    }
    ~FinishGuard() { finish(); }
    FinishGuard(const FinishGuard&) = delete;
    FinishGuard& operator=(const FinishGuard&) = delete;
    void finish() {
        if (m_observer != nullptr) {
            m_observer->trainingFinished(m_arenas);
            m_observer = nullptr;
        }
    }

private:
    ArenaObserver* m_observer;
    std::span<const runtime::Arena* const> m_arenas;
};

} // namespace

Trainer::Trainer(const MnistDataset& dataset, TrainConfig config)
    : m_dataset(dataset), m_config(config) {}

std::pair<std::size_t, std::size_t> Trainer::shard() const {
    const std::size_t used =
        m_config.trainLimit == 0
            ? m_dataset.train().count()
            : std::min<std::size_t>(m_config.trainLimit, m_dataset.train().count());
    const std::size_t count = used / std::max<std::size_t>(m_config.shardCount, 1);
    return {m_config.shardIndex * count, count};
}

std::size_t Trainer::batchesPerEpoch() const {
    const std::size_t images = shard().second;
    const std::size_t full = m_config.batchSize == 0 ? 0 : images / m_config.batchSize;
    return m_config.batchesPerEpoch == 0 ? full : std::min(full, m_config.batchesPerEpoch);
}

WorkloadResult<TrainReport> Trainer::run(const std::atomic<bool>& stop,
                                         const std::function<void(const Progress&)>& progress,
                                         ArenaObserver* observer, StepExchange* exchange) {
    const auto& train = m_dataset.train();
    const auto [trainFirst, trainCount] = shard();
    const std::size_t batches = batchesPerEpoch();
    if (batches == 0) {
        return workloadError(ErrorCode::InvalidArgument,
                             "batch size " + std::to_string(m_config.batchSize) + " exceeds the "
                                 + std::to_string(trainCount) + " training images",
                             "--batch-size");
    }
    cnn::NetShape shape;
    shape.rows = static_cast<int>(train.rows());
    shape.cols = static_cast<int>(train.cols());

    auto network = cnn::Network::create(shape, m_config.seed, m_config.epochs);
    if (!network) {
        return fail(network.error());
    }
    runtime::LoaderConfig loaderConfig;
    loaderConfig.images = {train.pixels() + trainFirst * train.rows() * train.cols(),
                           train.labelData() + trainFirst, trainCount, train.rows(), train.cols()};
    loaderConfig.batchSize = m_config.batchSize;
    loaderConfig.dropLast = true;
    const std::uint64_t seed = m_config.seed;
    loaderConfig.order = [trainCount, seed](std::size_t epoch) {
        return runtime::shuffledOrder(trainCount, seed, epoch);
    };
    auto loader = runtime::makeImageLoader(m_config.loader, std::move(loaderConfig));
    if (!loader) {
        return fromRuntime(loader.error());
    }
    // Declared after the network and loader: destroyed first, while the tasks reading the
    // loader's images and writing the network's parameters can still complete.
    // Batch arenas sized for one batch (and its images, which the naive loader puts there), so
    // that a slot is one block and its reserved bytes match what a batch needs.
    runtime::ArenaOptions batchOptions;
    batchOptions.firstBlockBytes =
        cnn::Network::batchBytes(shape, m_config.batchSize, m_config.chunk)
        + m_config.batchSize * (shape.imageSize() * sizeof(float) + 2 * sizeof(std::int32_t))
        + (std::size_t{64} << 10);
    runtime::BatchArenaRing ring(m_config.ringSlots, "batch", batchOptions);
    // One block for an evaluation wave: its float test images and four activation sets. Two
    // arenas, so that a wave is prepared while the workers run the one before.
    runtime::ArenaOptions evalOptions;
    evalOptions.firstBlockBytes =
        cnn::Network::kEvalWave * (shape.imageSize() * sizeof(float) + 256)
        + 4 * m_config.evalChunk * (shape.convSize() + 2 * shape.pooledSize()) * sizeof(float)
        + (std::size_t{1} << 20);
    runtime::Arena evalFirst("eval0", evalOptions);
    runtime::Arena evalSecond("eval1", evalOptions);
    const std::array<runtime::Arena*, 2> evalArenas{&evalFirst, &evalSecond};

    std::vector<const runtime::Arena*> arenas{&(*network)->arena()};
    std::vector<std::string> roles{"network"};
    for (std::size_t i = 0; i < ring.size(); ++i) {
        arenas.push_back(&ring.slot(i));
        roles.emplace_back("batch");
    }
    for (const auto* arena : (*loader)->arenas()) {
        arenas.push_back(arena);
        roles.emplace_back("loader");
    }
    for (const auto* arena : evalArenas) {
        arenas.push_back(arena);
        roles.emplace_back("eval");
    }
    FinishGuard guard(observer, arenas);

    TrainReport report;
    const auto start = Clock::now();
    std::vector<double> epochSeconds;
    Progress state;
    state.epochs = m_config.epochs;
    state.batches = batches;
    state.batchesTotal = batches * m_config.epochs;
    std::size_t epochsStarted = 0;
    for (std::size_t epoch = 0; epoch < m_config.epochs && !report.interrupted; ++epoch) {
        const auto epochStart = Clock::now();
        ++epochsStarted;
        for (std::size_t b = 0; b < batches; ++b) {
            const bool stopAsked = stop.load(std::memory_order_relaxed);
            if (exchange != nullptr ? exchange->agreeStop(stopAsked) : stopAsked) {
                report.interrupted = true;
                break;
            }
            const auto e = static_cast<std::int64_t>(epoch);
            runtime::Arena& arena = ring.beginBatch(e, static_cast<std::int64_t>(b));
            auto batch = (*loader)->batch(epoch, b, arena);
            if (!batch) {
                return fromRuntime(batch.error());
            }
            ++report.batchesLoaded;
            auto tasks = (*network)->submitBatch(arena, {batch->images, batch->labels, batch->size},
                                                 m_config.chunk, m_config.learningRate, epoch);
            if (!tasks) {
                return fail(tasks.error());
            }
            report.tasksSubmitted += *tasks;
            if (exchange != nullptr) {
                auto exchanged =
                    exchange->afterBatch((*network)->paramHandles(), epoch * batches + b);
                if (!exchanged) {
                    return fail(exchanged.error());
                }
                report.tasksSubmitted += *exchanged;
            }
            // Only batches this run uses are prefetched (--batches may stop an epoch early).
            if (b + 1 < batches) {
                auto ahead = (*loader)->prefetch(epoch, b + 1);
                if (!ahead) {
                    return fromRuntime(ahead.error());
                }
            } else if (epoch + 1 < m_config.epochs) {
                auto ahead = (*loader)->prefetch(epoch + 1, 0);
                if (!ahead) {
                    return fromRuntime(ahead.error());
                }
            }
            ring.endBatch(e, static_cast<std::int64_t>(b));
            if (progress) {
                state.epoch = epoch;
                state.batch = b + 1;
                state.batchesDone =
                    (*network)->progress().batchesDone.load(std::memory_order_relaxed);
                state.lastLoss =
                    (*network)->progress().lastBatchLoss.load(std::memory_order_relaxed);
                state.elapsedSeconds = secondsSince(start);
                progress(state);
            }
        }
        epochSeconds.push_back(secondsSince(epochStart));
    }
    ring.drain();
    (*loader)->drain();
    report.tasksSubmitted += (*loader)->tasksSubmitted();
    const auto totals = (*network)->totals();
    if (m_config.keepParams) {
        report.convParams = (*network)->convParams();
        report.denseParams = (*network)->denseParams();
    }
    report.trainSeconds = secondsSince(start);
    // The last epoch's time includes waiting for its tasks to finish.
    if (!epochSeconds.empty()) {
        double before = 0.0;
        for (std::size_t e = 0; e + 1 < epochSeconds.size(); ++e) {
            before += epochSeconds[e];
        }
        epochSeconds.back() = report.trainSeconds - before;
    }
    for (std::size_t e = 0; e < epochsStarted; ++e) {
        EpochReport epochReport;
        epochReport.epoch = e;
        epochReport.seconds = epochSeconds[e];
        const auto& t = totals.at(e);
        epochReport.batches =
            t.samples > 0 ? static_cast<std::size_t>(t.samples) / m_config.batchSize : 0;
        if (t.samples > 0) {
            epochReport.loss = t.lossSum / t.samples;
            epochReport.accuracy = t.correct / t.samples;
        }
        report.epochs.push_back(epochReport);
    }

    if (m_config.evaluate && !report.interrupted) {
        const auto evalStart = Clock::now();
        auto evaluation = (*network)->evaluate(evalArenas, m_dataset.test(), m_config.testLimit,
                                               m_config.evalChunk, report.tasksSubmitted);
        if (!evaluation) {
            return fail(evaluation.error());
        }
        report.testAccuracy = evaluation->accuracy();
        report.testLoss = evaluation->meanLoss;
        report.testImages = evaluation->images;
        report.evalSeconds = secondsSince(evalStart);
    }
    guard.finish();
    for (std::size_t i = 0; i < arenas.size(); ++i) {
        report.arenas.push_back({arenas[i]->name(), roles[i], arenas[i]->stats()});
    }
    for (auto* arena : evalArenas) {
        arena->reset();
    }
    return report;
}

} // namespace starscope::workloads
