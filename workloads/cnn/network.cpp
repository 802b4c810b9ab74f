#include "workloads/cnn/network.hpp"

#include "runtime/image_loader.hpp"
#include "workloads/cnn/kernels.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

namespace starscope::workloads::cnn {

namespace {

Unexpected<WorkloadError> fromRuntime(const runtime::RuntimeError& error) {
    return workloadError(ErrorCode::Runtime, error.message);
}

WorkloadResult<Done> checkInsert(int status, const starpu_codelet& codelet) {
    if (status != 0) {
        return workloadError(ErrorCode::Runtime, std::string("starpu_task_insert(") + codelet.name
                                                     + ") failed: " + std::strerror(-status));
    }
    return Done{};
}

template <typename T>
bool allocate(runtime::Arena& arena, std::size_t count, runtime::ArenaVector<T>& out,
              runtime::RuntimeError& error) {
    auto vector = arena.allocateVector<T>(count);
    if (!vector) {
        error = vector.error();
        return false;
    }
    out = *vector;
    return true;
}

} // namespace

Network::Network(const NetShape& shape) : m_shape(shape), m_arena("network") {}

WorkloadResult<std::unique_ptr<Network>> Network::create(const NetShape& shape, std::uint64_t seed,
                                                         std::size_t epochs) {
    std::unique_ptr<Network> network(new Network(shape));
    auto conv = network->m_arena.allocateVector<float>(shape.convParamCount());
    if (!conv) {
        return fromRuntime(conv.error());
    }
    auto dense = network->m_arena.allocateVector<float>(shape.denseParamCount());
    if (!dense) {
        return fromRuntime(dense.error());
    }
    auto totals = network->m_arena.allocateVector<double>(std::max<std::size_t>(epochs, 1)
                                                          * kEpochTotalsSize);
    if (!totals) {
        return fromRuntime(totals.error());
    }
    network->m_conv = *conv;
    network->m_dense = *dense;
    network->m_totals = *totals;
    // Nothing uses the handles yet: writing the registered memory directly is safe.
    initParams(shape, seed, conv->data, dense->data);
    std::fill_n(totals->data, totals->count, 0.0);
    return network;
}

std::size_t Network::batchBytes(const NetShape& s, std::size_t batchSize, std::size_t chunk) {
    constexpr std::size_t kAlignmentSlack = 64; // one workspace per chunk
    std::size_t bytes = 0;
    for (std::size_t first = 0; first < batchSize; first += chunk) {
        const std::size_t n = std::min(chunk, batchSize - first);
        bytes += sizeof(float) * ChunkLayout::training(s, n).floats + kAlignmentSlack;
    }
    return bytes;
}

WorkloadResult<std::size_t> Network::submitBatch(runtime::Arena& batchArena,
                                                 const BatchInput& input, std::size_t chunk,
                                                 float rate, std::size_t epoch) {
    const NetShape& s = m_shape;
    const std::size_t chunks = (input.size + chunk - 1) / chunk;
    // One workspace per chunk (ChunkLayout), so one handle per chunk in the batch arena.
    std::vector<runtime::ArenaVector<float>> work(chunks);
    std::vector<ChunkLayout> layouts(chunks);
    runtime::RuntimeError error;
    for (std::size_t c = 0; c < chunks; ++c) {
        layouts[c] = ChunkLayout::training(s, std::min(chunk, input.size - c * chunk));
        if (!allocate(batchArena, layouts[c].floats, work[c], error)) {
            return fromRuntime(error);
        }
    }

    std::size_t tasks = 0;
    // Layer by layer across chunks, so that every chunk's forward pass is queued before any
    // backward pass: workers get independent work from the start of the batch.
    const auto forEachChunk = [&](const auto& submit) -> WorkloadResult<Done> {
        for (std::size_t c = 0; c < chunks; ++c) {
            ChunkArgs args;
            args.shape = s;
            args.layout = layouts[c];
            args.first = static_cast<std::int32_t>(c * chunk);
            args.count = static_cast<std::int32_t>(std::min(chunk, input.size - c * chunk));
            args.gradScale = 1.0F / static_cast<float>(input.size);
            auto done = submit(work[c].handle, args);
            if (!done) {
                return done;
            }
            ++tasks;
        }
        return Done{};
    };
    const auto insert = [](starpu_codelet& codelet, auto... rest) {
        return checkInsert(starpu_task_insert(&codelet, rest..., 0), codelet);
    };

    WorkloadResult<Done> step = forEachChunk([&](starpu_data_handle_t w, ChunkArgs& args) {
        return insert(convPoolForwardCodelet(), STARPU_R, input.images, STARPU_R, m_conv.handle,
                      STARPU_W, w, STARPU_VALUE, &args, sizeof args);
    });
    if (step) {
        step = forEachChunk([&](starpu_data_handle_t w, ChunkArgs& args) {
            return insert(denseCodelet(), STARPU_RW, w, STARPU_R, m_dense.handle, STARPU_R,
                          input.labels, STARPU_VALUE, &args, sizeof args);
        });
    }
    if (step) {
        step = forEachChunk([&](starpu_data_handle_t w, ChunkArgs& args) {
            return insert(poolConvBackwardCodelet(), STARPU_RW, w, STARPU_R, input.images,
                          STARPU_VALUE, &args, sizeof args);
        });
    }
    if (!step) {
        return fail(step.error());
    }

    std::vector<starpu_data_descr> descr;
    descr.push_back({m_conv.handle, STARPU_RW});
    for (const auto& w : work) {
        descr.push_back({w.handle, STARPU_R});
    }
    SgdArgs convArgs;
    convArgs.rate = rate;
    convArgs.grads = static_cast<std::int32_t>(chunks);
    convArgs.size = s.convParamCount();
    convArgs.offset = layouts.front().convGrad;
    step = insert(sgdConvCodelet(), STARPU_DATA_MODE_ARRAY, descr.data(),
                  static_cast<int>(descr.size()), STARPU_VALUE, &convArgs, sizeof convArgs);
    if (!step) {
        return fail(step.error());
    }
    descr.clear();
    descr.push_back({m_dense.handle, STARPU_RW});
    descr.push_back({m_totals.handle, STARPU_RW});
    for (const auto& w : work) {
        descr.push_back({w.handle, STARPU_R});
    }
    SgdArgs denseArgs;
    denseArgs.rate = rate;
    denseArgs.grads = static_cast<std::int32_t>(chunks);
    denseArgs.size = s.denseParamCount();
    denseArgs.offset = layouts.front().denseGrad;
    denseArgs.epoch = static_cast<std::int32_t>(epoch);
    denseArgs.samples = static_cast<std::int32_t>(input.size);
    denseArgs.sink = &m_progress;
    step = insert(sgdDenseCodelet(), STARPU_DATA_MODE_ARRAY, descr.data(),
                  static_cast<int>(descr.size()), STARPU_VALUE, &denseArgs, sizeof denseArgs);
    if (!step) {
        return fail(step.error());
    }
    return tasks + 2;
}

WorkloadResult<Evaluation> Network::evaluate(const std::array<runtime::Arena*, 2>& arenas,
                                             const DatasetSplit& split, std::size_t limit,
                                             std::size_t chunk, std::uint64_t& tasks) {
    const std::size_t count =
        limit == 0 ? split.count() : std::min<std::size_t>(limit, split.count());
    Evaluation result;
    double lossSum = 0.0;
    std::optional<PendingWave> previous;
    for (std::size_t first = 0, wave = 0; first < count; first += kEvalWave, ++wave) {
        runtime::Arena& arena = *arenas[wave % arenas.size()];
        // Its last wave, two waves ago, was read: the reset finds its tasks done.
        arena.reset();
        auto submitted =
            submitWave(arena, split, first, std::min(kEvalWave, count - first), chunk, tasks);
        if (!submitted) {
            return fail(submitted.error());
        }
        if (previous) {
            collectWave(*previous, lossSum, result);
        }
        previous = std::move(*submitted);
    }
    if (previous) {
        collectWave(*previous, lossSum, result);
    }
    result.meanLoss = count == 0 ? 0.0 : lossSum / static_cast<double>(count);
    return result;
}

WorkloadResult<Network::PendingWave> Network::submitWave(runtime::Arena& arena,
                                                         const DatasetSplit& split,
                                                         std::size_t firstImage, std::size_t count,
                                                         std::size_t chunk, std::uint64_t& tasks) {
    const NetShape& s = m_shape;
    auto images = arena.allocateVector<float>(count * s.imageSize());
    if (!images) {
        return fromRuntime(images.error());
    }
    auto labels = arena.allocateVector<std::int32_t>(count);
    if (!labels) {
        return fromRuntime(labels.error());
    }
    // No task has used these handles yet: filling their memory from here is safe.
    const std::uint8_t* pixels = split.pixels() + firstImage * s.imageSize();
    runtime::normalizePixels(pixels, count * s.imageSize(), images->data);
    const std::uint8_t* labelData = split.labelData() + firstImage;
    std::transform(labelData, labelData + count, labels->data,
                   [](std::uint8_t label) { return static_cast<std::int32_t>(label); });

    const std::size_t chunks = (count + chunk - 1) / chunk;
    std::vector<runtime::ArenaVector<float>> stats(chunks);
    // A few workspaces (convOut, pooled, argmax: ChunkLayout::evaluation), reused round-robin:
    // StarPU orders a chunk's writes after the previous user's reads, and memory stays bounded
    // whatever the test-set size.
    const ChunkLayout layout = ChunkLayout::evaluation(s, chunk);
    constexpr std::size_t kSets = 4;
    std::vector<runtime::ArenaVector<float>> sets(std::min(kSets, chunks));
    runtime::RuntimeError error;
    for (auto& set : sets) {
        if (!allocate(arena, layout.floats, set, error)) {
            return fromRuntime(error);
        }
    }
    for (std::size_t c = 0; c < chunks; ++c) {
        const std::size_t n = std::min(chunk, count - c * chunk);
        const starpu_data_handle_t work = sets[c % sets.size()].handle;
        if (!allocate(arena, std::size_t{kStatsSize}, stats[c], error)) {
            return fromRuntime(error);
        }
        ChunkArgs args;
        args.shape = s;
        args.layout = layout;
        args.first = static_cast<std::int32_t>(c * chunk);
        args.count = static_cast<std::int32_t>(n);
        auto step = checkInsert(starpu_task_insert(&convPoolForwardCodelet(), STARPU_R,
                                                   images->handle, STARPU_R, m_conv.handle,
                                                   STARPU_W, work, STARPU_VALUE, &args, sizeof args, 0),
                                convPoolForwardCodelet());
        if (step) {
            step = checkInsert(starpu_task_insert(&evalDenseCodelet(), STARPU_R, work, STARPU_R,
                                                  m_dense.handle, STARPU_R, labels->handle,
                                                  STARPU_W, stats[c].handle, STARPU_VALUE, &args,
                                                  sizeof args, 0),
                               evalDenseCodelet());
        }
        if (!step) {
            return fail(step.error());
        }
        tasks += 2;
    }
    return PendingWave{count, std::move(stats)};
}

void Network::collectWave(const PendingWave& wave, double& lossSum, Evaluation& into) {
    for (const auto& chunkStats : wave.stats) {
        starpu_data_acquire(chunkStats.handle, STARPU_R);
        lossSum += static_cast<double>(chunkStats.data[0]);
        into.correct += static_cast<std::size_t>(chunkStats.data[1]);
        starpu_data_release(chunkStats.handle);
    }
    into.images += wave.images;
}

std::vector<EpochTotals> Network::totals() {
    starpu_data_acquire(m_totals.handle, STARPU_R);
    std::vector<EpochTotals> out(m_totals.count / kEpochTotalsSize);
    for (std::size_t e = 0; e < out.size(); ++e) {
        const double* t = m_totals.data + e * kEpochTotalsSize;
        out[e] = {t[0], t[1], t[2]};
    }
    starpu_data_release(m_totals.handle);
    return out;
}

namespace {

std::vector<float> copyOut(const runtime::ArenaVector<float>& vector) {
    starpu_data_acquire(vector.handle, STARPU_R);
    std::vector<float> out(vector.data, vector.data + vector.count);
    starpu_data_release(vector.handle);
    return out;
}

} // namespace

std::vector<float> Network::convParams() {
    return copyOut(m_conv);
}
std::vector<float> Network::denseParams() {
    return copyOut(m_dense);
}

} // namespace starscope::workloads::cnn
