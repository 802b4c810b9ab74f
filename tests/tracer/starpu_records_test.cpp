// StarPU's FxT events typed per release: the events whose parameters sit at other places in
// StarPU 1.3.10 and 1.4.12 become the same records, and the records carry what the events
// carry. Events are built by hand as each release's _STARPU_TRACE_* macro fills them.

#include "tracer/readers/fxt/starpu_1_3_10_codes.hpp"
#include "tracer/readers/fxt/starpu_1_4_12_codes.hpp"
#include "tracer/readers/fxt/starpu_record_decoding.hpp"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace starscope::tracer::detail {
namespace {

namespace v13 = starpu_1_3_10;
namespace v14 = starpu_1_4_12;
using starpu::Record;

// Parameters as FxT stores them: 64-bit words, a string packed from its first word on.
class Event {
public:
    Event(std::uint64_t code, std::vector<std::uint64_t> params) : m_params(std::move(params)) {
        m_ev.code = code;
    }
    Event& string(std::string_view text) {
        const std::size_t at = m_params.size();
        m_params.resize(at + text.size() / sizeof(std::uint64_t) + 1, 0); // NUL-terminated
        auto* bytes = reinterpret_cast<char*>(m_params.data() + at);
        for (std::size_t i = 0; i < text.size(); ++i) {
            bytes[i] = text[i];
        }
        return *this;
    }
    const RawEvent& raw() {
        m_ev.params = m_params.data();
        m_ev.paramCount = static_cast<std::uint32_t>(m_params.size());
        return m_ev;
    }

private:
    std::vector<std::uint64_t> m_params;
    RawEvent m_ev;
};

// The records of one event, with the event: a record's strings are views into its parameters,
// which a move of the event keeps where they are.
struct Decoded {
    Event event;
    std::vector<Record> records;
};

struct Collect {
    std::vector<Record> records;
    // Not inlined into decodeStarpuEvent (itself always inlined): GCC 12 then warns of a null
    // dereference inside std::variant's construction that cannot happen.
    template <typename R> [[gnu::noinline]] void on(const R& record) { records.emplace_back(record); }
};

Decoded decode(Event event, const StarpuFxtLayout& layout) {
    Collect sink;
    decodeStarpuEvent(event.raw(), layout, sink);
    return {std::move(event), std::move(sink.records)};
}

std::vector<Record> one(Record record) {
    return {std::move(record)};
}

TEST(StarpuRecords, ACodeletStartNamesItsCodeletIn13AndLeavesItToTaskNameIn14) {
    const auto named =
        decode(Event(v13::StartCodeletBody, {7, 0, 1, 0, 1}).string("conv_fwd"), starpu13Layout());
    EXPECT_EQ(named.records, one(starpu::CodeletStart{7, 1, "conv_fwd"}));
    const auto unnamed = decode(Event(v13::StartCodeletBody, {7, 0, 1, 0, 0}), starpu13Layout());
    EXPECT_EQ(unnamed.records, one(starpu::CodeletStart{7, 1, "unknown"}));
    const auto in14 = decode(Event(v14::StartCodeletBody, {7, 0, 1, 0}), starpu14Layout());
    EXPECT_EQ(in14.records, one(starpu::CodeletStart{7, 1, std::nullopt}));
    // Cut before the name flag: 1.3's layout has nothing to say about it.
    EXPECT_TRUE(
        decode(Event(v13::StartCodeletBody, {7, 0, 1, 0}), starpu13Layout()).records.empty());
}

TEST(StarpuRecords, ATaskNameIsTheSameRecordWhereverItsStringStarts) {
    const auto in13 = decode(Event(v13::TaskName, {42}).string("gemm"), starpu13Layout());
    const auto in14 = decode(Event(v14::TaskName, {42, 9999}).string("gemm"), starpu14Layout());
    EXPECT_EQ(in13.records, one(starpu::TaskName{42, "gemm"}));
    EXPECT_EQ(in14.records, in13.records);
}

TEST(StarpuRecords, WorkerKindsAreEachReleasesOwn) {
    const auto cpu13 =
        decode(Event(v13::WorkerInitStart, {v13::kCpuKey, 3, 1, 0, 3, 1, 555}), starpu13Layout());
    const auto cpu14 =
        decode(Event(v14::WorkerInitStart, {v14::kCpuKey, 3, 1, 0, 3, 1, 555}), starpu14Layout());
    ASSERT_EQ(cpu13.records.size(), 1U);
    ASSERT_EQ(cpu14.records.size(), 1U);
    const auto& a = std::get<starpu::WorkerStart>(cpu13.records.front());
    const auto& b = std::get<starpu::WorkerStart>(cpu14.records.front());
    ASSERT_TRUE(a.kind && b.kind);
    EXPECT_EQ(a.kind->lane, LaneKind::CpuWorker);
    EXPECT_EQ(*a.kind, *b.kind);
    EXPECT_EQ(a.workerId, 3U);
    EXPECT_EQ(a.devId, 1);
    EXPECT_TRUE(a.sync);
    EXPECT_EQ(a.tid, 555U);
    // 1.3's key 0x100 is APPS, not a CPU; 1.4 has no key 0x1ff.
    EXPECT_NE(std::get<starpu::WorkerStart>(
                  decode(Event(v13::WorkerInitStart, {0x100, 0, 0, 0, 0, 1, 1}), starpu13Layout())
                      .records.front())
                  .kind->lane,
              LaneKind::CpuWorker);
    EXPECT_FALSE(
        std::get<starpu::WorkerStart>(
            decode(Event(v14::WorkerInitStart, {0x1ff, 0, 0, 0, 0, 1, 1}), starpu14Layout())
                .records.front())
            .kind);
    EXPECT_EQ(decode(Event(v14::WorkerInitStart, {v14::kCpuKey, 3}), starpu14Layout()).records,
              one(starpu::TooFewParameters{}));
}

TEST(StarpuRecords, ADriverCopysReasonIsReadWithItsReleasesValues) {
    const auto copy = [](const StarpuFxtLayout& layout, std::uint64_t prefetch) {
        const auto decoded =
            decode(Event(v14::StartDriverCopy, {0, 1, 4096, 17, prefetch, 0xabc}), layout);
        return std::get<starpu::DriverCopy>(decoded.records.front());
    };
    EXPECT_EQ(copy(starpu13Layout(), 1).kind, TransferKind::Prefetch);
    EXPECT_EQ(copy(starpu14Layout(), 1).kind, TransferKind::TaskPrefetch);
    EXPECT_EQ(copy(starpu14Layout(), 2).kind, TransferKind::Prefetch);
    EXPECT_EQ(copy(starpu13Layout(), 3).kind, std::nullopt);
    const auto full = copy(starpu14Layout(), 0);
    EXPECT_EQ(full, (starpu::DriverCopy{true, 0, 1, 4096, 17, TransferKind::Fetch, 0xabc}));
}

TEST(StarpuRecords, MemoryNodesShowTheirCopiesAndAllocationsInBothLayouts) {
    for (const auto* layout : {&starpu13Layout(), &starpu14Layout()}) {
        // A copy is a transfer and a state of its destination node; its end names no data.
        const std::vector<Record> start{starpu::DriverCopy{true, 0, 2, 4096, 17, TransferKind::Fetch, 0xabc},
                                        starpu::MemoryNodePush{2, starpu::kDriverCopy}};
        EXPECT_EQ(decode(Event(v14::StartDriverCopy, {0, 2, 4096, 17, 0, 0xabc}), *layout).records, start);
        const std::vector<Record> end{starpu::DriverCopy{false, 0, 2, 4096, 17, TransferKind::Fetch, 0},
                                      starpu::MemoryNodePop{2}};
        EXPECT_EQ(decode(Event(v14::EndDriverCopy, {0, 2, 4096, 17, 0}), *layout).records, end);
        // memnode, tid, size, handle, prefetch; an asynchronous copy names its source first.
        EXPECT_EQ(decode(Event(v13::StartAlloc, {1, 31, 4096, 0xabc, 0}), *layout).records,
                  one(starpu::MemoryNodePush{1, starpu::kAllocating}));
        EXPECT_EQ(decode(Event(v13::EndFree, {1, 31, 0xabc}), *layout).records, one(starpu::MemoryNodePop{1}));
        EXPECT_EQ(decode(Event(v13::StartDriverCopyAsync, {0, 3}), *layout).records,
                  one(starpu::MemoryNodePush{3, starpu::kDriverCopyAsync}));
        EXPECT_EQ(decode(Event(v13::CodeletDataHandle, {42, 0xabc, 4096, 1}), *layout).records,
                  one(starpu::DataAccess{42, 0xabc}));
    }
}

TEST(StarpuRecords, AnMpiSendIsTheSameRecordInBothLayouts) {
    // 1.3: dest, tag, size, job, tid. 1.4: type, dest, tag, size, job, handle, prio, tid.
    const auto in13 =
        decode(Event(starpu_mpi::IsendSubmitEnd, {1, 12, 800, 5, 9}), starpu13Layout());
    const auto in14 =
        decode(Event(starpu_mpi::IsendSubmitEnd, {0, 1, 12, 800, 5, 77, 0, 9}), starpu14Layout());
    const std::vector<Record> expected{starpu::MpiCommSet{"P"},
                                       starpu::SendSubmitted{1, 12, 800, 5}};
    EXPECT_EQ(in13.records, expected);
    EXPECT_EQ(in14.records, expected);
}

TEST(StarpuRecords, StatesAndMarkersCarryTheirThreadAndText) {
    EXPECT_EQ(decode(Event(v13::WorkerSleepStart, {31}), starpu13Layout()).records,
              one(starpu::ThreadSet{31, starpu::kSleeping}));
    EXPECT_EQ(decode(Event(v14::TaskWaitStart, {8, 31}), starpu14Layout()).records,
              one(starpu::SubmitPush{31, starpu::kWaitingTask}));
    EXPECT_EQ(decode(Event(v14::TaskDeps, {4, 5, 0, 1}), starpu14Layout()).records,
              one(starpu::TaskDependency{5, 4}));
    EXPECT_EQ(
        decode(Event(v13::Event, {}).string("starscope:1:batch_begin"), starpu13Layout()).records,
        one(starpu::UserString{"starscope:1:batch_begin"}));
    EXPECT_EQ(decode(Event(kFutKeychangeCode, {0x1}), starpu14Layout()).records,
              one(starpu::KeyMask{0x1}));
    // A code the reader does not decode gives no record.
    EXPECT_TRUE(decode(Event(v14::JobPush, {1, 0, 2}), starpu14Layout()).records.empty());
}

} // namespace
} // namespace starscope::tracer::detail
