// The native format: exact round trip, distinct errors for newer, older and damaged files,
// and files whose checksum is right but whose content contradicts the model.

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/exporters/exporters.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <thread>

namespace starscope::tracer {
namespace {

using namespace testing;
using starscope::testing::TempDir;

std::string bytes(const Trace& trace) {
    std::ostringstream out;
    writeNative(trace, out);
    return out.str();
}

void writeBytes(const std::filesystem::path& path, const std::string& data) {
    std::ofstream(path, std::ios::binary) << data;
}

TEST(NativeFormat, RoundTripIsExact) {
    auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    TempDir dir;
    ASSERT_TRUE(writeNativeFile(*trace, dir / "t.sstrace"));
    EXPECT_EQ(detectFormat(dir / "t.sstrace").value(), InputFormat::Native);
    const auto back = readTrace(dir / "t.sstrace");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, *trace);
    EXPECT_EQ(bytes(*back), bytes(*trace));   // deterministic bytes
    // Its columns read by several threads at once, the payload checksummed by one of them.
    for (const unsigned threads : {2U, 3U, 8U}) {
        const auto shared = readNative(dir / "t.sstrace", ReadOptions{{}, threads, {}});
        ASSERT_TRUE(shared) << shared.error().describe();
        EXPECT_EQ(*shared, *trace) << threads << " threads";
    }
}

// Every column of the model (each level's spans, the tasks, the dependency table) is the mapped
// file's, read where it lies, whatever thread checked it; analyses read it as it is; a copy of
// the trace keeps the file mapped once the trace it was read into is gone, even when the file is
// replaced (as a run folder's cache is); a change copies the column out, never into the file.
TEST(NativeFormat, ColumnsAreReadWhereTheyLieInTheFile) {
    const auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    ASSERT_FALSE(trace->tasks.empty());
    TempDir dir;
    const auto file = dir / "t.sstrace";
    ASSERT_TRUE(writeNativeFile(*trace, file));
    const auto allMapped = [](const Trace& t) {
        bool mapped = t.tasks.isMapped() && (t.dependencies.empty() || t.dependencies.isMapped())
                      && (t.dependencyStarts.empty() || t.dependencyStarts.isMapped());
        for (const auto& lane : t.lanes) {
            for (const auto& level : lane.levels) {
                mapped = mapped && (level.empty() || level.isMapped());
            }
        }
        return mapped;
    };
    std::optional<Trace> kept;
    for (const unsigned threads : {1U, 2U}) {
        auto back = readNative(file, ReadOptions{{}, threads, {}});
        ASSERT_TRUE(back) << back.error().describe();
        EXPECT_TRUE(allMapped(*back)) << threads << " threads";
        const auto stats = computeStats(*back);
        EXPECT_EQ(stats, computeStats(*trace));
        EXPECT_TRUE(allMapped(*back)) << "after stats";
        kept = *back;
    }
    ASSERT_TRUE(writeNativeFile(regularLanes(2, 10, 10, 1), file));   // replaced, as a cache is
    EXPECT_EQ(*kept, *trace);
    auto& level = kept->lanes.front().levels.front();
    ASSERT_FALSE(level.empty());
    const Span first = level[0];
    level.edit()[0] = Span{first.start, first.start, first.state};
    EXPECT_FALSE(level.isMapped());
    EXPECT_EQ(level[0].end, first.start);
    EXPECT_TRUE(kept->tasks.isMapped());
    EXPECT_EQ(kept->tasks, trace->tasks);
}

// A read on several threads asks its caller whether to go on from the caller's thread only, and
// stops when told.
TEST(NativeFormat, ReadOnSeveralThreadsIsCancelled) {
    const auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    TempDir dir;
    ASSERT_TRUE(writeNativeFile(*trace, dir / "t.sstrace"));
    const auto caller = std::this_thread::get_id();
    int asked = 0;
    bool elsewhere = false;
    ReadOptions options{[&](double) {
                            elsewhere = elsewhere || std::this_thread::get_id() != caller;
                            return ++asked < 2;
                        },
                        2, {}};
    const auto back = readNative(dir / "t.sstrace", options);
    ASSERT_FALSE(back);
    EXPECT_EQ(back.error().code, ErrorCode::Cancelled) << back.error().describe();
    EXPECT_FALSE(elsewhere);
}

// The reader finds a dependency's task by searching from where it found the previous one: jobs
// far behind and ahead of it, between two jobs, before the first and after the last, and the
// same job twice, all come back as written.
TEST(NativeFormat, DependenciesOnJobsAnywhereComeBackAsWritten) {
    Trace trace;
    trace.lanes.emplace_back();
    trace.lanes[0].levels.emplace_back();
    for (std::uint64_t i = 0; i < 300; ++i) {
        Task task;
        task.jobId = 10 + 3 * i;   // gaps between jobs
        trace.tasks.push_back(task);
    }
    const std::vector<std::vector<std::uint64_t>> waits = {
        {}, {10}, {5, 10, 11, 907}, {907, 10, 13}, {100, 400, 1000, 2}, {13, 13}, {898, 11, 12}, {910},
    };
    for (std::size_t i = 0; i < trace.tasks.size(); ++i) {
        trace.setDependencies(static_cast<TaskIndex>(i), waits[i % waits.size()]);
    }
    trace.metadata[std::string(kDependenciesMetadata)] = "recorded";
    TempDir dir;
    ASSERT_TRUE(writeNativeFile(trace, dir / "deps.sstrace"));
    const auto back = readTrace(dir / "deps.sstrace");
    ASSERT_TRUE(back) << back.error().describe();
    // (setDependencies keeps outside jobs in the order it met them, readers sort them: the jobs
    // each task waited for are compared.)
    for (std::size_t i = 0; i < trace.tasks.size(); ++i) {
        const auto deps = back->dependenciesOf(static_cast<TaskIndex>(i));
        const std::vector<std::uint64_t> jobs(deps.begin(), deps.end());
        const auto expected = trace.dependenciesOf(static_cast<TaskIndex>(i));
        EXPECT_EQ(jobs, std::vector<std::uint64_t>(expected.begin(), expected.end())) << "task " << i;
    }
}

TEST(NativeFormat, RunFolderUsesItsFreshCache) {
    TempDir dir;
    const auto run = dir / "run";
    std::filesystem::create_directories(run);
    std::filesystem::copy_file(smallProfFile(), run / "prof_file__0");
    const auto direct = readTrace(run);
    ASSERT_TRUE(direct);
    EXPECT_FALSE(direct->metadata.contains("cache"));
    ASSERT_TRUE(writeNativeFile(*direct, run / "trace.sstrace"));
    const auto cached = readTrace(run);
    ASSERT_TRUE(cached);
    EXPECT_EQ(cached->metadata.at("cache"), (run / "trace.sstrace").string());
    EXPECT_EQ(cached->lanes, direct->lanes);
    EXPECT_EQ(cached->tasks, direct->tasks);
    // A damaged cache is ignored, not an error.
    writeBytes(run / "trace.sstrace", "SSTRACE");
    const auto fallback = readTrace(run);
    ASSERT_TRUE(fallback);
    EXPECT_FALSE(fallback->metadata.contains("cache"));
}

// A run folder holding a copy of the small golden prof file (a fresh file, fresh mtime).
std::filesystem::path makeRun(const TempDir& dir, const std::string& name, const std::filesystem::path& prof) {
    const auto run = dir / name;
    std::filesystem::create_directories(run);
    std::filesystem::copy_file(prof, run / "prof_file__0");
    return run;
}

bool warnsAbout(const Trace& trace, const std::string& words) {
    return std::any_of(trace.warnings.begin(), trace.warnings.end(),
                       [&](const std::string& w) { return w.find(words) != std::string::npos; });
}

// What users saw: another run's cache, newer than this run's prof files, shown as this run.
TEST(NativeFormat, RunFolderIgnoresAndRebuildsACacheOfAnotherRun) {
    TempDir dir;
    const auto other = makeRun(dir, "other", goldenRun("masked13") / "prof_file__0");
    const auto run = makeRun(dir, "run", smallProfFile());
    const auto direct = readTrace(run);
    const auto otherTrace = readTrace(other);
    ASSERT_TRUE(direct && otherTrace);
    ASSERT_NE(direct->tasks.size(), otherTrace->tasks.size());
    ASSERT_TRUE(writeNativeFile(*otherTrace, run / "trace.sstrace"));
    // Newer than the prof file, as a copy made after the run is.
    std::filesystem::last_write_time(run / "prof_file__0",
                                     std::filesystem::last_write_time(run / "trace.sstrace") - std::chrono::hours(1));
    const auto read = readTrace(run);
    ASSERT_TRUE(read) << read.error().describe();
    EXPECT_FALSE(read->metadata.contains("cache"));
    EXPECT_EQ(read->tasks, direct->tasks);
    EXPECT_TRUE(warnsAbout(*read, "trace.sstrace not used: it was made from a")) << ::testing::PrintToString(read->warnings);
    EXPECT_TRUE(warnsAbout(*read, "rebuilt"));
    // The rebuilt cache is this run's, used from now on, and carries no note about the old one.
    const auto again = readTrace(run);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->metadata.at("cache"), (run / "trace.sstrace").string());
    EXPECT_EQ(again->tasks, direct->tasks);
    EXPECT_FALSE(warnsAbout(*again, "not used"));
}

TEST(NativeFormat, RunFolderCacheWithoutItsSourcesIsRebuilt) {
    TempDir dir;
    const auto run = makeRun(dir, "run", smallProfFile());
    auto trace = readTrace(run);
    ASSERT_TRUE(trace);
    trace->metadata.erase(std::string(kRunSourcesMetadata));   // as an older starscope wrote it
    ASSERT_TRUE(writeNativeFile(*trace, run / "trace.sstrace"));
    const auto read = readTrace(run);
    ASSERT_TRUE(read);
    EXPECT_FALSE(read->metadata.contains("cache"));
    EXPECT_TRUE(warnsAbout(*read, "does not record which prof files")) << ::testing::PrintToString(read->warnings);
}

TEST(NativeFormat, TouchingOrChangingAProfFileInvalidatesTheCache) {
    TempDir dir;
    const auto run = makeRun(dir, "run", smallProfFile());
    const auto cache = run / "trace.sstrace";
    const auto direct = readTrace(run);
    ASSERT_TRUE(direct);
    ASSERT_TRUE(writeNativeFile(*direct, cache));
    ASSERT_TRUE(readTrace(run)->metadata.contains("cache"));

    // Touched: same bytes, another modification time (even an older one).
    std::filesystem::last_write_time(run / "prof_file__0",
                                     std::filesystem::last_write_time(run / "prof_file__0") - std::chrono::seconds(5));
    const auto touched = readTrace(run);
    ASSERT_TRUE(touched);
    EXPECT_FALSE(touched->metadata.contains("cache"));
    EXPECT_TRUE(warnsAbout(*touched, "prof_file__0 was modified after it was made"))
        << ::testing::PrintToString(touched->warnings);
    ASSERT_TRUE(readTrace(run)->metadata.contains("cache"));   // rebuilt

    // Changed in its first bytes, same size, its old time put back.
    const auto time = std::filesystem::last_write_time(run / "prof_file__0");
    auto data = starscope::testing::readFile(run / "prof_file__0");
    data[100] = static_cast<char>(data[100] ^ 0x01);
    writeBytes(run / "prof_file__0", data);
    std::filesystem::last_write_time(run / "prof_file__0", time);
    const auto changed = readTrace(run);
    EXPECT_FALSE(changed && changed->metadata.contains("cache"));
    if (changed) {
        EXPECT_TRUE(warnsAbout(*changed, "its first 64 KiB differ")) << ::testing::PrintToString(changed->warnings);
    }
}

TEST(NativeFormat, RunFolderUsesAnInconsistentCacheNever) {
    TempDir dir;
    const auto run = makeRun(dir, "run", smallProfFile());
    auto trace = readTrace(run);
    ASSERT_TRUE(trace);
    const auto good = *trace;
    trace->setCodelet(trace->tasks.edit()[0], 4040, 0);   // its sources match: only its content is wrong
    ASSERT_TRUE(writeNativeFile(*trace, run / "trace.sstrace"));
    const auto read = readTrace(run);
    ASSERT_TRUE(read) << read.error().describe();
    EXPECT_FALSE(read->metadata.contains("cache"));
    EXPECT_EQ(read->tasks, good.tasks);
    EXPECT_TRUE(warnsAbout(*read, "inconsistent native trace")) << ::testing::PrintToString(read->warnings);
}

TEST(NativeFormat, TooNewAndTooOldAreDistinctErrors) {
    const auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    auto data = bytes(*trace);
    TempDir dir;
    for (const std::uint32_t version : {kNativeVersion + 1, 0U}) {
        std::memcpy(data.data() + 8, &version, 4);
        writeBytes(dir / "v.sstrace", data);
        const auto back = readNative(dir / "v.sstrace");
        ASSERT_FALSE(back);
        EXPECT_EQ(back.error().code, version == 0 ? ErrorCode::TooOld : ErrorCode::TooNew);
        EXPECT_EQ(back.error().offset, 8U);
        EXPECT_NE(back.error().message.find(std::to_string(version)), std::string::npos);
    }
}

TEST(NativeFormat, TruncatedAndDamagedFilesAreErrorsNotCrashes) {
    const auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    const auto data = bytes(*trace);
    TempDir dir;
    for (const std::size_t size : {std::size_t{3}, std::size_t{30}, data.size() / 2, data.size() - 1}) {
        writeBytes(dir / "cut.sstrace", data.substr(0, size));
        const auto back = readTrace(dir / "cut.sstrace");
        ASSERT_FALSE(back) << "size " << size;
        EXPECT_TRUE(back.error().code == ErrorCode::Corrupt || back.error().code == ErrorCode::Format
                    || back.error().code == ErrorCode::Unsupported)
            << back.error().describe();
        EXPECT_TRUE(back.error().offset.has_value());
    }
    auto damaged = data;
    damaged[data.size() / 2] = static_cast<char>(damaged[data.size() / 2] ^ 0x5a);
    writeBytes(dir / "bad.sstrace", damaged);
    for (const unsigned threads : {1U, 2U}) {
        const auto back = readNative(dir / "bad.sstrace", ReadOptions{{}, threads, {}});
        ASSERT_FALSE(back);
        EXPECT_EQ(back.error().code, ErrorCode::Corrupt);
        EXPECT_NE(back.error().message.find("checksum"), std::string::npos) << threads << " threads";
    }
}

// The checksum the writer appends, recomputed after a byte patch (as the native fuzzer repairs
// its inputs), so that the reader gets past the checksum to the content.
void repairChecksum(std::string& data) {
    constexpr std::size_t kHeader = 24;
    std::uint64_t size = 0;
    std::uint32_t version = 0;
    std::memcpy(&size, data.data() + 16, 8);
    std::memcpy(&version, data.data() + 8, 4);
    const std::uint64_t hash = nativeChecksum(std::string_view(data).substr(kHeader, size), version);
    std::memcpy(data.data() + kHeader + size, &hash, 8);
}

// One inconsistency: how to break a correct trace, and words the error must name.
struct Inconsistency {
    std::string name;
    std::function<void(Trace&)> breakIt;
    std::string record;   // the record named in the message
};

Span& firstTaskSpan(Trace& trace) {
    for (auto& lane : trace.lanes) {
        for (auto& span : lane.levels.empty() ? std::span<Span>() : std::span<Span>(lane.levels.front().edit())) {
            if (span.runsTask != 0) {
                return span;
            }
        }
    }
    throw std::logic_error("the golden trace runs no task");
}

TaskIndex& firstDependency(Trace& trace) {
    if (trace.dependencies.empty()) {
        throw std::logic_error("the golden trace has no dependencies");
    }
    return trace.dependencies.edit().front();
}

std::vector<Span>& longestLevel(Trace& trace) {
    Column<Span>* best = &trace.lanes.front().levels.front();
    for (auto& lane : trace.lanes) {
        for (auto& level : lane.levels) {
            best = level.size() > best->size() ? &level : best;
        }
    }
    return best->edit();
}

std::vector<Inconsistency> inconsistencies() {
    return {
        {"codelet name id", [](Trace& t) { t.setCodelet(t.tasks.edit()[3], 99999, t.footprintOf(t.tasks[3])); }, "codelet key "},
        {"codelet key id", [](Trace& t) { t.tasks.edit()[3].codeletKey = 4242; }, "task 3"},
        {"dependency entry", [](Trace& t) { firstDependency(t) = static_cast<TaskIndex>(t.tasks.size() + 5); }, "dependency entry "},
        {"dependency starts", [](Trace& t) { firstDependency(t), ++t.dependencyStarts.edit().back(); }, "dependency table"},
        {"task lane too big", [](Trace& t) { t.tasks.edit()[2].lane = 4242; }, "task 2"},
        {"task lane negative", [](Trace& t) { t.tasks.edit()[1].lane = -7; }, "task 1"},
        {"task ends before start", [](Trace& t) { t.tasks.edit()[0].end = t.tasks[0].start - 1; }, "task 0"},
        {"task time below -1", [](Trace& t) { t.tasks.edit()[4].submit = -50; }, "task 4"},
        {"tasks unsorted", [](Trace& t) { std::swap(t.tasks.edit()[0].jobId, t.tasks.edit()[5].jobId); }, "task "},
        {"span state id", [](Trace& t) { firstTaskSpan(t).state = 777; }, "span "},
        {"span ends before start", [](Trace& t) { longestLevel(t)[1].end = longestLevel(t)[1].start - 1; }, "span 1 "},
        {"spans overlap", [](Trace& t) { longestLevel(t)[2].start = longestLevel(t)[1].start; }, "span 2 "},
        {"spans unsorted", [](Trace& t) { std::swap(longestLevel(t)[1], longestLevel(t)[2]); }, "span 2 "},
        {"state class", [](Trace& t) { t.states[0].cls = static_cast<StateClass>(9); }, "state 0"},
        {"lane kind", [](Trace& t) { t.lanes[0].kind = static_cast<LaneKind>(8); }, "lane 0"},
        {"marker lane", [](Trace& t) { t.markers[1].lane = 555; }, "marker 1"},
        {"marker kind", [](Trace& t) { t.markers[0].kind = static_cast<markers::Kind>(100); }, "marker 0"},
        {"markers unsorted", [](Trace& t) { std::swap(t.markers[0].time, t.markers[3].time); }, "marker "},
        {"trace ends before it begins", [](Trace& t) { t.begin = t.end + 1; }, "header"},
        {"trace begins before 0", [](Trace& t) { t.begin = -5; }, "header"},
        {"span after the trace",
         [](Trace& t) {
             auto& span = longestLevel(t).back();
             span = Span{span.start, t.end + 1, span.state, span.runsTask != 0};
         },
         "span "},
    };
}

class InconsistentNative : public ::testing::TestWithParam<std::size_t> {};

// The writer writes whatever the struct holds, so each file has a right checksum.
TEST_P(InconsistentNative, ReadFailsNamingFileRecordAndOffset) {
    const auto all = inconsistencies();
    const auto& bad = all.at(GetParam());
    auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    ASSERT_GE(trace->markers.size(), 4U);
    ASSERT_GE(trace->tasks.size(), 6U);
    bad.breakIt(*trace);
    TempDir dir;
    const auto file = dir / "bad.sstrace";
    writeBytes(file, bytes(*trace));
    const auto back = readNative(file);
    ASSERT_FALSE(back) << bad.name << " was accepted";
    EXPECT_EQ(back.error().code, ErrorCode::Corrupt) << bad.name;
    EXPECT_NE(back.error().message.find("inconsistent native trace"), std::string::npos) << back.error().describe();
    EXPECT_NE(back.error().message.find(bad.record), std::string::npos) << back.error().describe();
    EXPECT_NE(back.error().describe().find(file.string()), std::string::npos);
    EXPECT_TRUE(back.error().offset.has_value()) << back.error().describe();
    // Read on several threads, the same error.
    const auto shared = readNative(file, ReadOptions{{}, 2, {}});
    ASSERT_FALSE(shared);
    EXPECT_EQ(shared.error(), back.error());
}

INSTANTIATE_TEST_SUITE_P(EachKind, InconsistentNative, ::testing::Range(std::size_t{0}, inconsistencies().size()),
                         [](const auto& param) {
                             std::string name = inconsistencies().at(param.param).name;
                             std::replace(name.begin(), name.end(), ' ', '_');
                             std::erase(name, '-');
                             return name;
                         });

// A span's 16 bytes as the file's columns hold them (native_records.hpp): start in the low
// 48 bits of the first word, end in the low 48 of the second, then the state's 15 bits and
// runsTask's one. Other tools read the format by this layout.
std::string spanBytes(std::uint64_t start, std::uint64_t end, std::uint16_t stateAndTask) {
    const std::uint64_t first = start & ((std::uint64_t{1} << 48) - 1);
    const std::uint64_t second = (end & ((std::uint64_t{1} << 48) - 1)) | (std::uint64_t{stateAndTask} << 48);
    std::string bytes(16, '\0');
    std::memcpy(bytes.data(), &first, 8);
    std::memcpy(bytes.data() + 8, &second, 8);
    return bytes;
}

TEST(NativeFormat, ColumnsHoldTheModelsBytes) {
    const Span span{0x010203040506, 0x0a0b0c0d0e0f, 0x1234, true};
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(&span), sizeof(Span)),
              spanBytes(0x010203040506, 0x0a0b0c0d0e0f, 0x9234));
    Trace trace;
    trace.states.push_back({"Executing", StateClass::Executing});
    trace.end = 0x0b0000000000;
    trace.lanes.emplace_back().levels.push_back({Span{0x010203040506, 0x0a0b0c0d0e0f, 0, false}});
    const auto data = bytes(trace);
    const auto at = data.find(spanBytes(0x010203040506, 0x0a0b0c0d0e0f, 0));
    ASSERT_NE(at, std::string::npos);
    EXPECT_EQ(at % 8, 0U) << "a column starts on a multiple of 8 of the file";
    const auto back = [&] {
        TempDir dir;
        writeBytes(dir / "one.sstrace", data);
        return readNative(dir / "one.sstrace");
    }();
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(back->lanes, trace.lanes);
}

// A span whose bytes were patched in the file to what no model holds (a start before the
// trace) is refused, naming it and its offset, though the checksum was repaired.
TEST(NativeFormat, SpanRecordsTheModelCannotHoldAreRefused) {
    auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    const auto& level = longestLevel(*trace);
    ASSERT_GE(level.size(), 4U);
    const Span& span = level[3];
    const std::string record(reinterpret_cast<const char*>(&span), sizeof(Span));
    const std::string good = bytes(*trace);
    const auto at = good.find(record);
    ASSERT_NE(at, std::string::npos);
    std::string data = good;
    const std::uint64_t beforeTrace = static_cast<std::uint64_t>(std::int64_t{-5});
    std::uint16_t stateAndTask = 0;
    std::memcpy(&stateAndTask, record.data() + 14, 2);
    data.replace(at, 16, spanBytes(beforeTrace, static_cast<std::uint64_t>(span.end), stateAndTask));
    repairChecksum(data);
    TempDir dir;
    const auto file = dir / "bad.sstrace";
    writeBytes(file, data);
    const auto back = readNative(file);
    ASSERT_FALSE(back) << "a span patched to start before the trace was accepted";
    EXPECT_EQ(back.error().code, ErrorCode::Corrupt);
    EXPECT_NE(back.error().message.find("span 3 "), std::string::npos) << back.error().describe();
    EXPECT_NE(back.error().message.find("outside the trace"), std::string::npos) << back.error().describe();
    EXPECT_EQ(back.error().offset, std::optional<std::uint64_t>(at)) << back.error().describe();
}

// The small trace changed beyond what the model holds, written and read back: refused as
// unsupported with a message holding words, naming the file.
void expectRefusedBeyondTheModel(const std::function<void(Trace&)>& change, const std::string& words) {
    auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    change(*trace);
    TempDir dir;
    const auto file = dir / "beyond.sstrace";
    writeBytes(file, bytes(*trace));
    const auto back = readNative(file);
    ASSERT_FALSE(back);
    EXPECT_EQ(back.error().code, ErrorCode::Unsupported);
    EXPECT_NE(back.error().message.find(words), std::string::npos) << back.error().describe();
    EXPECT_NE(back.error().describe().find(file.string()), std::string::npos);
}

// A file whose trace ends past what spans hold (48-bit times) is refused, not read wrapped.
TEST(NativeFormat, TraceLongerThanTheModelHoldsIsRefused) {
    expectRefusedBeyondTheModel([](Trace& trace) { trace.end = kMaxTraceTime + 1; }, "39 hours");
}

// Tasks and markers name their lane in 16 bits: a file with more lanes is refused, not read with
// lanes lost.
TEST(NativeFormat, MoreLanesThanTheModelHoldsAreRefused) {
    expectRefusedBeyondTheModel(
        [](Trace& trace) {
            while (trace.lanes.size() <= kMaxLanes) {
                trace.lanes.emplace_back().name = "extra";
            }
        },
        "lanes, more than the " + std::to_string(kMaxLanes));
}

TEST(NativeFormat, ErrorOffsetIsTheBadRecord) {
    auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    trace->setCodelet(trace->tasks.edit()[3], 99999, trace->footprintOf(trace->tasks[3]));
    const auto data = bytes(*trace);
    TempDir dir;
    writeBytes(dir / "bad.sstrace", data);
    const auto back = readNative(dir / "bad.sstrace");
    ASSERT_FALSE(back);
    ASSERT_TRUE(back.error().offset.has_value());
    // The codelet key record: its codelet name id, then its footprint.
    const auto at = static_cast<std::size_t>(*back.error().offset);
    ASSERT_LE(at + 8, data.size());
    std::uint32_t codelet = 0;
    std::uint32_t footprint = 0;
    std::memcpy(&codelet, data.data() + at, 4);
    std::memcpy(&footprint, data.data() + at + 4, 4);
    EXPECT_EQ(codelet, 99999U);
    EXPECT_EQ(footprint, trace->footprintOf(trace->tasks[3]));
}

TEST(NativeFormat, RepeatedNameIsRefused) {
    auto trace = readTrace(smallProfFile());
    ASSERT_TRUE(trace);
    // Two names of one length (the patch below keeps the file's size); markers' arenas and
    // texts share the table with codelets, so which ids they are depends on the trace.
    std::size_t firstId = trace->names.size();
    std::size_t secondId = trace->names.size();
    for (std::size_t j = 1; j < trace->names.size() && secondId == trace->names.size(); ++j) {
        for (std::size_t i = 0; i < j; ++i) {
            if (trace->names.name(static_cast<NameId>(i)).size() == trace->names.name(static_cast<NameId>(j)).size()) {
                firstId = i;
                secondId = j;
                break;
            }
        }
    }
    ASSERT_LT(secondId, trace->names.size()) << "the patch below needs names of one length";
    const auto first = trace->names.name(static_cast<NameId>(firstId));
    const auto second = trace->names.name(static_cast<NameId>(secondId));
    auto data = bytes(*trace);
    // The name table follows begin and end and its count: patch the second name to the first.
    const auto at = data.find(second, 24 + 24);
    ASSERT_NE(at, std::string::npos);
    data.replace(at, second.size(), first);
    repairChecksum(data);
    TempDir dir;
    writeBytes(dir / "dup.sstrace", data);
    const auto back = readNative(dir / "dup.sstrace");
    ASSERT_FALSE(back);
    EXPECT_NE(back.error().message.find("name " + std::to_string(secondId)), std::string::npos)
        << back.error().describe();
    EXPECT_NE(back.error().message.find("twice"), std::string::npos) << back.error().describe();
}

// What users ran into: `export` on such a file aborted (134) or crashed (139). In a child, as
// a user runs it.
// Reading a native file holds a few MiB of it in the process at a time, not the whole file on
// top of the model: the reader lets go of what it has read and checksummed.
TEST(NativeFormat, ReadingHoldsAStepOfTheFileNotAllOfIt) {
    const Trace trace = regularLanes(64, std::size_t{1} << 16, 10, 1);   // 64 MiB of spans
    TempDir dir;
    ASSERT_TRUE(writeNativeFile(trace, dir / "big.sstrace"));
    ASSERT_GT(std::filesystem::file_size(dir / "big.sstrace"), std::uintmax_t{60} << 20);
    starscope::testing::ResidentFileSampler held;
    ReadOptions options;
    options.progress = held.progress();
    const auto back = readTrace(dir / "big.sstrace", options);
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(back->lanes, trace.lanes);
    EXPECT_GT(held.samples, 32);
    // A step is 4 MiB and a lane (a file before version 6: 16 MiB in its checksum pass).
    EXPECT_LE(held.heldKib(), 20U << 10) << "the reader held " << held.heldKib() / 1024 << " MiB of the file";
}

TEST(NativeFormat, ExportOfAnInconsistentFileExitsOneWithTheMessage) {
    TempDir dir;
    for (const auto& bad : inconsistencies()) {
        auto trace = readTrace(smallProfFile());
        ASSERT_TRUE(trace);
        bad.breakIt(*trace);
        const auto file = dir / "bad.sstrace";
        writeBytes(file, bytes(*trace));
        for (const std::string format : {"paje", "chrome", "csv"}) {
            const auto err = dir / "err.txt";
            const int code = starscope::testing::runCommand(std::string(STARSCOPE_EXECUTABLE) + " export --format " + format
                                                            + " " + file.string() + " -o " + (dir / "out").string()
                                                            + " 2>" + err.string());
            EXPECT_EQ(code, 1) << bad.name << ", " << format;
            const auto message = starscope::testing::readFile(err);
            EXPECT_NE(message.find("inconsistent native trace"), std::string::npos) << bad.name << ": " << message;
            EXPECT_NE(message.find(file.string()), std::string::npos) << bad.name << ": " << message;
        }
    }
}

} // namespace
} // namespace starscope::tracer
