// How record sizes StarPU's FxT buffer: from the trace a plan is expected to write, halved
// (libfxt keeps two buffers), and for a StarPU-MPI rank from that rank's share of the job; and
// its default worker count, from the hardware threads and how StarPU's idle workers wait.

#include "tests/support/starpu_support.hpp"
#include "tests/support/test_support.hpp"
#include "workloads/train_record/rank_group.hpp"
#include "workloads/train_record/record_plan.hpp"

#include <algorithm>
#include <cstdlib>
#include <gtest/gtest.h>
#include <string>
#include <thread>

using namespace starscope::workloads;

namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// The variables planRecord reads, unset for the test and put back after it.
class RecordPlanTest : public ::testing::Test {
protected:
    void SetUp() override {
        for (const char* name : kVariables) {
            if (const char* value = std::getenv(name)) {
                m_saved.emplace_back(name, value);
            }
            ::unsetenv(name);
        }
    }
    void TearDown() override {
        for (const char* name : kVariables) {
            ::unsetenv(name);
        }
        for (const auto& [name, value] : m_saved) {
            ::setenv(name.c_str(), value.c_str(), 1);
        }
    }

    RecordOptions options(std::size_t batches) const {
        RecordOptions o;
        o.arenas = "double";
        o.loader = "advanced";
        o.batches = batches;
        o.workers = 2;
        o.testImages = 1000;
        o.dataset = (starscope::testing::sourceDir() / "data" / "mnist").string();
        o.out = (m_dir / "run").string();
        return o;
    }

    static std::string environmentValue(const RecordPlan& plan, const std::string& name) {
        for (const auto& variable : plan.environment) {
            if (variable.name == name) {
                return variable.value;
            }
        }
        return "(not set)";
    }

private:
    static constexpr const char* kVariables[] = {"STARPU_TRACE_BUFFER_SIZE", "STARPU_FXT_TRACE",
                                                 "STARPU_FXT_PREFIX", "STARPU_NCPU",
                                                 "STARPU_SCHED"};
    std::vector<std::pair<std::string, std::string>> m_saved;
    starscope::testing::TempDir m_dir;
};

TEST(DefaultCpuWorkers, OnePerHardwareThreadOrOneLeftToTheMainThreadWhenIdleWorkersSpin) {
    EXPECT_EQ(defaultCpuWorkers(2, false), 2U);
    EXPECT_EQ(defaultCpuWorkers(8, false), 8U);
    EXPECT_EQ(defaultCpuWorkers(2, true), 1U);
    EXPECT_EQ(defaultCpuWorkers(8, true), 7U);
    // Never no worker: one hardware thread (or none reported) still gets one.
    EXPECT_EQ(defaultCpuWorkers(1, true), 1U);
    EXPECT_EQ(defaultCpuWorkers(1, false), 1U);
    EXPECT_EQ(defaultCpuWorkers(0, true), 1U);
    EXPECT_EQ(defaultCpuWorkers(0, false), 1U);
}

// StarPU-MPI ranks on one machine share its hardware threads; each keeps at least one worker.
TEST(DefaultCpuWorkers, RanksOnOneMachineShareItsHardwareThreads) {
    EXPECT_EQ(defaultCpuWorkers(2, false, 2), 1U);
    EXPECT_EQ(defaultCpuWorkers(2, false, 4), 1U);
    EXPECT_EQ(defaultCpuWorkers(8, false, 4), 2U);
    EXPECT_EQ(defaultCpuWorkers(8, true, 2), 3U);
    EXPECT_EQ(defaultCpuWorkers(8, false, 1), 8U);
    EXPECT_EQ(defaultCpuWorkers(8, false, 0), 8U);
}

// The launcher's count of ranks on this machine: Open MPI's, else MPICH's, else one.
TEST(RanksOnThisMachine, ReadFromTheMpiLaunchersEnvironment) {
    const auto restore = [](const char* name, const char* old) {
        if (old != nullptr) {
            ::setenv(name, old, 1);
        } else {
            ::unsetenv(name);
        }
    };
    const char* oldOmpi = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    const std::string savedOmpi = oldOmpi != nullptr ? oldOmpi : "";
    const char* oldMpich = std::getenv("MPI_LOCALNRANKS");
    const std::string savedMpich = oldMpich != nullptr ? oldMpich : "";
    ::unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    ::unsetenv("MPI_LOCALNRANKS");
    EXPECT_EQ(ranksOnThisMachine(), 1U);
    ::setenv("MPI_LOCALNRANKS", "3", 1);
    EXPECT_EQ(ranksOnThisMachine(), 3U);
    ::setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "4", 1);
    EXPECT_EQ(ranksOnThisMachine(), 4U);
    ::setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "four", 1);
    ::unsetenv("MPI_LOCALNRANKS");
    EXPECT_EQ(ranksOnThisMachine(), 1U);
    restore("OMPI_COMM_WORLD_LOCAL_SIZE", oldOmpi != nullptr ? savedOmpi.c_str() : nullptr);
    restore("MPI_LOCALNRANKS", oldMpich != nullptr ? savedMpich.c_str() : nullptr);
}

// The detection is the StarPU configuration the tests were built against, as its
// starpu_config.h says.
TEST(StarpuIdleWorkers, SpinExactlyWhenStarpuWasConfiguredWithoutBlockingDrivers) {
    EXPECT_EQ(starpuIdleWorkersSpin(), starscope::testing::starpuIdleWorkersSpinPerConfigHeader());
}

TEST(TraceBufferSize, HoldsWhatTrainingWritesWithASixteenthMoreWithinItsBounds) {
    EXPECT_EQ(traceBufferMbFor(0), kTraceMinMb);
    EXPECT_EQ(traceBufferMbFor(kMiB / 2), kTraceMinMb);
    EXPECT_EQ(traceBufferMbFor(16 * kMiB), 17U);
    EXPECT_EQ(traceBufferMbFor(16 * kMiB + 16), 18U);
    EXPECT_EQ(traceBufferMbFor(160 * kMiB), 170U);
    EXPECT_EQ(traceBufferMbFor(std::uint64_t{400} << 30), kTraceMaxMb);
    EXPECT_EQ(traceBufferMbFor(160 * kMiB, 100), 100U);
    EXPECT_EQ(traceBufferMbFor(160 * kMiB, 0), kTraceMinMb);
}

TEST(TraceBytesPerTask, ComeFromTheReleaseAndTheEventSet) {
    EventsChoice events;
    events.set.value = starscope::tracer::FxtEventSet::starscopeDefault();
    events.applies = true;
    EXPECT_EQ(traceBytesPerTask(events, true), kTraceBytesPerTaskDefaultEvents);
    EXPECT_EQ(traceBytesPerTask(events, false), kTraceBytesPerTaskStarpu13);
    events.applies = false; // asked for, not applied: StarPU records every category
    EXPECT_EQ(traceBytesPerTask(events, true), kTraceBytesPerTask);
    events.set.value = starscope::tracer::FxtEventSet::all();
    EXPECT_EQ(traceBytesPerTask(events, true), kTraceBytesPerTask);
}

// Two buffers per rank on the machine within an eighth of the memory available.
TEST(TraceBufferSize, IsCappedByTheMemoryAvailableToEveryRankOnTheMachine) {
    EXPECT_EQ(traceBufferCapMb(std::nullopt, 1), kTraceMaxMb);
    EXPECT_EQ(traceBufferCapMb(std::uint64_t{4} << 30, 1), 256U);
    EXPECT_EQ(traceBufferCapMb(std::uint64_t{4} << 30, 4), 64U);
    EXPECT_EQ(traceBufferCapMb(std::uint64_t{1} << 40, 1), kTraceMaxMb);
    EXPECT_EQ(traceBufferCapMb(kMiB, 8), kTraceMinMb);
    EXPECT_EQ(traceBufferCapMb(std::uint64_t{4} << 30, 0), 256U);
    const auto available = availableMemoryBytes();
    ASSERT_TRUE(available) << "Linux says MemAvailable in /proc/meminfo";
    EXPECT_GT(*available, 0U);
}

// The buffer holds what training writes: the evaluation's tasks are written after the figures.
TEST_F(RecordPlanTest, ATracedRunsBufferHoldsWhatItsTrainingWrites) {
    auto plan = planRecord(options(200));
    ASSERT_TRUE(plan) << plan.error().describe();
    EXPECT_EQ(plan->estimatedMessages, 0U);
    const std::uint64_t bytesPerTask = traceBytesPerTask(plan->events, starpuSelectsFxtEvents());
    EXPECT_EQ(plan->expectedTraceBytes, plan->estimatedTasks * bytesPerTask);
    // 200 batches of two chunks: 9 tasks each, then 40 evaluation tasks and 8 for the workers.
    EXPECT_EQ(plan->estimatedTasks, 200U * 9 + 40 + 8);
    EXPECT_EQ(plan->expectedTrainingTraceBytes, (200U * 9 + 8) * bytesPerTask);
    EXPECT_EQ(plan->traceBufferMb,
              traceBufferMbFor(plan->expectedTrainingTraceBytes,
                               traceBufferCapMb(availableMemoryBytes(), 1)));
    EXPECT_GE(plan->traceBufferMb * kMiB, plan->expectedTrainingTraceBytes);
    // At most a sixteenth more than training writes, rounded up to a MiB.
    EXPECT_LE(plan->traceBufferMb * kMiB,
              plan->expectedTrainingTraceBytes + plan->expectedTrainingTraceBytes / 16 + kMiB);
    EXPECT_EQ(environmentValue(*plan, "STARPU_TRACE_BUFFER_SIZE"),
              std::to_string(plan->traceBufferMb));
}

TEST_F(RecordPlanTest, AnUntracedRunHasNoBufferAndTheUsersSizeWins) {
    auto options = this->options(200);
    options.noTrace = true;
    auto plan = planRecord(options);
    ASSERT_TRUE(plan) << plan.error().describe();
    EXPECT_EQ(plan->traceBufferMb, 0U);
    EXPECT_EQ(environmentValue(*plan, "STARPU_TRACE_BUFFER_SIZE"), "(not set)");

    ::setenv("STARPU_TRACE_BUFFER_SIZE", "3", 1);
    plan = planRecord(this->options(200));
    ASSERT_TRUE(plan) << plan.error().describe();
    EXPECT_EQ(plan->traceBufferMb, 3U);
    ASSERT_TRUE(planRank(*plan, 1, 2));
    EXPECT_EQ(plan->traceBufferMb, 3U);
    EXPECT_EQ(plan->traceBufferSource, SettingSource::Environment);
}

// Each rank of a data-parallel run writes its share of the tasks and its own messages: its
// buffer is sized for that, not for the whole job on every rank.
TEST_F(RecordPlanTest, EachRanksBufferIsSizedForItsShareOfTheJob) {
    const auto job = planRecord(options(800));
    ASSERT_TRUE(job) << job.error().describe();
    // 800 batches of 64 on one process: above 2 MB of trace, so the split shows in the buffer.
    ASSERT_GT(job->traceBufferMb, 2U);

    auto root = planRecord(options(800));
    auto other = planRecord(options(800));
    ASSERT_TRUE(root && other);
    ASSERT_TRUE(planRank(*root, 0, 2));
    ASSERT_TRUE(planRank(*other, 1, 2));
    // A batch of 32 per rank is one chunk: 3 + 3 tasks, and a checksum; rank 0 also averages
    // both parameters and evaluates. Rank 1 sends both and receives both averages per batch;
    // rank 0 receives and sends both to its one peer.
    EXPECT_EQ(other->estimatedTasks, 800U * (6 + 1) + 8);
    EXPECT_EQ(root->estimatedTasks, 800U * (6 + 3) + 40 + 8);
    EXPECT_EQ(other->estimatedMessages, 800U * 4);
    EXPECT_EQ(root->estimatedMessages, 800U * 4);
    const std::uint64_t bytesPerTask = traceBytesPerTask(other->events, starpuSelectsFxtEvents());
    EXPECT_EQ(other->expectedTraceBytes, other->estimatedTasks * bytesPerTask
                                             + other->estimatedMessages * kTraceBytesPerMessage);
    // Rank 1 runs half the layer tasks and no evaluation (rank 0's exchange tasks make up for
    // its other half).
    EXPECT_LT(other->estimatedTasks, job->estimatedTasks);
    for (const auto* rank : {&*root, &*other}) {
        EXPECT_EQ(rank->traceBufferMb, traceBufferMbFor(rank->expectedTrainingTraceBytes,
                                                         traceBufferCapMb(availableMemoryBytes(), 1)));
        // Its own share, not the whole job's trace (both ranks' together).
        EXPECT_LT(rank->expectedTraceBytes, root->expectedTraceBytes + other->expectedTraceBytes);
        EXPECT_EQ(environmentValue(*rank, "STARPU_TRACE_BUFFER_SIZE"),
                  std::to_string(rank->traceBufferMb));
    }

    // Four ranks: rank 0 exchanges with three peers, the others with rank 0 only.
    auto root4 = planRecord(options(800));
    ASSERT_TRUE(root4);
    ASSERT_TRUE(planRank(*root4, 0, 4));
    EXPECT_EQ(root4->estimatedMessages, 800U * 2 * 2 * 3);
}

} // namespace

// Without --workers or STARPU_NCPU the plan asks for defaultCpuWorkers() of this machine and this
// StarPU; a count the user chose is never lowered.
TEST_F(RecordPlanTest, TheDefaultWorkerCountLeavesTheMainThreadACoreOnlyWhenIdleWorkersSpin) {
    auto options = this->options(20);
    options.workers = 0;
    auto plan = planRecord(options);
    ASSERT_TRUE(plan) << plan.error().describe();
    const std::size_t threads = std::max(1U, std::thread::hardware_concurrency());
    EXPECT_EQ(plan->idleWorkersSpin, starpuIdleWorkersSpin());
    EXPECT_EQ(plan->workersAsked.source, SettingSource::Default);
    EXPECT_EQ(plan->workersAsked.value, defaultCpuWorkers(threads, plan->idleWorkersSpin));
    EXPECT_EQ(plan->coreLeftToMainThread, plan->idleWorkersSpin && threads > 1);
    EXPECT_EQ(environmentValue(*plan, "STARPU_NCPU"), std::to_string(plan->workersAsked.value));

    options.workers = threads;
    plan = planRecord(options);
    ASSERT_TRUE(plan) << plan.error().describe();
    EXPECT_EQ(plan->workersAsked.value, threads);
    EXPECT_FALSE(plan->coreLeftToMainThread);

    options.workers = 0;
    ::setenv("STARPU_NCPU", std::to_string(threads).c_str(), 1);
    plan = planRecord(options);
    ASSERT_TRUE(plan) << plan.error().describe();
    EXPECT_EQ(plan->workersAsked.value, threads);
    EXPECT_EQ(plan->workersAsked.source, SettingSource::Environment);
    EXPECT_FALSE(plan->coreLeftToMainThread);
}
