// The FxT reader on the golden traces (on traces recorded now: recorded_traces_test.cpp).

#include "tests/support/test_support.hpp"
#include "tests/tracer/tracer_test_support.hpp"
#include "tracer/readers/fxt/fxt_direct.hpp"
#include "tracer/readers/fxt/starpu_1_3_10_codes.hpp"
#include "tracer/readers/read_trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>

namespace starscope::tracer {
namespace {

using namespace testing;

std::size_t countLanes(const Trace& t, LaneKind kind) {
    return static_cast<std::size_t>(
        std::count_if(t.lanes.begin(), t.lanes.end(), [kind](const Lane& l) { return l.kind == kind; }));
}

// A walk's onEvent that copies every event into `into`.
auto collect(std::vector<CopiedEvent>& into) {
    return [&into](const detail::RawEvent& ev) {
        into.push_back(copyOf(ev));
        return true;
    };
}

// The direct reader of libfxt's layout must see exactly the events libfxt's fxt_next_ev
// returns (which runs in a child process here).
TEST(FxtReader, DirectLayoutReaderSeesExactlyWhatLibfxtSees) {
    for (const auto& file : {smallProfFile()}) {
        ASSERT_TRUE(detail::isDirectFxtLayout(file));
        std::vector<CopiedEvent> direct;
        std::vector<CopiedEvent> libfxt;
        const auto a = detail::readFxtDirect(file, 0, ~std::uint64_t{0}, collect(direct), {});
        const auto b = detail::streamFxtEvents(file, 0, ~std::uint64_t{0}, collect(libfxt), {});
        ASSERT_TRUE(a && b);
        EXPECT_TRUE(a->problems.empty());
        EXPECT_EQ(a->stream.events, b->events);
        EXPECT_EQ(a->stream.firstTime, b->firstTime);
        ASSERT_EQ(direct.size(), libfxt.size());
        for (std::size_t i = 0; i < direct.size(); ++i) {
            ASSERT_EQ(direct[i], libfxt[i]) << "event " << i;
        }
    }
}

// The walk reads the file through a window that slides at most once per event: through the
// smallest window (it slides every few events, in the middle of blocks and at their ends) it sees
// what it sees through the default one (what libfxt sees, the test above), over a file of several
// blocks too.
TEST(FxtReader, DirectReaderSeesTheSameEventsThroughAWindowOfAnySize) {
    const auto small = starscope::testing::readFile(smallProfFile());
    std::uint32_t headerSize = 0;
    std::memcpy(&headerSize, small.data() + 4, 4);
    const auto header = small.substr(0, 4 + std::size_t{headerSize});
    starscope::testing::TempDir dir;
    const auto blocks = dir / "prof_file__0";
    std::ofstream(blocks, std::ios::binary) << header << small.substr(header.size()) << small.substr(header.size());
    for (const auto& file : {smallProfFile(), blocks}) {
        std::vector<CopiedEvent> whole;
        std::vector<CopiedEvent> windowed;
        const auto a = detail::readFxtDirect(file, 0, ~std::uint64_t{0}, collect(whole), {});
        const auto b = detail::readFxtDirect(file, 0, ~std::uint64_t{0}, collect(windowed), {}, 0);
        ASSERT_TRUE(a && b);
        EXPECT_TRUE(a->problems.empty() && b->problems.empty());
        EXPECT_EQ(a->stream.bytesRead, std::filesystem::file_size(file));
        EXPECT_EQ(b->stream.bytesRead, a->stream.bytesRead);
        EXPECT_EQ(b->stream.events, a->stream.events);
        ASSERT_GT(whole.size(), 700U);
        EXPECT_EQ(windowed, whole) << file;
    }
}

// A big prof file is walked holding a window of it at a time, not the whole file. The file: the
// golden trace's one block again and again (48 MiB).
TEST(FxtReader, DirectReaderHoldsAStepOfTheFileNotAllOfIt) {
    const auto small = starscope::testing::readFile(smallProfFile());
    std::uint32_t headerSize = 0;
    std::memcpy(&headerSize, small.data() + 4, 4);
    const auto header = small.substr(0, 4 + std::size_t{headerSize});
    const auto block = small.substr(header.size());
    starscope::testing::TempDir dir;
    const auto big = dir / "prof_file__0";
    std::size_t blocks = 0;
    {
        std::ofstream out(big, std::ios::binary);
        out << header;
        for (; blocks * block.size() < (std::size_t{48} << 20); ++blocks) {
            out << block;
        }
    }
    std::uint64_t events = 0;
    const auto one = detail::readFxtDirect(smallProfFile(), 0, ~std::uint64_t{0}, [](const detail::RawEvent&) { return true; }, {});
    ASSERT_TRUE(one);
    const std::size_t before = starscope::testing::residentFileKib();
    std::size_t most = 0;
    int samples = 0;
    const auto read = detail::readFxtDirect(
        big, 0, ~std::uint64_t{0},
        [&events](const detail::RawEvent&) {
            ++events;
            return true;
        },
        [&](double) {
            most = std::max(most, starscope::testing::residentFileKib());
            ++samples;
            return true;
        });
    ASSERT_TRUE(read) << read.error().describe();
    EXPECT_EQ(events, one->stream.events * blocks);
    EXPECT_GT(samples, 32);
    // Read through a window: none of the file is mapped.
    EXPECT_LE(most, before + (1U << 10)) << "the walk held " << (most - before) / 1024 << " MiB of the file";
}

TEST(FxtReader, GoldenTraceHasWorkersTasksAndMarkers) {
    const auto trace = readTrace({smallProfFile()});
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_EQ(countLanes(*trace, LaneKind::CpuWorker), 2U);
    ASSERT_GE(countLanes(*trace, LaneKind::MainThread), 1U);
    // The first user thread is the main thread; the tag notifier threads are others.
    const auto main = std::find_if(trace->lanes.begin(), trace->lanes.end(),
                                   [](const Lane& l) { return l.kind == LaneKind::MainThread; });
    EXPECT_EQ(main->name, "main");
    std::size_t spins = 0;
    std::size_t gates = 0;
    for (const auto& task : trace->tasks) {
        if (task.start < 0) {
            continue;   // submitted, never executed (StarPU's internal tasks without a codelet)
        }
        EXPECT_LE(task.start, task.end);
        ASSERT_GE(task.lane, 0);
        EXPECT_TRUE(trace->lanes[static_cast<std::size_t>(task.lane)].isWorker());
        const std::string_view codelet = trace->codeletOf(task);
        spins += codelet == "sample_spin" ? 1U : 0U;
        gates += codelet == "sample_gate" ? 1U : 0U;
        EXPECT_GE(task.submit, 0);
        EXPECT_LE(task.submit, task.start);
    }
    EXPECT_EQ(spins, 18U);
    EXPECT_EQ(gates, 2U);
    std::size_t parsed = 0;
    for (const auto& m : trace->markers) {
        parsed += m.parsed ? 1U : 0U;
    }
    EXPECT_EQ(parsed, 18U);   // 6 markers per batch
    EXPECT_TRUE(std::is_sorted(trace->markers.begin(), trace->markers.end(),
                               [](const MarkerEvent& a, const MarkerEvent& b) { return a.time < b.time; }));
    EXPECT_TRUE(trace->warnings.empty()) << trace->warnings.front();
}

// StarPU 1.4 numbers worker kinds from 0x100 (CPU) and names tasks in TaskName events only.
TEST(FxtReader, Starpu14GoldenReadsWithItsOwnLayout) {
    const auto trace = readTrace({goldenRun("small14") / "prof_file__0"});
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_EQ(trace->metadata.at("starpu.codes"), "1.4.12");
    EXPECT_NE(trace->metadata.at("starpu.layout").find("1.4.12 ("), std::string::npos);
    EXPECT_EQ(countLanes(*trace, LaneKind::CpuWorker), 2U);
    EXPECT_EQ(countLanes(*trace, LaneKind::OtherWorker), 0U);
    std::map<std::string, std::size_t> codelets;
    std::size_t withDeps = 0;
    for (const auto& task : trace->tasks) {
        if (task.start >= 0) {
            ++codelets[std::string(trace->codeletOf(task))];
            EXPECT_GE(task.submit, 0);
        }
        withDeps += trace->dependenciesOf(task).empty() ? 0U : 1U;
    }
    EXPECT_EQ(codelets, (std::map<std::string, std::size_t>{{"sample_gate", 2}, {"sample_spin", 18}}));
    EXPECT_GE(withDeps, 12U);
    std::size_t parsed = 0;
    for (const auto& m : trace->markers) {
        parsed += m.parsed ? 1U : 0U;
    }
    EXPECT_EQ(parsed, 18U);
    EXPECT_TRUE(trace->warnings.empty()) << trace->warnings.front();
}

// Rewrites parameter 0 (the worker kind) of every WorkerInitStart event of an FxT file in
// libfxt's layout (see fxt_direct.hpp).
void setWorkerKinds(const std::filesystem::path& from, const std::filesystem::path& to, std::uint64_t kind) {
    std::string data = starscope::testing::readFile(from);
    const auto load = [&](std::size_t at) {
        std::uint64_t v = 0;
        std::memcpy(&v, data.data() + at, sizeof v);
        return v;
    };
    std::uint32_t header = 0;
    std::memcpy(&header, data.data() + 4, sizeof header);
    std::size_t block = 4 + header;
    while (block + 16 <= data.size()) {
        const std::size_t end = std::min<std::size_t>(block + load(block), data.size());
        for (std::size_t p = block + 16; p + 24 <= end;) {
            const std::uint64_t word = load(p + 16);
            if ((word >> 8) == detail::starpu_1_3_10::WorkerInitStart) {
                std::memcpy(data.data() + p + 24, &kind, sizeof kind);
            }
            p += 24 + ((word & 0xff) - 1) * 8;
        }
        block = end;
    }
    std::ofstream(to, std::ios::binary) << data;
}

TEST(FxtReader, UnknownWorkerKindsAreAnErrorThatNamesThem) {
    starscope::testing::TempDir dir;
    const auto file = dir / "prof_file__0";
    setWorkerKinds(goldenRun("small14") / "prof_file__0", file, 0x1f0);
    const auto trace = readTrace({file});
    ASSERT_FALSE(trace);
    EXPECT_EQ(trace.error().code, ErrorCode::Unsupported);
    EXPECT_EQ(trace.error().file, file.string());
    EXPECT_NE(trace.error().message.find("0x1f0"), std::string::npos) << trace.error().message;
    EXPECT_NE(trace.error().message.find("1.3 and 1.4"), std::string::npos) << trace.error().message;
}

TEST(FxtReader, SpansAreSortedNonOverlappingAndWithinTheTrace) {
    const auto trace = readTrace({smallProfFile()});
    ASSERT_TRUE(trace);
    for (const auto& lane : trace->lanes) {
        for (const auto& level : lane.levels) {
            for (std::size_t i = 0; i < level.size(); ++i) {
                EXPECT_LT(level[i].start, level[i].end);
                EXPECT_GE(level[i].start, trace->begin);
                EXPECT_LE(level[i].end, trace->end);
                if (i > 0) {
                    EXPECT_LE(level[i - 1].end, level[i].start) << lane.name;
                }
            }
        }
    }
}

TEST(FxtReader, ExecutingSpansCarryTheirTask) {
    const auto trace = readTrace({smallProfFile()});
    ASSERT_TRUE(trace);
    std::size_t executing = 0;
    for (const auto& lane : trace->lanes) {
        for (const auto& span : lane.spans()) {
            if (trace->states[span.state].cls == StateClass::Executing) {
                ++executing;
                const Task* task = trace->taskOf(lane, span);
                ASSERT_NE(task, nullptr);
                EXPECT_EQ(task->start, span.start);
                EXPECT_EQ(task->end, span.end);
            }
        }
    }
    std::size_t executed = 0;
    for (const auto& task : trace->tasks) {
        executed += task.start >= 0 ? 1U : 0U;
    }
    EXPECT_EQ(executing, executed);
}

TEST(FxtReader, ImplicitDataDependenciesBecomeTaskDependencies) {
    const auto trace = readTrace({smallProfFile()});
    ASSERT_TRUE(trace);
    // Two chains of RW tasks per batch: each task after the first of its chain depends on one.
    std::size_t withDeps = 0;
    for (const auto& task : trace->tasks) {
        withDeps += trace->dependenciesOf(task).empty() ? 0U : 1U;
    }
    EXPECT_GE(withDeps, 12U);
    EXPECT_TRUE(std::is_sorted(trace->tasks.begin(), trace->tasks.end(),
                               [](const Task& a, const Task& b) { return a.jobId < b.jobId; }));
}

TEST(FxtReader, RunFolderAndFileGiveTheSameTrace) {
    const auto fromFolder = readTrace(smallRun());
    const auto fromFile = readTrace(smallProfFile());
    ASSERT_TRUE(fromFolder && fromFile);
    EXPECT_EQ(fromFolder->lanes, fromFile->lanes);
    EXPECT_EQ(fromFolder->tasks, fromFile->tasks);
    EXPECT_EQ(fromFolder->markers, fromFile->markers);
}

TEST(FxtReader, ProgressReports) {
    ReadOptions options;
    double last = 0;
    int calls = 0;
    options.progress = [&](double fraction) {
        last = fraction;
        ++calls;
        return true;
    };
    ASSERT_TRUE(readTrace(smallProfFile(), options));
    EXPECT_GE(last, 0.0);
    EXPECT_LE(last, 1.0);
}

TEST(FxtReader, SeveralProcessesMergeWithPrefixedLanes) {
    // Two files (one named twice is refused: ReadErrors.OneProfFileGivenTwiceIsRefused).
    starscope::testing::TempDir dir;
    std::filesystem::copy_file(smallProfFile(), dir / "prof_file__1");
    const auto trace = readTrace({smallProfFile(), dir / "prof_file__1"});
    ASSERT_TRUE(trace) << trace.error().describe();
    const auto single = readTrace({smallProfFile()});
    ASSERT_TRUE(single);
    EXPECT_EQ(trace->lanes.size(), 2 * single->lanes.size());
    EXPECT_EQ(trace->tasks.size(), 2 * single->tasks.size());
    EXPECT_EQ(trace->lanes.front().name.substr(0, 2), "0_");
    EXPECT_EQ(trace->lanes.back().name.substr(0, 2), "1_");
}

} // namespace
} // namespace starscope::tracer
