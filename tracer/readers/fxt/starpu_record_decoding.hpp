#pragma once
// The one place that reads StarPU's FxT events by parameter position: each event the reader
// knows becomes a typed record (starpu_records.hpp), its release's differences taken from its
// StarpuFxtLayout, and goes to the sink's on(record). A template so that the per-event call
// inlines into the decoder (millions of events per trace).
//
// A missing parameter reads as 0, as starpu_fxt_tool's do; an event whose record would be
// meaningless without its parameters is dropped or reported as TooFewParameters.

#include "tracer/readers/fxt/fxt_source.hpp"
#include "tracer/readers/fxt/starpu_1_4_12_codes.hpp"
#include "tracer/readers/fxt/starpu_layout.hpp"
#include "tracer/readers/fxt/starpu_mpi_codes.hpp"
#include "tracer/readers/fxt/starpu_records.hpp"

#include <cstring>

namespace starscope::tracer::detail {

namespace starpu {

inline std::uint64_t param(const RawEvent& ev, std::uint32_t i) {
    return i < ev.paramCount ? ev.params[i] : 0;
}

// A string packed into the parameters from index `from` on (NUL-terminated, or cut at the
// end of the event as starpu_fxt_tool does), valid while the event is.
inline std::string_view paramString(const RawEvent& ev, std::uint32_t from) {
    if (ev.paramCount <= from) {
        return {};
    }
    const auto* bytes = reinterpret_cast<const char*>(ev.params + from);
    const std::size_t max = (ev.paramCount - from) * sizeof(std::uint64_t);
    return {bytes, strnlen(bytes, max)};
}

// StarPU-MPI's events: the same codes in 1.3 and 1.4; IsendSubmitEnd's layout told by its
// parameter count.
template <typename Sink> void decodeMpiEvent(const RawEvent& ev, Sink& sink) {
    namespace mpi = starpu_mpi;
    const auto p = [&ev](std::uint32_t i) { return param(ev, i); };
    switch (ev.code) {
    case mpi::Start:
        sink.on(MpiStart{ev.paramCount >= 3 ? std::optional(p(2)) : std::nullopt});
        break;
    case mpi::Stop:
        sink.on(MpiStop{});
        break;
    case mpi::IsendSubmitBegin:
        sink.on(MpiCommSet{"SdS"});
        break;
    case mpi::IsendSubmitEnd: {
        // 1.4 puts the request type first; the tool reads the tag as an int.
        const std::uint32_t at = ev.paramCount >= mpi::kIsendSubmitEndParams14 ? 1 : 0;
        sink.on(MpiCommSet{"P"});
        sink.on(SendSubmitted{static_cast<std::int32_t>(p(at)),
                              static_cast<std::int32_t>(p(at + 1)), p(at + 2),
                              static_cast<std::int64_t>(p(at + 3))});
        break;
    }
    case mpi::IrecvSubmitBegin:
        sink.on(MpiCommSet{"RvS"});
        break;
    case mpi::IsendCompleteBegin:
        sink.on(MpiCommSet{"SdC"});
        break;
    case mpi::IrecvCompleteBegin:
        sink.on(MpiCommSet{"RvC"});
        break;
    case mpi::IrecvSubmitEnd:
    case mpi::IsendCompleteEnd:
    case mpi::IrecvCompleteEnd:
    case mpi::DtestingEnd:
    case mpi::UtestingEnd:
    case mpi::UwaitEnd:
    case mpi::PollingEnd:
        sink.on(MpiCommSet{"P"});
        break;
    case mpi::IrecvTerminated:
        if (ev.paramCount >= 3) {
            sink.on(ReceiveTerminated{static_cast<std::int32_t>(p(0)),
                                      static_cast<std::int32_t>(p(1)),
                                      static_cast<std::int64_t>(p(2))});
        }
        break;
    case mpi::SleepBegin:
        sink.on(MpiCommSet{"Sl"});
        break;
    case mpi::SleepEnd:
    case mpi::PollingBegin:
    case mpi::DriverRunEnd:
        sink.on(MpiCommSet{"Pl"});
        break;
    case mpi::DtestingBegin:
        sink.on(MpiCommSet{"DT"});
        break;
    case mpi::UtestingBegin:
        sink.on(MpiCommSet{"UT"});
        break;
    case mpi::UwaitBegin:
        sink.on(MpiCommSet{"UW"});
        break;
    case mpi::DriverRunBegin:
        sink.on(MpiCommSet{"Dr"});
        break;
    case mpi::TestingDetachedBegin:
        sink.on(MpiCommPush{"TD"});
        break;
    case mpi::TestBegin:
        sink.on(MpiCommPush{"MT"});
        break;
    case mpi::TestingDetachedEnd:
    case mpi::TestEnd:
        sink.on(MpiCommPop{});
        break;
    default:
        break;
    }
}

// The state a memory node's manager starts with one of these events (their node is p0).
constexpr std::string_view memoryNodeState(std::uint64_t code) {
    namespace codes = starpu_1_4_12;
    switch (code) {
    case codes::StartAlloc: return kAllocating;
    case codes::StartAllocReuse: return kAllocatingReuse;
    case codes::StartFree: return kFreeing;
    case codes::StartWriteback: return kWritingBack;
    case codes::StartWritebackAsync: return kWritingBackAsync;
    default: return kReclaiming;
    }
}

} // namespace starpu

// Decodes one event of a StarPU release with this layout into its record, if the reader knows
// the event, and hands it to sink.on(record). Inlined into its caller (RecordDecoder::handle, the
// call per event of every trace), which it is the whole of: a call of its own was 3 % of the
// instructions of `stats` (172 -> 167 M on an 18.9 MB prof file).
template <typename Sink>
[[gnu::always_inline]] inline void decodeStarpuEvent(const RawEvent& ev, const StarpuFxtLayout& layout, Sink& sink) {
    // The codes the releases share (starpu_layout.cpp checks that they are equal).
    namespace codes = starpu_1_4_12;
    using namespace starpu;
    const auto p = [&ev](std::uint32_t i) { return param(ev, i); };
    switch (ev.code) {
    case codes::WorkerInitStart:
        if (ev.paramCount < 7) {
            sink.on(TooFewParameters{});
        } else {
            sink.on(WorkerStart{p(0), layout.workerKind(p(0)), p(1),
                                static_cast<std::int64_t>(p(2)), static_cast<std::int32_t>(p(3)),
                                p(5) != 0, p(6)});
        }
        break;
    case codes::WorkerInitEnd:
        sink.on(WorkerReady{p(0), ev.paramCount >= 2 ? std::optional(p(1)) : std::nullopt});
        break;
    case codes::WorkerDeinitStart:
        sink.on(ThreadSet{p(0), kDeinitializing});
        break;
    case codes::WorkerDeinitEnd:
        sink.on(WorkerEnd{p(1)});
        break;
    case codes::StartCodeletBody:
        if (ev.paramCount >= layout.codeletBodyParams) {
            std::optional<std::string_view> codelet;
            if (const auto flag = layout.codeletNameFlagAt) {
                codelet = p(*flag) != 0 ? paramString(ev, *flag + 1) : std::string_view("unknown");
            }
            sink.on(CodeletStart{p(0), p(2), codelet});
        }
        break;
    case codes::EndCodeletBody:
        sink.on(CodeletEnd{p(0), static_cast<std::uint32_t>(p(2)), p(3), p(4)});
        break;
    case codes::StartCallback:
    case codes::EndCallback:
        sink.on(Callback{p(1), ev.code == codes::StartCallback});
        break;
    case codes::StartFetchInputOnTid:
        sink.on(ThreadSet{p(1), kFetchingInput});
        break;
    case codes::StartPushOutputOnTid:
        sink.on(ThreadSet{p(1), kPushingOutput});
        break;
    case codes::StartProgressOnTid:
        sink.on(ThreadSet{p(1), kProgressing});
        break;
    case codes::StartUnpartitionOnTid:
        sink.on(ThreadSet{p(1), kUnpartitioning});
        break;
    case codes::EndFetchInputOnTid:
    case codes::EndPushOutputOnTid:
    case codes::EndProgressOnTid:
    case codes::EndUnpartitionOnTid:
        sink.on(ThreadSet{p(1), kOverhead});
        break;
    case codes::StartFetchInput:
        sink.on(WorkerSet{p(1), kFetchingInput});
        break;
    case codes::EndFetchInput:
        sink.on(WorkerSet{p(1), kOverhead});
        break;
    case codes::WorkerSchedulingStart:
        sink.on(ThreadSet{p(0), kScheduling});
        break;
    case codes::WorkerSchedulingEnd:
        sink.on(ThreadSet{p(0), kOverhead});
        break;
    case codes::WorkerSchedulingPush:
        sink.on(ThreadPush{p(0), kScheduling});
        break;
    case codes::WorkerSchedulingPop:
        sink.on(ThreadPop{p(0)});
        break;
    case codes::WorkerSleepStart:
        sink.on(ThreadSet{p(0), kSleeping});
        break;
    case codes::WorkerSleepEnd:
        sink.on(ThreadSet{p(0), kOverhead});
        break;
    case codes::TaskBuildStart:
        sink.on(SubmitPush{p(0), kBuildingTask});
        break;
    case codes::TaskSubmitStart:
        sink.on(SubmitPush{p(0), kSubmittingTask});
        break;
    case codes::TaskThrottleStart:
        sink.on(SubmitPush{p(0), kThrottling});
        break;
    case codes::TaskMpiDecodeStart:
        sink.on(SubmitPush{p(0), kMpiDecoding});
        break;
    case codes::TaskMpiPreStart:
        sink.on(SubmitPush{p(0), kMpiPreparing});
        break;
    case codes::TaskMpiPostStart:
        sink.on(SubmitPush{p(0), kMpiPostProcessing});
        break;
    case codes::TaskWaitStart:
        sink.on(SubmitPush{p(1), kWaitingTask});
        break;
    case codes::TaskWaitForAllStart:
        sink.on(SubmitPush{p(0), kWaitingAllTasks});
        break;
    case codes::TaskBuildEnd:
    case codes::TaskSubmitEnd:
    case codes::TaskThrottleEnd:
    case codes::TaskMpiDecodeEnd:
    case codes::TaskMpiPreEnd:
    case codes::TaskMpiPostEnd:
    case codes::TaskWaitForAllEnd:
    case codes::TaskWaitEnd:
        sink.on(SubmitPop{p(0)});
        break;
    case codes::TaskSubmit:
        sink.on(TaskSubmitted{p(0)});
        break;
    case codes::StartDriverCopy:
    case codes::EndDriverCopy: {
        const bool start = ev.code == codes::StartDriverCopy;
        const auto to = static_cast<std::int32_t>(p(1));
        sink.on(DriverCopy{start, static_cast<std::int32_t>(p(0)), to, p(2), p(3),
                           ev.paramCount >= 5 ? layout.transferKind(p(4)) : std::nullopt,
                           start ? p(5) : 0});
        // starpu_fxt_tool shows the copy on the destination's memory manager too.
        if (start) {
            sink.on(MemoryNodePush{to, kDriverCopy});
        } else {
            sink.on(MemoryNodePop{to});
        }
        break;
    }
    case codes::StartDriverCopyAsync:
        sink.on(MemoryNodePush{static_cast<std::int32_t>(p(1)), kDriverCopyAsync});
        break;
    case codes::EndDriverCopyAsync:
        sink.on(MemoryNodePop{static_cast<std::int32_t>(p(1))});
        break;
    case codes::StartAlloc:
    case codes::StartAllocReuse:
    case codes::StartFree:
    case codes::StartWriteback:
    case codes::StartWritebackAsync:
    case codes::StartMemReclaim:
        sink.on(MemoryNodePush{static_cast<std::int32_t>(p(0)), memoryNodeState(ev.code)});
        break;
    case codes::EndAlloc:
    case codes::EndAllocReuse:
    case codes::EndFree:
    case codes::EndWriteback:
    case codes::EndWritebackAsync:
    case codes::EndMemReclaim:
        sink.on(MemoryNodePop{static_cast<std::int32_t>(p(0))});
        break;
    case codes::CodeletDataHandle:
        sink.on(DataAccess{p(0), p(1)});
        break;
    case codes::TaskName:
        if (ev.paramCount > layout.taskNameAt) {
            sink.on(TaskName{p(0), paramString(ev, layout.taskNameAt)});
        }
        break;
    case codes::CodeletDetails:
        if (ev.paramCount >= 7) {
            sink.on(TaskFootprint{p(6), static_cast<std::uint32_t>(p(2))});
        }
        break;
    case codes::TaskDeps:
        sink.on(TaskDependency{p(1), p(0)});
        break;
    case codes::Tag:
        sink.on(TagOfJob{p(0), p(1)});
        break;
    case codes::TagDeps:
        sink.on(TagDependency{p(0), p(1)});
        break;
    case codes::Event:
        sink.on(UserString{paramString(ev, 0)});
        break;
    case codes::ThreadEvent:
        sink.on(ThreadString{p(0), paramString(ev, 1)});
        break;
    case codes::UserEvent:
        sink.on(UserValue{p(0), p(1)});
        break;
    case kFutSetupCode:
    case kFutKeychangeCode:
        if (ev.paramCount >= 1) {
            sink.on(KeyMask{p(0)});
        }
        break;
    case kFutStartFlushCode:
    case kFutStopFlushCode:
        sink.on(BufferFlush{ev.code == kFutStartFlushCode});
        break;
    default:
        if (ev.code >= starpu_mpi::Start && ev.code <= starpu_mpi::TestEnd) {
            decodeMpiEvent(ev, sink);
        }
        break;
    }
}

} // namespace starscope::tracer::detail
