#pragma once
// Image loaders: hand the training loop batch b of a dataset as registered StarPU handles on
// arena memory. Four strategies behind one interface, to measure what loading costs at batch
// transitions:
//
//  kind            name               conversion runs    arena of the batch     reset used
//  --------------  -----------------  -----------------  ---------------------  ------------------
//  naive           "naive"            main thread, in    the caller's batch     the ring's blocking
//                                     batch()            arena (ring slot)      reset
//  prefetch        "prefetch"         StarPU task        1 loader arena         blocking reset in
//                                     "starscope_load"                          prefetch(): waits
//                                     submitted by                              for the tasks of
//                                     prefetch()                                the batch just
//                                                                               submitted
//  doublePrefetch  "double-prefetch"  StarPU task        2 loader arenas        blocking reset of
//                                                        (batch k: k % 2)       batch k-2's arena
//  advanced        "advanced"         StarPU task        3 loader arenas        Arena::resetDeferred
//                                                        (batch k: k % 3)       of batch k-3's
//                                                                               arena: never waits
//
// The prefetching loaders submit the conversion as a task writing (STARPU_W) the images and
// labels handles, so the trainer's tasks reading them are ordered after it by StarPU's data
// dependencies: the main thread never waits for the conversion itself. Loader arenas are named
// "<prefix><i>" ("loader0", ...), k counts loads over the whole run.
//
// Data handed out, for a batch of n samples (n = batchSize, or fewer for a last partial batch
// when dropLast is false):
//  - images: a StarPU vector handle of n * rows * cols floats, laid out n x 1 x rows x cols
//    (NCHW, one channel, row-major), each pixel p (0..255) normalised as
//        (p / 255 - 0.1307) / 0.3081
//    (MNIST's training-set mean and standard deviation, as torchvision's MNIST example);
//  - labels: a StarPU vector handle of n int32 class indices (0..9 for MNIST).
// Both are registered and tracked by the arena that holds them: the trainer only reads them
// (STARPU_R) and never unregisters them. They stay valid until that arena is reset: for naive,
// until the ring slot is reused; for the others, until the loader reuses its arena (see table).
//
// Not thread-safe: call from the submitting thread. The dataset memory (ImageSet) must outlive
// the loader and every task it submitted. Destroy the loader before starpu_shutdown (its
// arenas wait for their tasks and unregister their handles).

#include "runtime/arena.hpp"
#include "runtime/error.hpp"

#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starscope::runtime {

// A read-only view of a dataset as stored in IDX files (e.g. memory-mapped by workloads/).
struct ImageSet {
    const std::uint8_t* pixels = nullptr; // count * rows * cols bytes, image after image, row-major
    const std::uint8_t* labels = nullptr; // count bytes
    std::size_t count = 0;
    std::size_t rows = 0;
    std::size_t cols = 0;
};

inline constexpr float kMnistMean = 0.1307F;
inline constexpr float kMnistStd = 0.3081F;

// The normalisation every loader applies to pixel p.
inline float normalizePixel(std::uint8_t p) {
    return (static_cast<float>(p) / 255.0F - kMnistMean) / kMnistStd;
}
// normalizePixel on `count` pixels, vectorised: the very same floats, several times faster.
void normalizePixels(const std::uint8_t* pixels, std::size_t count, float* out);

enum class LoaderKind : std::uint8_t { Naive, Prefetch, Advanced, DoublePrefetch };

// "naive", "prefetch", "advanced", "double-prefetch".
std::string_view loaderKindName(LoaderKind kind);
// Inverse of loaderKindName; UnknownLoader error listing the accepted names otherwise.
RuntimeResult<LoaderKind> parseLoaderKind(std::string_view name);
std::span<const LoaderKind> allLoaderKinds();

// Sample order of one epoch: a permutation of 0..count-1.
using SampleOrder = std::function<std::vector<std::uint32_t>(std::size_t epoch)>;

// A deterministic shuffle (SplitMix64-driven Fisher-Yates, identical on every platform) of
// 0..count-1 for (seed, epoch). Ready to use as a SampleOrder.
std::vector<std::uint32_t> shuffledOrder(std::size_t count, std::uint64_t seed, std::size_t epoch);

struct LoaderConfig {
    ImageSet images;
    std::size_t batchSize = 64;
    // Leave out the last partial batch (every batch then has batchSize samples).
    bool dropLast = true;
    // Per-epoch order; empty: the dataset's order 0..count-1 every epoch. Called once per
    // epoch; must return a permutation of 0..count-1 (checked).
    SampleOrder order;
    // Options of the loader's own arenas (not used by naive).
    ArenaOptions arenaOptions;
    std::string arenaPrefix = "loader";
};

struct LoadedBatch {
    std::size_t epoch = 0;
    std::size_t index = 0; // batch index within the epoch
    std::size_t size = 0;  // samples in this batch
    std::size_t rows = 0;
    std::size_t cols = 0;
    starpu_data_handle_t images = nullptr; // vector of size * rows * cols float
    starpu_data_handle_t labels = nullptr; // vector of size int32
    // The same memory, for tests and debugging. For the prefetching loaders a StarPU task
    // writes it: acquire the handle (starpu_data_acquire, STARPU_R) before reading it here.
    const float* imageData = nullptr;
    const std::int32_t* labelData = nullptr;
    // Dataset indices of the samples, in arena memory (valid as long as the data).
    std::span<const std::uint32_t> samples;
    // Loader arena slot holding the batch, or -1 when it is in the caller's batch arena.
    int loaderSlot = -1;
};

class ImageLoader {
public:
    virtual ~ImageLoader();
    ImageLoader(const ImageLoader&) = delete;
    ImageLoader& operator=(const ImageLoader&) = delete;

    LoaderKind kind() const { return m_kind; }
    std::size_t batchSize() const { return m_config.batchSize; }
    std::size_t batchesPerEpoch() const;
    const ImageSet& images() const { return m_config.images; }
    // The sample order of `epoch`: config().order(epoch), checked to be a permutation, or the
    // identity. Cached for the epoch last asked; the span is valid until another epoch is.
    RuntimeResult<std::span<const std::uint32_t>> sampleOrder(std::size_t epoch);
    // Samples in batch `index` (batchSize, or fewer for the last one when dropLast is false).
    std::size_t samplesInBatch(std::size_t index) const;

    // Batch `index` of `epoch`: the prefetched one when prefetch(epoch, index) ran before,
    // loaded now otherwise. batchArena is the ring arena of this batch; naive loads into it,
    // the others ignore it. Writes load_begin/load_end (naive) markers.
    virtual RuntimeResult<LoadedBatch> batch(std::size_t epoch, std::size_t index,
                                             Arena& batchArena) = 0;
    // Prepares batch `index` of `epoch` ahead: call after submitting the current batch's tasks
    // (index may be batchesPerEpoch(): nothing to do; or (epoch + 1, 0) across epochs).
    // Writes prefetch_begin/prefetch_end around the reset and the submission. naive: no-op.
    virtual RuntimeResult<Done> prefetch(std::size_t epoch, std::size_t index) = 0;

    // The loader's own arenas (empty for naive), e.g. for ArenaCounters and run statistics.
    virtual std::vector<const Arena*> arenas() const = 0;
    // Waits for every load and task on the loader's arenas and resets them (end of training).
    virtual void drain() = 0;
    // StarPU tasks this loader submitted (the prefetching kinds' conversions; naive: none), so
    // that a run's count of submitted tasks matches what StarPU's workers executed.
    std::uint64_t tasksSubmitted() const { return m_tasksSubmitted; }

protected:
    ImageLoader(LoaderKind kind, LoaderConfig config);
    const LoaderConfig& config() const { return m_config; }
    void countSubmittedTask() { ++m_tasksSubmitted; }

private:
    LoaderKind m_kind;
    LoaderConfig m_config;
    std::optional<std::size_t> m_orderEpoch;
    std::vector<std::uint32_t> m_order;
    std::uint64_t m_tasksSubmitted = 0;
};

// Checks the configuration (non-null data, count, rows, cols, batchSize > 0, at least one
// batch) and builds the loader. StarPU must be initialised for the prefetching kinds.
RuntimeResult<std::unique_ptr<ImageLoader>> makeImageLoader(LoaderKind kind, LoaderConfig config);

} // namespace starscope::runtime
