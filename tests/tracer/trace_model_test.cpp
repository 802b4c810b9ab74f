// The compact trace model: markers kept as fields with their strings interned (the recorded
// text given back exactly), dependencies kept as 4-byte task indexes with the jobs outside the
// trace in their own table.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <memory>
#include <numeric>
#include <span>
#include <sstream>
#include <tuple>
#include <vector>

namespace starscope::tracer {
namespace {

using namespace testing;
using starscope::testing::TempDir;

// records written to path, then mapped as a native file's columns are.
std::shared_ptr<const files::MappedFile> mapRecords(const std::filesystem::path& path,
                                                   const std::vector<std::uint64_t>& records) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(records.data()), static_cast<std::streamsize>(records.size() * sizeof records[0]));
    auto file = std::make_shared<const files::MappedFile>(path);
    EXPECT_EQ(file->error(), "");
    return file;
}

std::span<const std::uint64_t> recordsOf(const files::MappedFile& file) {
    return {reinterpret_cast<const std::uint64_t*>(file.data()), file.size() / sizeof(std::uint64_t)};
}

std::vector<std::uint64_t> jobsOf(const Dependencies& dependencies) {
    return {dependencies.begin(), dependencies.end()};
}

// Every kind with the fields the runtime writes: format() then the model gives the marker back
// without keeping its text.
TEST(TraceModel, AFormattedMarkerKeepsNoTextAndGivesItBack) {
    const std::vector<markers::Marker> written = {
        {markers::Kind::BatchBegin, 0, 3, 1, -1, {}},
        {markers::Kind::BatchEnd, 4, 936, 0, -1, {}},
        {markers::Kind::ResetWaitBegin, -1, -1, -1, 12, "batch0"},
        {markers::Kind::ResetWaitEnd, -1, -1, -1, 12, "batch0"},
        {markers::Kind::LoadBegin, 1, 7, -1, -1, "images"},
        {markers::Kind::LoadEnd, 1, 7, -1, -1, "images"},
        {markers::Kind::PrefetchBegin, 2, 8, 2, -1, "prefetch1"},
        {markers::Kind::PrefetchEnd, 2, 8, 2, -1, "prefetch1"},
    };
    Trace trace;
    for (const auto& marker : written) {
        const auto text = markers::format(marker);
        auto status = markers::ParseStatus::NotAMarker;
        const auto event = trace.makeMarker(5, text, &status);
        EXPECT_EQ(status, markers::ParseStatus::Ok) << text;
        EXPECT_TRUE(event.parsed) << text;
        EXPECT_EQ(event.rawText, kNoName) << text;
        EXPECT_EQ(trace.markerOf(event), marker) << text;
        EXPECT_EQ(trace.textOf(event), text);
        EXPECT_EQ(trace.arenaOf(event), marker.arena);
    }
    // Arenas are interned once each.
    EXPECT_EQ(trace.names.size(), 3U);
    EXPECT_LE(sizeof(MarkerEvent), 48U);
}

// A text format() would not give back (another field order, an unknown key, a leading zero) is
// kept as recorded; a user event that is not a marker, or a malformed one, is kept as text.
TEST(TraceModel, ATextFormatWouldNotGiveBackIsKept) {
    Trace trace;
    const std::vector<std::string> kept = {"ss1:batch_begin batch=3 epoch=0", "ss1:batch_end epoch=1 batch=2 colour=red",
                                           "ss1:batch_begin epoch=01 batch=2"};
    for (const auto& text : kept) {
        const auto event = trace.makeMarker(1, text);
        EXPECT_TRUE(event.parsed) << text;
        EXPECT_NE(event.rawText, kNoName) << text;
        EXPECT_EQ(trace.textOf(event), text);
        EXPECT_EQ(trace.markerOf(event), markers::parse(text).marker) << text;
    }
    auto status = markers::ParseStatus::Ok;
    const auto flush = trace.makeMarker(2, "fxt flush", &status);
    EXPECT_EQ(status, markers::ParseStatus::NotAMarker);
    EXPECT_FALSE(flush.parsed);
    EXPECT_EQ(trace.textOf(flush), "fxt flush");
    const auto again = trace.makeMarker(3, "fxt flush");
    EXPECT_EQ(again.rawText, flush.rawText);   // one copy of a repeated text
    const auto malformed = trace.makeMarker(4, "ss1:batch_begin epoch=x", &status);
    EXPECT_EQ(status, markers::ParseStatus::Malformed);
    EXPECT_FALSE(malformed.parsed);
    EXPECT_EQ(trace.textOf(malformed), "ss1:batch_begin epoch=x");
}

// Exporters write each marker's text as the trace recorded it, and the native file keeps the
// markers as they were.
TEST(TraceModel, ExportersAndTheNativeFileKeepMarkerTexts) {
    auto trace = makeTrace({{"w0", LaneKind::CpuWorker, {{"Executing", 0, 100}}}}, 100);
    const std::vector<std::string> texts = {"ss1:batch_begin epoch=0 batch=0 slot=0", "ss1:batch_end batch=0 epoch=0",
                                            "ss1:reset_wait_begin handles=3 arena=batch0", "fxt flush"};
    for (std::size_t i = 0; i < texts.size(); ++i) {
        trace.markers.push_back(trace.makeMarker(static_cast<TimeNs>(10 * i), texts[i]));
    }
    std::ostringstream paje;
    writePaje(trace, paje);
    std::ostringstream chrome;
    writeChromeJson(trace, chrome);
    for (const auto& text : texts) {
        EXPECT_NE(paje.str().find(" \"" + text + "\""), std::string::npos) << text;
        EXPECT_NE(chrome.str().find("\"name\":\"" + text + "\""), std::string::npos) << text;
    }
    TempDir dir;
    const auto file = dir / "markers.sstrace";
    ASSERT_TRUE(writeNativeFile(trace, file));
    const auto back = readNative(file);
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(back->names, trace.names);
    EXPECT_EQ(back->markers, trace.markers);
}

// A task's times hold what a span's do (48 bits, signed: the viewer shifts runs to negative
// times), in a 32-byte record.
TEST(TraceModel, TaskTimesHoldWhatSpansHold) {
    EXPECT_EQ(sizeof(Task), 32U);
    for (const TimeNs time : {TimeNs{-1}, TimeNs{0}, TimeNs{1}, TimeNs{65'536}, TimeNs{4'294'967'296},
                              kMaxTraceTime, -kMaxTraceTime - 1, TimeNs{-123'456'789'012}}) {
        Task task;
        task.start = time;
        task.end = time;
        EXPECT_EQ(static_cast<TimeNs>(task.start), time);
        const Span span(time, time, 0);
        EXPECT_EQ(static_cast<TimeNs>(task.end), span.start);
    }
    const Task unknown;
    EXPECT_EQ(unknown.submit, -1);
    EXPECT_EQ(unknown.start, -1);
    EXPECT_EQ(unknown.end, -1);
}

// A task names its codelet and footprint by one id: equal pairs share it, an unnamed task has none.
TEST(TraceModel, ACodeletAndItsFootprintAreOneKey) {
    Trace trace;
    const auto conv = trace.names.intern("conv_fwd");
    const auto dense = trace.names.intern("dense_fwd");
    Task small;
    Task large;
    Task again;
    Task other;
    trace.setCodelet(small, conv, 0x10);
    trace.setCodelet(large, conv, 0x20);
    trace.setCodelet(again, conv, 0x10);
    trace.setCodelet(other, dense, 0x10);
    EXPECT_EQ(small.codeletKey, again.codeletKey);
    EXPECT_NE(small.codeletKey, large.codeletKey);
    EXPECT_NE(small.codeletKey, other.codeletKey);
    EXPECT_EQ(trace.codeletKeys.size(), 3U);
    EXPECT_EQ(trace.codeletOf(large), "conv_fwd");
    EXPECT_EQ(trace.codeletIdOf(other), dense);
    EXPECT_EQ(trace.footprintOf(large), 0x20U);
    EXPECT_EQ(trace.footprintOf(other), 0x10U);
    const Task unnamed;
    EXPECT_EQ(unnamed.codeletKey, kNoCodeletKey);
    EXPECT_EQ(trace.codeletIdOf(unnamed), kNoName);
    EXPECT_EQ(trace.footprintOf(unnamed), 0U);
    EXPECT_EQ(trace.codeletOf(unnamed), "");
    trace.setCodelet(small, kNoName, 0);
    EXPECT_EQ(small.codeletKey, kNoCodeletKey);
}

// A reader learns a task's codelet and its footprint from separate events, so the table gets
// pairs no task keeps; once the tasks are indexed, the table is the pairs tasks use in the order
// they first use them, whatever the order they were set in.
TEST(TraceModel, IndexedTasksNumberTheirCodeletKeysByFirstUse) {
    const auto build = [](bool footprintFirst) {
        Trace trace;
        const auto conv = trace.names.intern("conv_fwd");
        const auto dense = trace.names.intern("dense_fwd");
        trace.lanes.emplace_back().name = "CPU 0";
        for (const std::uint64_t job : {1U, 2U, 3U}) {
            Task task;
            task.jobId = job;
            task.lane = 0;
            task.start = static_cast<TimeNs>(10 * job);
            task.end = static_cast<TimeNs>(10 * job + 5);
            trace.tasks.push_back(task);
        }
        const std::vector<std::pair<NameId, std::uint32_t>> keys = {{dense, 7}, {conv, 9}, {dense, 7}};
        for (std::size_t i = 0; i < keys.size(); ++i) {
            auto& task = trace.tasks.edit()[footprintFirst ? keys.size() - 1 - i : i];
            const auto& key = keys[footprintFirst ? keys.size() - 1 - i : i];
            if (footprintFirst) {
                trace.setCodelet(task, kNoName, key.second);
                trace.setCodelet(task, key.first, trace.footprintOf(task));
            } else {
                trace.setCodelet(task, key.first, 0);
                trace.setCodelet(task, trace.codeletIdOf(task), key.second);
            }
        }
        trace.indexTasks();
        return trace;
    };
    const auto one = build(false);
    const auto other = build(true);
    ASSERT_EQ(one.codeletKeys.size(), 2U);
    EXPECT_EQ(one.codeletKeys.keys()[0], (CodeletKey{one.names.find("dense_fwd"), 7}));
    EXPECT_EQ(one.codeletKeys.keys()[1], (CodeletKey{one.names.find("conv_fwd"), 9}));
    EXPECT_EQ(one.tasks[0].codeletKey, 0U);
    EXPECT_EQ(one.tasks[2].codeletKey, 0U);
    EXPECT_EQ(one, other);
}

// A lane lists its tasks by start then end whatever order they were numbered in; tasks with the
// same times keep their numbering's order.
TEST(TraceModel, ALaneListsItsTasksInTheOrderTheyRan) {
    Trace trace;
    trace.lanes.emplace_back().name = "CPU 0";
    trace.lanes.emplace_back().name = "CPU 1";
    const std::vector<std::tuple<std::int16_t, TimeNs, TimeNs>> runs = {
        {0, 30, 35}, {1, 5, 9}, {0, 10, 15}, {0, 10, 12}, {1, 20, 25}, {0, 30, 35}, {0, 40, 45}};
    for (const auto& [lane, start, end] : runs) {
        Task task;
        task.jobId = trace.tasks.size() + 1;
        task.lane = lane;
        task.start = start;
        task.end = end;
        trace.tasks.push_back(task);
    }
    trace.indexTasks();
    EXPECT_EQ(trace.lanes[0].tasks, (std::vector<TaskIndex>{3, 2, 0, 5, 6}));
    EXPECT_EQ(trace.lanes[1].tasks, (std::vector<TaskIndex>{1, 4}));
}

// What a recorder's read-back writes into run.json, counted from the model alone: every worker
// lane (CPU, CUDA, other) but the main thread, MPI threads and memory nodes; every task that
// started, a submitted task that never ran left out.
TEST(TraceModel, CountsWorkerLanesAndTasksThatRan) {
    Trace trace;
    for (const LaneKind kind : {LaneKind::CpuWorker, LaneKind::MainThread, LaneKind::CudaWorker,
                                LaneKind::MpiThread, LaneKind::OtherWorker, LaneKind::MemoryNode}) {
        trace.lanes.emplace_back().kind = kind;
    }
    for (const TimeNs start : {TimeNs{0}, TimeNs{-1}, TimeNs{7}, TimeNs{-1}, TimeNs{12}}) {
        Task task;
        task.jobId = trace.tasks.size() + 1;
        task.start = start;
        trace.tasks.push_back(task);
    }
    EXPECT_EQ(trace.workerCount(), 3U);
    EXPECT_EQ(trace.executedTaskCount(), 3U);
    EXPECT_EQ(Trace().workerCount(), 0U);
    EXPECT_EQ(Trace().executedTaskCount(), 0U);
}

// 32-byte markers: a time as a span's, a 16-bit lane and rank; a marker whose slot or handle count
// is beyond what it holds is kept as the text it was, not wrapped.
TEST(TraceModel, MarkerFieldsBeyondTheModelAreKeptAsText) {
    EXPECT_EQ(sizeof(MarkerEvent), 32U);
    Trace trace;
    const std::string wideSlot = "ss1:batch_begin epoch=0 batch=1 slot=300";
    const std::string wideHandles = "ss1:reset_wait_begin handles=4294967296 arena=batch0";
    for (const auto& text : {wideSlot, wideHandles}) {
        auto status = markers::ParseStatus::NotAMarker;
        const auto event = trace.makeMarker(kMaxTraceTime, text, &status);
        EXPECT_EQ(status, markers::ParseStatus::Ok) << text;
        EXPECT_FALSE(event.parsed) << text;
        EXPECT_EQ(trace.textOf(event), text);
        EXPECT_EQ(static_cast<TimeNs>(event.time), kMaxTraceTime);
    }
    const markers::Marker edge{markers::Kind::ResetWaitEnd, 1, 2, kMaxMarkerSlot, kMaxMarkerHandles, "a"};
    const auto kept = trace.makeMarker(0, edge);
    EXPECT_TRUE(kept.parsed);
    EXPECT_EQ(trace.markerOf(kept), edge);
    auto beyond = edge;
    beyond.slot = kMaxMarkerSlot + 1;
    const auto text = trace.makeMarker(0, beyond);
    EXPECT_FALSE(text.parsed);
    EXPECT_EQ(trace.textOf(text), markers::format(beyond));
    EXPECT_EQ(Trace::shortIndex(-1), -1);
    EXPECT_EQ(Trace::shortIndex(kMaxRank), kMaxRank);
    EXPECT_EQ(Trace::shortIndex(kMaxRank + 1), -1);
}

// Jobs 10, 20, 30; job 30 waited for 20, 10 and 99, which the trace does not hold.
Trace threeJobs() {
    Trace trace;
    for (const std::uint64_t job : {10U, 20U, 30U}) {
        Task task;
        task.jobId = job;
        trace.tasks.push_back(task);
    }
    trace.setDependencies(1, {10});
    trace.setDependencies(2, {99, 20, 10});
    return trace;
}

TEST(TraceModel, DependenciesAreTaskIndexesAndOutsideJobs) {
    const auto trace = threeJobs();
    EXPECT_EQ(sizeof(trace.dependencies.front()), 4U);
    EXPECT_TRUE(trace.dependenciesOf(0).empty());
    EXPECT_EQ(jobsOf(trace.dependenciesOf(1)), (std::vector<std::uint64_t>{10}));
    const auto deps = trace.dependenciesOf(trace.tasks[2]);
    EXPECT_EQ(jobsOf(deps), (std::vector<std::uint64_t>{10, 20, 99}));
    ASSERT_EQ(deps.size(), 3U);
    EXPECT_EQ(deps.taskAt(0), 0U);
    EXPECT_EQ(deps.taskAt(1), 1U);
    EXPECT_EQ(deps.taskAt(2), kNoTask);
    EXPECT_EQ(deps[2], 99U);
    EXPECT_EQ(trace.outsideJobs, (std::vector<std::uint64_t>{99}));
    // A task of another trace has none here.
    const Task stranger = trace.tasks[2];
    EXPECT_TRUE(trace.dependenciesOf(stranger).empty());
}

TEST(TraceModel, DependenciesSurviveTheNativeFile) {
    auto trace = threeJobs();
    auto lanes = makeTrace({{"w0", LaneKind::CpuWorker, {{"Sleeping", 0, 100}}}}, 100);
    trace.lanes = lanes.lanes;
    trace.states = lanes.states;
    trace.end = lanes.end;
    trace.indexTasks();
    TempDir dir;
    const auto file = dir / "deps.sstrace";
    ASSERT_TRUE(writeNativeFile(trace, file));
    const auto back = readNative(file);
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(back->dependencies, trace.dependencies);
    EXPECT_EQ(back->dependencyStarts, trace.dependencyStarts);
    EXPECT_EQ(back->outsideJobs, trace.outsideJobs);
    EXPECT_EQ(jobsOf(back->dependenciesOf(2)), (std::vector<std::uint64_t>{10, 20, 99}));
}

// A recorded trace: every dependency the reader kept names a job, those of the trace by index.
TEST(TraceModel, ARecordedTraceKeepsItsDependencies) {
    const auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace) << trace.error().describe();
    std::size_t inside = 0;
    for (std::size_t i = 0; i < trace->tasks.size(); ++i) {
        const auto deps = trace->dependenciesOf(static_cast<TaskIndex>(i));
        for (std::size_t d = 0; d < deps.size(); ++d) {
            if (const auto task = deps.taskAt(d); task != kNoTask) {
                EXPECT_EQ(trace->tasks[task].jobId, deps[d]);
                ++inside;
            } else {
                EXPECT_TRUE(std::binary_search(trace->outsideJobs.begin(), trace->outsideJobs.end(), deps[d]));
            }
            if (d > 0) {
                EXPECT_LT(deps[d - 1], deps[d]);   // in job id order
            }
        }
    }
    EXPECT_GT(inside, 0U);
}

// A column viewing records it does not own (a mapped file's) reads them where they lie, keeps
// their memory alive in every copy, and copies them out at the first change, whichever
// operation makes it; the records it viewed are never written.
TEST(TraceModel, AColumnViewsRecordsUntilItIsChanged) {
    TempDir dir;
    auto records = mapRecords(dir.path() / "records", {1, 2, 3, 4});
    const auto view = recordsOf(*records);
    Column<std::uint64_t> column = Column<std::uint64_t>::mapped(view, records);
    const std::weak_ptr<const files::MappedFile> watched = records;
    records.reset();
    ASSERT_TRUE(column.isMapped());
    EXPECT_EQ(column.data(), view.data());   // read where they lie
    EXPECT_EQ(column, (std::vector<std::uint64_t>{1, 2, 3, 4}));
    Column<std::uint64_t> copy = column;
    column = Column<std::uint64_t>{};
    EXPECT_FALSE(watched.expired()) << "a copy keeps the viewed memory";
    const std::vector<std::function<void(Column<std::uint64_t>&)>> changes = {
        [](auto& c) { c.push_back(5); },
        [](auto& c) { c.emplace_back(5); },
        [](auto& c) { c.edit()[0] = 9; },
        [](auto& c) { c.resize(2); },
        [](auto& c) {
            const std::vector<std::uint64_t> more = {7, 8};
            c.insert(c.begin() + 1, more.begin(), more.end());
        },
        [](auto& c) { c.erase(c.begin(), c.begin() + 1); },
        [](auto& c) { c.pop_back(); },
    };
    for (std::size_t i = 0; i < changes.size(); ++i) {
        Column<std::uint64_t> changed = copy;
        changes[i](changed);
        EXPECT_FALSE(changed.isMapped()) << "change " << i;
        EXPECT_NE(changed.data(), view.data()) << "change " << i;
        EXPECT_NE(changed, copy) << "change " << i;
    }
    EXPECT_EQ(copy, (std::vector<std::uint64_t>{1, 2, 3, 4})) << "the viewed records are unchanged";
    copy.clear();
    EXPECT_TRUE(copy.empty());
    EXPECT_FALSE(copy.isMapped());
    EXPECT_TRUE(watched.expired()) << "the last view gone, the memory is let go";
}

// A pass done with a mapped column's records lets go of their pages (the next read maps them
// again, the same records); an owned column's records stay whatever is asked of it.
TEST(TraceModel, AMappedColumnLetsGoOfThePagesAPassIsDoneWith) {
    TempDir dir;
    std::vector<std::uint64_t> written(std::size_t{1} << 19);   // 4 MiB
    std::iota(written.begin(), written.end(), std::uint64_t{7});
    const auto file = mapRecords(dir.path() / "records", written);
    const auto column = Column<std::uint64_t>::mapped(recordsOf(*file), file);
    const auto sum = [&] { return std::accumulate(column.begin(), column.end(), std::uint64_t{0}); };
    const std::uint64_t expected = std::accumulate(written.begin(), written.end(), std::uint64_t{0});
    const std::size_t before = starscope::testing::residentFileKib();
    EXPECT_EQ(sum(), expected);
    const std::size_t read = starscope::testing::residentFileKib();
    EXPECT_GE(read, before + 3 * 1024) << "the pass mapped the column's pages";
    column.releaseResident(0, column.size() / 2);
    const std::size_t half = starscope::testing::residentFileKib();
    EXPECT_LE(half + 1536, read) << "half the column (2 MiB) let go";
    EXPECT_GE(half + 2560, read) << "the other half kept";
    column.releaseResident();
    EXPECT_LE(starscope::testing::residentFileKib() + 3 * 1024, read);
    EXPECT_EQ(sum(), expected) << "read again, the same records";

    // A pass front to back holds about a step (2 MiB) of the column, and none of it once done.
    column.releaseResident();
    const std::size_t start = starscope::testing::residentFileKib();
    std::size_t most = start;
    std::uint64_t again = 0;
    {
        ReleasingPass<std::uint64_t> pass(column);
        for (std::size_t i = 0; i < column.size(); ++i) {
            pass.passed(i);
            again += column[i];
            if (i % 4096 == 0) {
                most = std::max(most, starscope::testing::residentFileKib());
            }
        }
    }
    EXPECT_EQ(again, expected);
    EXPECT_GE(most, start + 1024) << "the pass mapped its step";
    EXPECT_LE(most, start + 2048 + 512) << "a pass holds a step of the 4 MiB, not all it read";
    EXPECT_LE(starscope::testing::residentFileKib(), start + 128) << "and lets go of the last at its end";

    Column<std::uint64_t> owned(written);
    owned.releaseResident();
    EXPECT_EQ(owned, written) << "an owned column keeps its records";
}

} // namespace
} // namespace starscope::tracer
