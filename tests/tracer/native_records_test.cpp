// The native format's records (native_records.hpp): every field of every record a trace holds
// comes back from a file, files of the older versions, whose records lack fields, still read,
// and a trace streamed a record at a time (native_stream.hpp) is written as the whole trace is.

#include "tests/support/test_support.hpp"
#include "tracer/native/native_codec.hpp"
#include "tracer/native/native_format.hpp"
#include "tracer/native/native_records.hpp"

#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace starscope::tracer {
namespace {

using starscope::testing::TempDir;
namespace native = detail::native;

// Each field a record's list hands it, as text.
struct FieldTexts {
    std::vector<std::string> texts;

    template <typename... T> void operator()(const T&... fields) { (add(fields), ...); }
    template <typename T> void since(std::uint32_t /*version*/, const T& field) { add(field); }
    template <typename T> void add(const T& field) {
        if constexpr (std::is_same_v<T, std::string>) {
            texts.push_back("\"" + field + "\"");
        } else if constexpr (std::is_enum_v<T>) {
            texts.push_back(std::to_string(static_cast<int>(field)));
        } else {
            texts.push_back(std::to_string(field));
        }
    }
};

// Every field the format lists for the record differs from a default record's: a field listed
// but left at its default would round-trip without proving anything.
template <typename Record> void expectNoDefaultField(const Record& record) {
    FieldTexts set;
    FieldTexts defaults;
    native::fields(set, record);
    const Record fresh{};
    native::fields(defaults, fresh);
    ASSERT_EQ(set.texts.size(), defaults.texts.size());
    for (std::size_t i = 0; i < set.texts.size(); ++i) {
        EXPECT_NE(set.texts[i], defaults.texts[i])
            << "field " << i << " of a " << typeid(Record).name() << " keeps its default";
    }
}

// Two ranks, a lane of each, nested spans, a task running in a span and one in none, a
// dependency on a task of the trace and one on a job outside it, a marker of each form, a
// message, a transfer, metadata and a warning: each field different from its default.
Trace everyField() {
    Trace t;
    t.begin = 100;
    t.end = 9'000'000;
    const NameId gemm = t.names.intern("gemm");
    t.states = {StateInfo{"Executing", StateClass::Executing},
                StateInfo{"Not profiled", StateClass::NotProfiled}};
    t.ranks = {RankInfo{3, 6, "prof_file_3", 2, 1111, 2222, -333, -444},
               RankInfo{5, 6, "prof_file_5", 1, 5555, 6666, 777, 888}};
    const auto lane = [](std::string name, LaneKind kind, std::int32_t node, std::int32_t worker,
                         std::int32_t rank, std::vector<Column<Span>> levels) {
        Lane l;
        l.name = std::move(name);
        l.kind = kind;
        l.memoryNode = node;
        l.workerId = worker;
        l.rank = rank;
        l.levels = std::move(levels);
        return l;
    };
    const Lane cuda = lane("3_CUDA 2", LaneKind::CudaWorker, 4, 7, 3,
                           {{Span{1000, 2000, 0, true}}, {Span{1200, 1500, 1}}});
    const Lane mpi = lane("5_MPI thread", LaneKind::MpiThread, 2, 11, 5, {{Span{3000, 4000, 1}}});
    t.lanes = {cuda, mpi};
    const auto task = [&t](std::uint64_t job, NameId codelet, std::uint32_t footprint,
                           TimeNs submit, TimeNs start, TimeNs end, std::int16_t on) {
        Task x;
        x.jobId = job;
        t.setCodelet(x, codelet, footprint);
        x.submit = submit;
        x.start = start;
        x.end = end;
        x.lane = on;
        return x;
    };
    t.tasks = {task(41, gemm, 0xbeef, 500, 1000, 2000, 0),
               task(42, kNoName, 0x77, 700, 2500, 2600, 1)};
    t.setDependencies(0, {40, 42});
    auto reset =
        t.makeMarker(1100, markers::Marker{markers::Kind::ResetWaitEnd, 2, 9, 1, 12, "batch"});
    reset.lane = 0;
    reset.rank = 3;
    auto user = t.makeMarker(3500, "an event of another tool");
    user.lane = 1;
    user.rank = 5;
    t.markers = {reset, user};
    t.messages = {Message{3, 5, 0, 1, 2100, 2900, 4096, 17, 41, 42}};
    t.transfers = {Transfer{5, 1, 2, TransferKind::IdleFetch, 3100, 3900, 8192, 41}};
    t.metadata = {{"format", "fxt"}, {"starpu.version", "1.4.12"}};
    t.warnings = {"a warning"};
    t.indexTasks();
    return t;
}

std::string bytes(const Trace& trace) {
    std::ostringstream out;
    writeNative(trace, out);
    return out.str();
}

// The field counts native_records.hpp pins make a field added to a model struct fail to compile
// until the format lists it; this sets every field the format lists (checked), writes and reads
// the trace back whole.
TEST(NativeFormat, EveryFieldRoundTrips) {
    const Trace trace = everyField();
    for (const auto& state : trace.states) {
        expectNoDefaultField(state);
    }
    for (const auto& lane : trace.lanes) {
        expectNoDefaultField(lane);
    }
    for (const auto& rank : trace.ranks) {
        expectNoDefaultField(rank);
    }
    expectNoDefaultField(trace.messages[0]);
    expectNoDefaultField(trace.transfers[0]);
    ASSERT_TRUE(trace.markers[0].parsed);
    ASSERT_NE(trace.markers[0].arena, kNoName);
    ASSERT_NE(trace.markers[1].rawText, kNoName);
    ASSERT_EQ(trace.outsideJobs, std::vector<std::uint64_t>{40});

    TempDir dir;
    ASSERT_TRUE(writeNativeFile(trace, dir / "every.sstrace"));
    const auto back = readNative(dir / "every.sstrace");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, trace);
    EXPECT_EQ(bytes(*back), bytes(trace));
}

// A file of this version holding one lane of one sleeping span, a task that depends on a job
// outside the trace, and one user event, with the fields and tables that version has: version 1
// has no ranks (lanes and markers hold none, no rank or message table), version 2 has no
// transfer table, version 3's transfers have no task (version 4's name one); up to version 5 spans and tasks are
// records (native_records.hpp's FileSpan and FileTask), from 6 columns.
std::string oldFile(std::uint32_t version) {
    native::Writer w;
    w.put(TimeNs{0});
    w.put(TimeNs{1000});
    w.put(std::uint64_t{1}); // names
    w.str("gemm");
    w.put(std::uint64_t{1}); // states
    w.str("Sleeping");
    w.put(StateClass::Sleeping);
    w.put(std::uint64_t{1}); // lanes
    w.str("CPU 0");
    w.put(LaneKind::CpuWorker);
    w.put(std::int32_t{0}); // memory node
    w.put(std::int32_t{3}); // worker id
    if (version >= 2) {
        w.put(std::int32_t{-1}); // rank
    }
    w.put(std::uint64_t{1}); // levels
    w.put(std::uint64_t{1}); // spans
    w.put(TimeNs{0});
    w.put(TimeNs{1000});
    w.put(std::uint32_t{0});
    w.put(kNoTask);
    w.put(std::uint64_t{1}); // tasks
    w.put(std::uint64_t{7}); // job
    w.put(NameId{0});        // codelet
    w.put(std::uint32_t{0x42});
    w.put(TimeNs{10});       // submit, start, end
    w.put(TimeNs{100});
    w.put(TimeNs{900});
    w.put(std::int32_t{0}); // lane
    w.put(std::uint64_t{1}); // dependencies
    w.put(std::uint64_t{3});
    w.put(std::uint64_t{1}); // markers
    w.put(TimeNs{500});
    w.put(std::int32_t{0}); // lane
    if (version >= 2) {
        w.put(std::int32_t{-1}); // rank
    }
    w.put(std::uint8_t{0}); // not parsed
    w.put(markers::Kind::BatchBegin);
    w.put(std::int32_t{-1});
    w.put(std::int32_t{-1});
    w.put(std::int32_t{-1});
    w.put(std::int64_t{-1});
    w.str("");
    w.str("hello");
    if (version >= 2) {
        w.put(std::uint64_t{0}); // ranks
        w.put(std::uint64_t{0}); // messages
    }
    if (version >= 3) {
        w.put(std::uint64_t{1}); // transfers
        w.put(std::int32_t{-1}); // rank
        w.put(std::int32_t{0});  // from node
        w.put(std::int32_t{1});  // to node
        w.put(TransferKind::Prefetch);
        w.put(TimeNs{100});
        w.put(TimeNs{300});
        w.put(std::uint64_t{4096});
        if (version >= 4) {
            w.put(std::uint64_t{0}); // no task
        }
    }
    w.put(std::uint64_t{1}); // metadata
    w.str("format");
    w.str("fxt");
    w.put(std::uint64_t{0}); // warnings
    const std::string_view body = w.bytes();
    native::Writer file;
    file.raw(kNativeMagic.data(), kNativeMagic.size());
    file.put(version);
    file.put(std::uint32_t{0});
    file.put(static_cast<std::uint64_t>(body.size()));
    file.raw(body.data(), body.size());
    file.put(nativeChecksum(body, version));
    return std::string(file.bytes());
}

TEST(NativeFormat, FilesOfOlderVersionsRead) {
    TempDir dir;
    for (const std::uint32_t version : {1U, 2U, 3U, 4U, 5U}) {
        SCOPED_TRACE("version " + std::to_string(version));
        const auto path = dir / ("v" + std::to_string(version) + ".sstrace");
        std::ofstream(path, std::ios::binary) << oldFile(version);
        const auto trace = readNative(path);
        ASSERT_TRUE(trace) << trace.error().describe();
        ASSERT_EQ(trace->lanes.size(), 1U);
        EXPECT_EQ(trace->lanes[0].name, "CPU 0");
        EXPECT_EQ(trace->lanes[0].workerId, 3);
        EXPECT_EQ(trace->lanes[0].rank, -1);
        ASSERT_EQ(trace->lanes[0].spans().size(), 1U);
        EXPECT_EQ(trace->lanes[0].spans()[0].end, 1000);
        ASSERT_EQ(trace->markers.size(), 1U);
        EXPECT_EQ(trace->textOf(trace->markers[0]), "hello");
        EXPECT_EQ(trace->markers[0].rank, -1);
        EXPECT_TRUE(trace->ranks.empty());
        ASSERT_EQ(trace->transfers.size(), version >= 3 ? 1U : 0U);
        if (version >= 3) {
            EXPECT_EQ(trace->transfers[0], (Transfer{-1, 0, 1, TransferKind::Prefetch, 100, 300, 4096, 0}));
        }
        ASSERT_EQ(trace->tasks.size(), 1U);
        EXPECT_EQ(trace->tasks[0].jobId, 7U);
        EXPECT_EQ(trace->codeletOf(trace->tasks[0]), "gemm");
        EXPECT_EQ(trace->footprintOf(trace->tasks[0]), 0x42U);
        EXPECT_EQ(TimeNs{trace->tasks[0].end}, 900);
        EXPECT_EQ(trace->lanes[0].tasks, std::vector<TaskIndex>{0});
        const auto dependencies = trace->dependenciesOf(trace->tasks[0]);
        EXPECT_EQ(std::vector<std::uint64_t>(dependencies.begin(), dependencies.end()), std::vector<std::uint64_t>{3});
        EXPECT_EQ(trace->metadata.at("format"), "fxt");
        // A damaged byte is refused by the version's checksum (FNV-1a up to 4, XXH64 from 5).
        std::string damaged = oldFile(version);
        damaged[40] = static_cast<char>(damaged[40] ^ 0x5a);
        std::ofstream(dir / "damaged.sstrace", std::ios::binary) << damaged;
        const auto refused = readNative(dir / "damaged.sstrace");
        ASSERT_FALSE(refused);
        EXPECT_NE(refused.error().message.find("checksum"), std::string::npos) << refused.error().describe();
        // Written again, it is a file of the current version.
        std::ostringstream out;
        writeNative(*trace, out);
        std::uint32_t written = 0;
        std::memcpy(&written, out.str().data() + 8, 4);
        EXPECT_EQ(written, kNativeVersion);
    }
}

// A stream whose columns hand their records one at a time (a whole trace's hand them at once).
TraceStream oneByOne(const TraceStream& whole) {
    TraceStream stream = whole;
    stream.forEachColumn([](auto& column) {
        using Record = typename std::remove_reference_t<decltype(column)>::Record;
        column.produce = [all = column.produce](const EmitRecords<Record>& emit) {
            all([&emit](std::span<const Record> some) {
                for (const Record& record : some) {
                    emit(std::span<const Record>(&record, 1));
                }
            });
        };
    });
    return stream;
}

TEST(NativeStream, AStreamedTraceIsWrittenAsTheWholeTrace) {
    const Trace trace = everyField();
    const TraceStream whole = TraceStream::of(trace);
    const TraceStream streamed = oneByOne(whole);
    EXPECT_EQ(streamed.spanCount(), trace.spanCount());
    std::ostringstream out;
    ASSERT_TRUE(writeNative(streamed, out));
    EXPECT_EQ(out.str(), bytes(trace));
    EXPECT_EQ(collectTrace(streamed), trace);
    TempDir dir;
    ASSERT_TRUE(writeNativeFile(streamed, dir / "t.sstrace"));
    EXPECT_EQ(starscope::testing::readFile(dir / "t.sstrace"), bytes(trace));
}

// A column that hands other records than it announced would make a file whose payload size lies:
// none is written, and the error names the column.
TEST(NativeStream, AColumnHandingOtherCountsThanAnnouncedWritesNoFile) {
    const Trace trace = everyField();
    for (const std::string column : {"tasks", "markers", "messages", "lane 1 level 0 spans"}) {
        TraceStream stream = TraceStream::of(trace);
        if (column == "tasks") {
            stream.tasks.count += 1;
        } else if (column == "markers") {
            stream.markers.count -= 1;
        } else if (column == "messages") {
            stream.messages.count += 2;
        } else {
            stream.spans[1][0].count += 1;
        }
        TempDir dir;
        const auto written = writeNativeFile(stream, dir / "t.sstrace");
        ASSERT_FALSE(written) << column;
        EXPECT_EQ(written.error().code, ErrorCode::InvalidArgument) << column;
        EXPECT_EQ(written.error().file, (dir / "t.sstrace").string());
        EXPECT_NE(written.error().message.find(column + ":"), std::string::npos) << written.error().describe();
        EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << column << ": a file was left";
        std::ostringstream out;
        EXPECT_FALSE(writeNative(stream, out));
        EXPECT_TRUE(out.bad()) << column;
    }
}

// A write that fails (a full disk, a folder that is not there) names the file, and stops making
// the stream's records once the file has failed.
TEST(NativeStream, AFailedWriteNamesTheFile) {
    const Trace trace = everyField();
    TraceStream stream = TraceStream::of(trace);
    TempDir dir;
    const auto missing = writeNativeFile(stream, dir / "no such folder" / "t.sstrace");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, ErrorCode::Io);
    EXPECT_NE(missing.error().describe().find("no such folder/t.sstrace"), std::string::npos)
        << missing.error().describe();
    if (std::filesystem::exists("/dev/full")) {
        // Big enough that the first 64 KiB fail before the tasks: those are made, not written.
        std::vector<Span> spans;
        for (TimeNs t = 0; t < 100'000; ++t) {
            spans.emplace_back(10 * t, 10 * t + 5, 0);
        }
        stream.spans[0][0] = StreamedColumn<Span>::of(spans);
        std::size_t tasksMade = 0;
        stream.tasks.produce = [&tasksMade, &trace](const EmitRecords<Task>& emit) {
            ++tasksMade;
            emit(trace.tasks);
        };
        const auto full = writeNativeFile(stream, "/dev/full");
        ASSERT_FALSE(full);
        EXPECT_EQ(full.error().code, ErrorCode::Io);
        EXPECT_EQ(full.error().file, "/dev/full");
        EXPECT_NE(full.error().message.find("No space left"), std::string::npos) << full.error().describe();
        EXPECT_EQ(tasksMade, 0u);
    }
}

} // namespace
} // namespace starscope::tracer
