// Image loaders: every strategy hands out exactly the pixels and labels of the real MNIST IDX
// files (read here directly, header parsed by the test), normalised as documented, in the
// order asked, through a ring and a simulated training loop that reads the handles in tasks.

#include "runtime/batch_arena_ring.hpp"
#include "runtime/detail/loaders.hpp"
#include "runtime/image_loader.hpp"
#include "tests/runtime/starpu_environment.hpp"

#include <gtest/gtest.h>
#include <starpu.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <string>

using namespace starscope::runtime;
using starscope::runtime::testing::IdxData;
using starscope::runtime::testing::readMnist;

namespace {

// What a training task does with a batch: reads both handles.
std::atomic<long> g_readerTasks{0};

void readerTask(void* buffers[], void* /*arg*/) {
    const auto* images = reinterpret_cast<const float*>(STARPU_VECTOR_GET_PTR(buffers[0]));
    const std::size_t n = STARPU_VECTOR_GET_NX(buffers[0]);
    volatile float sum = 0;
    for (std::size_t i = 0; i < n; i += 97) {
        sum = sum + images[i];
    }
    g_readerTasks.fetch_add(1, std::memory_order_relaxed);
}

starpu_codelet* readerCodelet() {
    static starpu_codelet codelet = [] {
        starpu_codelet c;
        starpu_codelet_init(&c);
        c.cpu_funcs[0] = readerTask;
        c.nbuffers = 2;
        c.modes[0] = STARPU_R;
        c.modes[1] = STARPU_R;
        c.name = "test_reader";
        return c;
    }();
    return &codelet;
}

const IdxData& mnist() {
    static const IdxData data = readMnist("t10k");
    return data;
}

ImageSet viewOf(const IdxData& data) {
    return ImageSet{data.pixels.data(), data.labels.data(), data.count, data.rows, data.cols};
}

// Compares one handed-out batch with the IDX bytes; returns the number of mismatching values.
std::size_t mismatches(const LoadedBatch& batch, const IdxData& data,
                       std::span<const std::uint32_t> expectedSamples) {
    std::size_t bad = 0;
    EXPECT_EQ(starpu_data_acquire(batch.images, STARPU_R), 0);
    EXPECT_EQ(starpu_data_acquire(batch.labels, STARPU_R), 0);
    EXPECT_EQ(starpu_vector_get_nx(batch.images), batch.size * data.rows * data.cols);
    EXPECT_EQ(starpu_vector_get_elemsize(batch.images), sizeof(float));
    EXPECT_EQ(starpu_vector_get_nx(batch.labels), batch.size);
    EXPECT_EQ(starpu_vector_get_elemsize(batch.labels), sizeof(std::int32_t));
    const std::size_t pixels = data.rows * data.cols;
    for (std::size_t i = 0; i < batch.size; ++i) {
        const std::uint32_t sample = batch.samples[i];
        bad += sample != expectedSamples[i];
        for (std::size_t p = 0; p < pixels; ++p) {
            const float expected =
                (static_cast<float>(data.pixels[sample * pixels + p]) / 255.0F - 0.1307F) / 0.3081F;
            bad += batch.imageData[i * pixels + p] != expected;
        }
        bad += batch.labelData[i] != static_cast<std::int32_t>(data.labels[sample]);
    }
    starpu_data_release(batch.labels);
    starpu_data_release(batch.images);
    return bad;
}

class EveryLoader : public ::testing::TestWithParam<LoaderKind> {};

std::string kindTestName(const ::testing::TestParamInfo<LoaderKind>& info) {
    std::string name(loaderKindName(info.param));
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

} // namespace

TEST(ConvertSamples, GivesNormalizePixelsFloatForEveryByteValueAndPicksTheSamples) {
    // Three 16x16 images: 0..255, 255..0, and a constant; the vectorised conversion must hand
    // out exactly normalizePixel's floats (what the reference kernels and tests compute).
    constexpr std::size_t kSide = 16;
    constexpr std::size_t kPixels = kSide * kSide;
    std::vector<std::uint8_t> pixels(3 * kPixels);
    for (std::size_t p = 0; p < kPixels; ++p) {
        pixels[p] = static_cast<std::uint8_t>(p);
        pixels[kPixels + p] = static_cast<std::uint8_t>(255 - p);
        pixels[2 * kPixels + p] = 7;
    }
    const std::vector<std::uint8_t> labels{3, 1, 4};
    const ImageSet set{pixels.data(), labels.data(), 3, kSide, kSide};
    const std::vector<std::uint32_t> samples{2, 0, 1, 0};
    std::vector<float> images(samples.size() * kPixels, -1.0F);
    std::vector<std::int32_t> outLabels(samples.size(), -1);
    detail::convertSamples(set, samples.data(), samples.size(), images.data(), outLabels.data());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        for (std::size_t p = 0; p < kPixels; ++p) {
            bad += images[i * kPixels + p] != normalizePixel(pixels[samples[i] * kPixels + p]);
        }
    }
    EXPECT_EQ(bad, 0U);
    EXPECT_EQ(outLabels, (std::vector<std::int32_t>{4, 3, 1, 3}));
}

TEST(LoaderKind, NamesRoundTripAndUnknownNamesAreRejected) {
    for (const auto kind : allLoaderKinds()) {
        auto parsed = parseLoaderKind(loaderKindName(kind));
        ASSERT_TRUE(parsed);
        EXPECT_EQ(*parsed, kind);
    }
    EXPECT_EQ(loaderKindName(LoaderKind::DoublePrefetch), "double-prefetch");
    auto bad = parseLoaderKind("eager");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code, RuntimeErrorCode::UnknownLoader);
    EXPECT_EQ(bad.error().message,
              "unknown loader 'eager' (expected one of: naive, prefetch, advanced, "
              "double-prefetch)");
}

TEST(ShuffledOrder, IsADeterministicPermutationThatChangesPerEpoch) {
    const auto a = shuffledOrder(1000, 7, 0);
    const auto b = shuffledOrder(1000, 7, 0);
    const auto c = shuffledOrder(1000, 7, 1);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    auto sorted = a;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::uint32_t> identity(1000);
    std::iota(identity.begin(), identity.end(), 0U);
    EXPECT_EQ(sorted, identity);
}

TEST(ImageLoader, RejectsBadConfigurationsWithAClearMessage) {
    const auto& data = mnist();
    LoaderConfig config;
    config.images = viewOf(data);
    config.batchSize = 0;
    auto zero = makeImageLoader(LoaderKind::Naive, config);
    ASSERT_FALSE(zero);
    EXPECT_NE(zero.error().message.find("batch size 0"), std::string::npos);

    config.batchSize = 64;
    config.images.pixels = nullptr;
    EXPECT_FALSE(makeImageLoader(LoaderKind::Prefetch, config));

    config.images = viewOf(data);
    config.order = [](std::size_t) { return std::vector<std::uint32_t>{0, 1, 2}; };
    auto loader = makeImageLoader(LoaderKind::Naive, config);
    ASSERT_TRUE(loader);
    auto order = (*loader)->sampleOrder(0);
    ASSERT_FALSE(order);
    EXPECT_EQ(order.error().message, "sample order of epoch 0: 3 indices for 10000 images");
}

TEST(ImageLoader, LastPartialBatchIsKeptWithoutDropLast) {
    const auto& data = mnist();
    ASSERT_EQ(data.count, 10000U);
    LoaderConfig config;
    config.images = viewOf(data);
    config.batchSize = 96;
    config.dropLast = false;
    auto loader = makeImageLoader(LoaderKind::DoublePrefetch, config);
    ASSERT_TRUE(loader) << loader.error().message;
    EXPECT_EQ((*loader)->batchesPerEpoch(), 105U);
    Arena unused("unused");
    auto last = (*loader)->batch(0, 104, unused);
    ASSERT_TRUE(last) << last.error().message;
    EXPECT_EQ(last->size, 16U);
    std::vector<std::uint32_t> expected(16);
    std::iota(expected.begin(), expected.end(), 104U * 96U);
    EXPECT_EQ(mismatches(*last, data, expected), 0U);
    auto beyond = (*loader)->batch(0, 105, unused);
    ASSERT_FALSE(beyond);
    EXPECT_NE(beyond.error().message.find("batch 105 of epoch 0 does not exist"), std::string::npos);
    config.dropLast = true;
    auto dropping = makeImageLoader(LoaderKind::Naive, config);
    ASSERT_TRUE(dropping);
    EXPECT_EQ((*dropping)->batchesPerEpoch(), 104U);
}

TEST_P(EveryLoader, HandsOutExactlyTheIdxBytesInOrderThroughATrainingLoop) {
    const auto& data = mnist();
    ASSERT_GT(data.count, 0U);
    constexpr std::uint64_t kSeed = 42;
    LoaderConfig config;
    config.images = viewOf(data);
    config.batchSize = 100;
    config.arenaOptions.firstBlockBytes = 64 * 1024;
    // Epoch 0 in file order, epoch 1 shuffled.
    config.order = [&data](std::size_t epoch) {
        if (epoch == 0) {
            std::vector<std::uint32_t> identity(data.count);
            std::iota(identity.begin(), identity.end(), 0U);
            return identity;
        }
        return shuffledOrder(data.count, kSeed, epoch);
    };
    auto made = makeImageLoader(GetParam(), config);
    ASSERT_TRUE(made) << made.error().message;
    ImageLoader& loader = **made;
    EXPECT_EQ(loader.kind(), GetParam());
    ASSERT_EQ(loader.batchesPerEpoch(), 100U);

    BatchArenaRing ring(2, "loaderbatch");
    std::size_t bad = 0;
    for (std::size_t epoch = 0; epoch < 2; ++epoch) {
        const auto order = epoch == 0 ? config.order(0) : shuffledOrder(data.count, kSeed, 1);
        for (std::size_t b = 0; b < loader.batchesPerEpoch(); ++b) {
            Arena& arena = ring.beginBatch(static_cast<std::int64_t>(epoch), static_cast<std::int64_t>(b));
            auto batch = loader.batch(epoch, b, arena);
            ASSERT_TRUE(batch) << batch.error().message;
            EXPECT_EQ(batch->epoch, epoch);
            EXPECT_EQ(batch->index, b);
            ASSERT_EQ(batch->size, 100U);
            if (GetParam() == LoaderKind::Naive) {
                EXPECT_EQ(batch->loaderSlot, -1);
                EXPECT_TRUE(arena.contains(batch->imageData, batch->size * 784 * sizeof(float)));
            } else {
                EXPECT_GE(batch->loaderSlot, 0);
            }
            starpu_task* task = starpu_task_create();
            task->cl = readerCodelet();
            task->handles[0] = batch->images;
            task->handles[1] = batch->labels;
            ASSERT_EQ(starpu_task_submit(task), 0);
            bad += mismatches(*batch, data,
                              std::span<const std::uint32_t>(order).subspan(b * 100, 100));
            auto prefetched = b + 1 < loader.batchesPerEpoch() ? loader.prefetch(epoch, b + 1)
                                                               : loader.prefetch(epoch + 1, 0);
            ASSERT_TRUE(prefetched) << prefetched.error().message;
            ring.endBatch(static_cast<std::int64_t>(epoch), static_cast<std::int64_t>(b));
        }
    }
    EXPECT_EQ(bad, 0U) << "values differ from the IDX files";
    loader.drain();
    ring.drain();
    const std::size_t expectedArenas = GetParam() == LoaderKind::Naive          ? 0
                                       : GetParam() == LoaderKind::Prefetch       ? 1
                                       : GetParam() == LoaderKind::DoublePrefetch ? 2
                                                                                  : 3;
    const auto arenas = loader.arenas();
    ASSERT_EQ(arenas.size(), expectedArenas);
    std::uint64_t deferred = 0;
    for (const Arena* arena : arenas) {
        const auto s = arena->stats();
        EXPECT_EQ(s.handlesTracked, 0U);
        EXPECT_GT(s.peakBytes, 100U * 784U * sizeof(float));
        deferred += s.deferredResets;
    }
    EXPECT_EQ(deferred > 0, GetParam() == LoaderKind::Advanced)
        << "only the advanced loader resets without blocking";
}

INSTANTIATE_TEST_SUITE_P(Kinds, EveryLoader,
                         ::testing::Values(LoaderKind::Naive, LoaderKind::Prefetch,
                                           LoaderKind::Advanced, LoaderKind::DoublePrefetch),
                         kindTestName);
