// The CNN's trace as starscope reads it against the conversion by the starpu_fxt_tool of the
// StarPU the tests are built against (1.3.10 in the default build, 1.4.12 in the starpu14
// leg): per-worker executing and sleeping within 1 %, the same executed tasks.

#include "tests/support/test_support.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/model/time_unit.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

namespace {

using starscope::testing::TempDir;
namespace tracer = starscope::tracer;

struct WorkerFigures {
    tracer::TimeNs executing = 0;
    tracer::TimeNs sleeping = 0;
    std::uint64_t tasks = 0;
};

// Per StarPU worker id, in nanoseconds whatever the trace's tick.
std::map<std::int32_t, WorkerFigures> perWorker(const tracer::Trace& trace) {
    std::map<std::int32_t, WorkerFigures> out;
    const std::int64_t perNs = tracer::ticksPerSecond(trace) / tracer::kNsPerSecond;
    for (const auto& lane : tracer::computeStats(trace).lanes) {
        const auto& l = trace.lanes[static_cast<std::size_t>(lane.lane)];
        if (l.isWorker()) {
            out[l.workerId] = {lane.classes.executing / perNs, lane.classes.sleeping / perNs, lane.tasks};
        }
    }
    return out;
}

void expectWithinOnePercent(tracer::TimeNs ours, tracer::TimeNs tool, const std::string& what) {
    EXPECT_LE(std::fabs(static_cast<double>(ours - tool)), 0.01 * static_cast<double>(tool) + 1000.0)
        << what << ": starscope " << ours << " ns, starpu_fxt_tool " << tool << " ns";
}

TEST(RecordCrossCheck, CnnTraceMatchesTheStarpuFxtToolOfItsVersion) {
    TempDir dir;
    const auto run = dir / "run";
    const auto log = dir / "log.txt";
    ASSERT_EQ(starscope::testing::runCommand(std::string("'") + STARSCOPE_BINARY
                                             + "' record --arenas single --loader naive --batches 4 --batch-size 32 "
                                               "--chunk 16 --workers 2 --test-images 200 --out '"
                                             + run.string() + "' > '" + log.string() + "' 2>&1"),
              0)
        << starscope::testing::readFile(log);
    const auto files = tracer::findProfFiles(run);
    ASSERT_EQ(files.size(), 1U);
    ASSERT_EQ(starscope::testing::runCommand("cd '" + run.string() + "' && '"
                                             + starscope::testing::starpuFxtTool().string() + "' -i '"
                                             + files.front().string() + "' > tool.log 2>&1"),
              0)
        << starscope::testing::readFile(run / "tool.log");

    const auto ours = tracer::readTrace(files.front());
    const auto tool = tracer::readTrace(run / "paje.trace");
    ASSERT_TRUE(ours) << ours.error().describe();
    ASSERT_TRUE(tool) << tool.error().describe();
    EXPECT_EQ(ours->metadata.at("starpu.codes").substr(0, 3), starscope::testing::starpuSeries());

    const auto a = perWorker(*ours);
    const auto b = perWorker(*tool);
    ASSERT_EQ(a.size(), 2U);
    ASSERT_EQ(a.size(), b.size());
    std::uint64_t tasks = 0;
    for (const auto& [worker, figures] : a) {
        const auto& other = b.at(worker);
        const std::string name = "worker " + std::to_string(worker);
        expectWithinOnePercent(figures.executing, other.executing, name + " executing");
        expectWithinOnePercent(figures.sleeping, other.sleeping, name + " sleeping");
        EXPECT_EQ(figures.tasks, other.tasks) << name;
        tasks += figures.tasks;
    }
    EXPECT_GT(tasks, 40U);   // 4 batches of forward, backward and update tasks, then the test
}

} // namespace
