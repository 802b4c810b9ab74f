#include "runtime/image_loader.hpp"

#include "runtime/detail/loaders.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <utility>

namespace starscope::runtime {

namespace {

constexpr std::array<LoaderKind, 4> kAllKinds = {LoaderKind::Naive, LoaderKind::Prefetch,
                                                 LoaderKind::Advanced, LoaderKind::DoublePrefetch};

// SplitMix64: a tiny generator whose sequence is fixed by its definition, so a seed gives the
// same order with every standard library (std::shuffle and the distributions are not).
std::uint64_t splitMix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
}

} // namespace

std::string_view loaderKindName(LoaderKind kind) {
    switch (kind) {
    case LoaderKind::Naive: return "naive";
    case LoaderKind::Prefetch: return "prefetch";
    case LoaderKind::Advanced: return "advanced";
    case LoaderKind::DoublePrefetch: return "double-prefetch";
    }
    return "unknown";
}

RuntimeResult<LoaderKind> parseLoaderKind(std::string_view name) {
    std::string accepted;
    for (const auto kind : kAllKinds) {
        if (loaderKindName(kind) == name) {
            return kind;
        }
        accepted += accepted.empty() ? "" : ", ";
        accepted += loaderKindName(kind);
    }
    return runtimeFailure(RuntimeErrorCode::UnknownLoader,
                          "unknown loader '" + std::string(name) + "' (expected one of: "
                              + accepted + ")");
}

std::span<const LoaderKind> allLoaderKinds() {
    return kAllKinds;
}

std::vector<std::uint32_t> shuffledOrder(std::size_t count, std::uint64_t seed,
                                         std::size_t epoch) {
    std::vector<std::uint32_t> order(count);
    for (std::size_t i = 0; i < count; ++i) {
        order[i] = static_cast<std::uint32_t>(i);
    }
    std::uint64_t state = seed ^ (0xD1B54A32D192ED03ULL * (static_cast<std::uint64_t>(epoch) + 1));
    for (std::size_t i = count; i > 1; --i) {
        // Modulo bias is below 2^-32 for any dataset that fits 32-bit indices.
        const auto j = static_cast<std::size_t>(splitMix64(state) % i);
        std::swap(order[i - 1], order[j]);
    }
    return order;
}

ImageLoader::ImageLoader(LoaderKind kind, LoaderConfig config)
    : m_kind(kind), m_config(std::move(config)) {}

ImageLoader::~ImageLoader() = default;

std::size_t ImageLoader::batchesPerEpoch() const {
    const std::size_t count = m_config.images.count;
    const std::size_t size = m_config.batchSize;
    return m_config.dropLast ? count / size : (count + size - 1) / size;
}

std::size_t ImageLoader::samplesInBatch(std::size_t index) const {
    const std::size_t begin = index * m_config.batchSize;
    const std::size_t count = m_config.images.count;
    if (begin >= count) {
        return 0;
    }
    return std::min(m_config.batchSize, count - begin);
}

RuntimeResult<std::span<const std::uint32_t>> ImageLoader::sampleOrder(std::size_t epoch) {
    if (m_orderEpoch == epoch) {
        return std::span<const std::uint32_t>(m_order);
    }
    const std::size_t count = m_config.images.count;
    if (!m_config.order) {
        m_order.resize(count);
        for (std::size_t i = 0; i < count; ++i) {
            m_order[i] = static_cast<std::uint32_t>(i);
        }
    } else {
        auto order = m_config.order(epoch);
        const std::string where = "sample order of epoch " + std::to_string(epoch) + ": ";
        if (order.size() != count) {
            m_orderEpoch.reset();
            return runtimeFailure(RuntimeErrorCode::InvalidArgument,
                                  where + std::to_string(order.size()) + " indices for "
                                      + std::to_string(count) + " images");
        }
        std::vector<bool> seen(count, false);
        for (std::size_t i = 0; i < count; ++i) {
            const std::uint32_t sample = order[i];
            if (sample >= count || seen[sample]) {
                m_orderEpoch.reset();
                return runtimeFailure(RuntimeErrorCode::InvalidArgument,
                                      where + "index " + std::to_string(sample) + " at position "
                                          + std::to_string(i)
                                          + (sample >= count ? " is out of range"
                                                             : " appears twice"));
            }
            seen[sample] = true;
        }
        m_order = std::move(order);
    }
    m_orderEpoch = epoch;
    return std::span<const std::uint32_t>(m_order);
}

RuntimeResult<std::unique_ptr<ImageLoader>> makeImageLoader(LoaderKind kind, LoaderConfig config) {
    const ImageSet& set = config.images;
    const auto invalid = [](const std::string& why) {
        return runtimeFailure(RuntimeErrorCode::InvalidArgument, "image loader: " + why);
    };
    if (set.pixels == nullptr || set.labels == nullptr) {
        return invalid("the image set has no pixel or label data");
    }
    if (set.count == 0 || set.rows == 0 || set.cols == 0) {
        return invalid("the image set is empty (count=" + std::to_string(set.count) + ", rows="
                       + std::to_string(set.rows) + ", cols=" + std::to_string(set.cols) + ")");
    }
    if (set.count > std::numeric_limits<std::uint32_t>::max()) {
        return invalid("more than 2^32 images");
    }
    if (config.batchSize == 0) {
        return invalid("batch size 0");
    }
    if (config.dropLast && config.batchSize > set.count) {
        return invalid("batch size " + std::to_string(config.batchSize) + " exceeds the "
                       + std::to_string(set.count) + " images with dropLast: no batch at all");
    }
    if (kind != LoaderKind::Naive && starpu_is_initialized() == 0) {
        return runtimeFailure(RuntimeErrorCode::StarpuNotInitialized,
                              "image loader '" + std::string(loaderKindName(kind))
                                  + "': StarPU is not initialised (call starpu_init first)");
    }
    std::unique_ptr<ImageLoader> loader;
    switch (kind) {
    case LoaderKind::Naive: loader = std::make_unique<detail::NaiveLoader>(std::move(config)); break;
    case LoaderKind::Prefetch:
        loader = std::make_unique<detail::PrefetchingLoader>(kind, std::move(config), 1, false);
        break;
    case LoaderKind::DoublePrefetch:
        loader = std::make_unique<detail::PrefetchingLoader>(kind, std::move(config), 2, false);
        break;
    case LoaderKind::Advanced:
        loader = std::make_unique<detail::PrefetchingLoader>(kind, std::move(config), 3, true);
        break;
    }
    return loader;
}

} // namespace starscope::runtime
