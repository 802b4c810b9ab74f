#pragma once
// The four loader strategies behind ImageLoader (see runtime/image_loader.hpp for what each
// does and which reset it uses).

#include "runtime/arena.hpp"
#include "runtime/image_loader.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace starscope::runtime::detail {

// Converts n samples into images (n x rows x cols floats, normalised) and labels (int32).
void convertSamples(const ImageSet& set, const std::uint32_t* samples, std::size_t n,
                    float* images, std::int32_t* labels);

// Memory and handles of one batch, allocated and registered in `arena`; the sample indices are
// copied there too. The data itself is not written yet.
RuntimeResult<LoadedBatch> stageBatch(ImageLoader& loader, Arena& arena, std::size_t epoch,
                                      std::size_t index);

class NaiveLoader final : public ImageLoader {
public:
    explicit NaiveLoader(LoaderConfig config);
    RuntimeResult<LoadedBatch> batch(std::size_t epoch, std::size_t index,
                                     Arena& batchArena) override;
    RuntimeResult<Done> prefetch(std::size_t epoch, std::size_t index) override;
    std::vector<const Arena*> arenas() const override { return {}; }
    void drain() override {}
};

// prefetch (1 arena, blocking reset), double-prefetch (2, blocking) and advanced (3, deferred).
class PrefetchingLoader final : public ImageLoader {
public:
    PrefetchingLoader(LoaderKind kind, LoaderConfig config, std::size_t arenas, bool deferred);
    ~PrefetchingLoader() override;
    RuntimeResult<LoadedBatch> batch(std::size_t epoch, std::size_t index,
                                     Arena& batchArena) override;
    RuntimeResult<Done> prefetch(std::size_t epoch, std::size_t index) override;
    std::vector<const Arena*> arenas() const override;
    void drain() override;

private:
    // Resets the next loader arena and submits the conversion task of (epoch, index) into it.
    RuntimeResult<LoadedBatch> load(std::size_t epoch, std::size_t index);

    std::vector<std::unique_ptr<Arena>> m_arenas;
    bool m_deferred = false;
    std::uint64_t m_loads = 0;
    std::optional<LoadedBatch> m_ready;
};

} // namespace starscope::runtime::detail
