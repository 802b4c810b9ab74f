// What the runtime does before starpu_init: plain allocation works, everything that needs
// StarPU fails with StarpuNotInitialized and a message saying so, markers stay off.

#include "runtime/arena.hpp"
#include "runtime/image_loader.hpp"
#include "runtime/trace_markers.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace starscope::runtime;

TEST(WithoutStarpu, ArenaAllocatesButCannotRegister) {
    Arena arena("early");
    auto* data = arena.allocateArray<float>(16);
    ASSERT_NE(data, nullptr);
    data[15] = 1.0F;
    auto handle = arena.registerVector(data, 16, sizeof(float));
    ASSERT_FALSE(handle);
    EXPECT_EQ(handle.error().code, RuntimeErrorCode::StarpuNotInitialized);
    EXPECT_EQ(handle.error().message,
              "arena 'early': cannot register a vector: StarPU is not initialised (call "
              "starpu_init first)");
    arena.reset();
    EXPECT_EQ(arena.allocateArray<float>(16), data);
}

TEST(WithoutStarpu, PrefetchingLoadersNeedStarpuButNaiveDoesNot) {
    std::vector<std::uint8_t> pixels(4 * 2 * 2, 0);
    std::vector<std::uint8_t> labels(4, 0);
    LoaderConfig config;
    config.images = ImageSet{pixels.data(), labels.data(), 4, 2, 2};
    config.batchSize = 2;
    auto advanced = makeImageLoader(LoaderKind::Advanced, config);
    ASSERT_FALSE(advanced);
    EXPECT_EQ(advanced.error().code, RuntimeErrorCode::StarpuNotInitialized);
    EXPECT_NE(advanced.error().message.find("'advanced'"), std::string::npos);
    EXPECT_TRUE(makeImageLoader(LoaderKind::Naive, config));
}

TEST(WithoutStarpu, MarkersAreOff) {
    EXPECT_FALSE(markersEnabled());
    markBatch(starscope::markers::Kind::BatchBegin, 0, 0, 0); // must be a harmless no-op
}
