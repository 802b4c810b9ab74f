// Trace markers: a short training-like loop with FxT on leaves the ss1 markers in the FxT
// trace; starpu_fxt_tool turns them into Paje events that markers::parse reads back.
// Its own binary: FxT tracing is decided at starpu_init.

#include "common/markers.hpp"
#include "runtime/batch_arena_ring.hpp"
#include "runtime/image_loader.hpp"
#include "runtime/trace_markers.hpp"
#include "tests/support/starpu_support.hpp"
#include "tests/support/test_support.hpp"

#include "tracer/readers/read_trace.hpp"
#include "tracer/run_folder/run_folder.hpp"

#include <gtest/gtest.h>
#include <starpu.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace markers = starscope::markers;
using namespace starscope::runtime;
using starscope::testing::TempDir;

namespace {

fs::path firstProfFile(const fs::path& dir) {
    const auto files = starscope::tracer::run::findProfFiles(dir);
    return files.empty() ? fs::path{} : files.front();
}

void touchTask(void* /*buffers*/[], void* /*arg*/) {}

starpu_codelet* touchCodelet() {
    static starpu_codelet codelet = [] {
        starpu_codelet c;
        starpu_codelet_init(&c);
        c.cpu_funcs[0] = touchTask;
        c.nbuffers = 1;
        c.modes[0] = STARPU_R;
        c.name = "test_touch";
        return c;
    }();
    return &codelet;
}

// The markers among the Paje events, in trace order.
std::vector<markers::Marker> markersIn(const std::string& paje) {
    std::vector<markers::Marker> found;
    std::istringstream lines(paje);
    for (std::string line; std::getline(lines, line);) {
        const auto open = line.find("\"ss");
        if (line.find("prog_event") == std::string::npos || open == std::string::npos) {
            continue;
        }
        const auto close = line.find('"', open + 1);
        const auto parsed = markers::parse(line.substr(open + 1, close - open - 1));
        EXPECT_EQ(parsed.status, markers::ParseStatus::Ok) << line;
        found.push_back(parsed.marker);
    }
    return found;
}

markers::Marker batchMarker(markers::Kind kind, int epoch, int batch, int slot) {
    markers::Marker m;
    m.kind = kind;
    m.epoch = epoch;
    m.batch = batch;
    m.slot = slot;
    return m;
}

} // namespace

TEST(TraceMarkers, RingAndLoaderMarkersReachTheFxtTrace) {
    TempDir dir;
    ::setenv("STARPU_FXT_PREFIX", dir.path().c_str(), 1);
    ::setenv("STARPU_FXT_TRACE", "1", 1);
    ::setenv("STARPU_NCPU", "2", 1);
    ::setenv("STARPU_WORKERS_NOBIND", "1", 1);
    EXPECT_FALSE(markersEnabled()) << "no trace before starpu_init";
    ASSERT_EQ(starpu_init(nullptr), 0);
    EXPECT_TRUE(markersEnabled());

    // 4 batches of 10 tiny images.
    std::vector<std::uint8_t> pixels(40 * 4 * 4);
    std::vector<std::uint8_t> labels(40);
    for (std::size_t i = 0; i < pixels.size(); ++i) {
        pixels[i] = static_cast<std::uint8_t>(i);
    }
    LoaderConfig config;
    config.images = ImageSet{pixels.data(), labels.data(), 40, 4, 4};
    config.batchSize = 10;
    {
        auto loader = makeImageLoader(LoaderKind::Advanced, config);
        ASSERT_TRUE(loader) << loader.error().message;
        BatchArenaRing ring(2);
        for (int b = 0; b < 4; ++b) {
            Arena& arena = ring.beginBatch(0, b);
            auto batch = (*loader)->batch(0, static_cast<std::size_t>(b), arena);
            ASSERT_TRUE(batch);
            auto scratch = arena.allocateVector<float>(8);
            ASSERT_TRUE(scratch);
            ASSERT_EQ(starpu_task_insert(touchCodelet(), STARPU_R, batch->images, 0), 0);
            ASSERT_EQ(starpu_task_insert(touchCodelet(), STARPU_R, scratch->handle, 0), 0);
            ASSERT_TRUE((*loader)->prefetch(0, static_cast<std::size_t>(b + 1)));
            ring.endBatch(0, b);
        }
        (*loader)->drain();
        ring.drain();
    }
    starpu_shutdown();

    const auto prof = firstProfFile(dir.path());
    ASSERT_FALSE(prof.empty()) << "no prof_file_* in " << dir.path();
    const std::string command = "cd '" + dir.path().string() + "' && '"
                                + starscope::testing::starpuFxtTool().string() + "' -i '"
                                + prof.string() + "' > tool.log 2>&1";
    ASSERT_EQ(starscope::testing::runCommand(command), 0)
        << starscope::testing::readFile(dir / "tool.log");
    const auto found = markersIn(starscope::testing::readFile(dir / "paje.trace"));
    const auto has = [&](const markers::Marker& wanted) {
        return std::find(found.begin(), found.end(), wanted) != found.end();
    };
    const auto count = [&](markers::Kind kind) {
        return std::count_if(found.begin(), found.end(),
                             [kind](const markers::Marker& m) { return m.kind == kind; });
    };
    for (int b = 0; b < 4; ++b) {
        EXPECT_TRUE(has(batchMarker(markers::Kind::BatchBegin, 0, b, b % 2))) << "batch " << b;
        EXPECT_TRUE(has(batchMarker(markers::Kind::BatchEnd, 0, b, b % 2))) << "batch " << b;
    }
    // Batches 2 and 3 reuse slots 0 and 1: reset waits on the one handle each slot tracks
    // (the scratch vector; images and labels live in the loader's arenas).
    markers::Marker wait;
    wait.kind = markers::Kind::ResetWaitBegin;
    wait.arena = "batch0";
    wait.handles = 1;
    EXPECT_TRUE(has(wait));
    wait.kind = markers::Kind::ResetWaitEnd;
    EXPECT_TRUE(has(wait));
    // 4 conversions as tasks, 3 of them prefetched (batch 0 was asked for directly).
    EXPECT_EQ(count(markers::Kind::LoadBegin), 4);
    EXPECT_EQ(count(markers::Kind::LoadEnd), 4);
    EXPECT_EQ(count(markers::Kind::PrefetchBegin), 3);
    EXPECT_EQ(count(markers::Kind::PrefetchEnd), 3);
    const auto load = std::find_if(found.begin(), found.end(), [](const markers::Marker& m) {
        return m.kind == markers::Kind::LoadBegin && m.batch == 1;
    });
    ASSERT_NE(load, found.end());
    EXPECT_EQ(load->arena, "loader1");
    EXPECT_EQ(load->slot, 1);
}
