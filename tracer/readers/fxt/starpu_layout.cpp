#include "tracer/readers/fxt/starpu_layout.hpp"

#include "tracer/readers/fxt/starpu_1_3_10_codes.hpp"
#include "tracer/readers/fxt/starpu_1_4_12_codes.hpp"

namespace starscope::tracer::detail {

namespace {

namespace v13 = starpu_1_3_10;
namespace v14 = starpu_1_4_12;

// The decoder switches on one set of codes for both versions: these are the codes it reads,
// and they must mean the same in both (their parameter differences are StarpuFxtLayout's).
constexpr std::uint64_t kSharedCodes[][2] = {
    {v13::WorkerInitStart, v14::WorkerInitStart}, {v13::WorkerInitEnd, v14::WorkerInitEnd},
    {v13::StartCodeletBody, v14::StartCodeletBody}, {v13::EndCodeletBody, v14::EndCodeletBody},
    {v13::StartFetchInputOnTid, v14::StartFetchInputOnTid}, {v13::EndFetchInputOnTid, v14::EndFetchInputOnTid},
    {v13::StartPushOutputOnTid, v14::StartPushOutputOnTid}, {v13::EndPushOutputOnTid, v14::EndPushOutputOnTid},
    {v13::Tag, v14::Tag}, {v13::TagDeps, v14::TagDeps}, {v13::TaskDeps, v14::TaskDeps},
    {v13::WorkerDeinitStart, v14::WorkerDeinitStart}, {v13::WorkerDeinitEnd, v14::WorkerDeinitEnd},
    {v13::WorkerSleepStart, v14::WorkerSleepStart}, {v13::WorkerSleepEnd, v14::WorkerSleepEnd},
    {v13::TaskSubmit, v14::TaskSubmit}, {v13::StartCallback, v14::StartCallback},
    {v13::EndCallback, v14::EndCallback}, {v13::TaskName, v14::TaskName},
    {v13::StartProgressOnTid, v14::StartProgressOnTid}, {v13::EndProgressOnTid, v14::EndProgressOnTid},
    {v13::UserEvent, v14::UserEvent}, {v13::Event, v14::Event}, {v13::ThreadEvent, v14::ThreadEvent},
    {v13::CodeletDetails, v14::CodeletDetails}, {v13::StartUnpartitionOnTid, v14::StartUnpartitionOnTid},
    {v13::EndUnpartitionOnTid, v14::EndUnpartitionOnTid},
    {v13::WorkerSchedulingStart, v14::WorkerSchedulingStart}, {v13::WorkerSchedulingEnd, v14::WorkerSchedulingEnd},
    {v13::WorkerSchedulingPush, v14::WorkerSchedulingPush}, {v13::WorkerSchedulingPop, v14::WorkerSchedulingPop},
    {v13::TaskSubmitStart, v14::TaskSubmitStart}, {v13::TaskSubmitEnd, v14::TaskSubmitEnd},
    {v13::TaskBuildStart, v14::TaskBuildStart}, {v13::TaskBuildEnd, v14::TaskBuildEnd},
    {v13::TaskMpiDecodeStart, v14::TaskMpiDecodeStart}, {v13::TaskMpiDecodeEnd, v14::TaskMpiDecodeEnd},
    {v13::TaskMpiPreStart, v14::TaskMpiPreStart}, {v13::TaskMpiPreEnd, v14::TaskMpiPreEnd},
    {v13::TaskMpiPostStart, v14::TaskMpiPostStart}, {v13::TaskMpiPostEnd, v14::TaskMpiPostEnd},
    {v13::TaskWaitStart, v14::TaskWaitStart}, {v13::TaskWaitEnd, v14::TaskWaitEnd},
    {v13::TaskWaitForAllStart, v14::TaskWaitForAllStart}, {v13::TaskWaitForAllEnd, v14::TaskWaitForAllEnd},
    {v13::StartFetchInput, v14::StartFetchInput}, {v13::EndFetchInput, v14::EndFetchInput},
    {v13::TaskThrottleStart, v14::TaskThrottleStart}, {v13::TaskThrottleEnd, v14::TaskThrottleEnd},
    {v13::StartDriverCopy, v14::StartDriverCopy}, {v13::EndDriverCopy, v14::EndDriverCopy},
    {v13::StartDriverCopyAsync, v14::StartDriverCopyAsync}, {v13::EndDriverCopyAsync, v14::EndDriverCopyAsync},
    {v13::StartAlloc, v14::StartAlloc}, {v13::EndAlloc, v14::EndAlloc},
    {v13::StartAllocReuse, v14::StartAllocReuse}, {v13::EndAllocReuse, v14::EndAllocReuse},
    {v13::StartMemReclaim, v14::StartMemReclaim}, {v13::EndMemReclaim, v14::EndMemReclaim},
    {v13::StartFree, v14::StartFree}, {v13::EndFree, v14::EndFree},
    {v13::StartWriteback, v14::StartWriteback}, {v13::EndWriteback, v14::EndWriteback},
    {v13::StartWritebackAsync, v14::StartWritebackAsync}, {v13::EndWritebackAsync, v14::EndWritebackAsync},
    {v13::CodeletDataHandle, v14::CodeletDataHandle},
};
constexpr bool sameCodes() {
    for (const auto& pair : kSharedCodes) {
        if (pair[0] != pair[1]) {
            return false;
        }
    }
    return true;
}
static_assert(sameCodes(), "a code the FxT decoder shares between StarPU 1.3 and 1.4 differs");

std::optional<WorkerKind> workerKind13(std::uint64_t key) {
    switch (key) {
    case v13::kCpuKey: return WorkerKind{LaneKind::CpuWorker, "CPU"};
    case v13::kCudaKey: return WorkerKind{LaneKind::CudaWorker, "CUDA"};
    case v13::kOpenclKey: return WorkerKind{LaneKind::OtherWorker, "OpenCL"};
    case v13::kMicKey: return WorkerKind{LaneKind::OtherWorker, "MIC"};
    case v13::kMpiKey: return WorkerKind{LaneKind::OtherWorker, "MPI-MS"};
    case v13::kAppsKey: return WorkerKind{LaneKind::OtherWorker, "APPS"};
    default: return std::nullopt;
    }
}

std::optional<WorkerKind> workerKind14(std::uint64_t key) {
    switch (key) {
    case v14::kCpuKey: return WorkerKind{LaneKind::CpuWorker, "CPU"};
    case v14::kCudaKey: return WorkerKind{LaneKind::CudaWorker, "CUDA"};
    case v14::kOpenclKey: return WorkerKind{LaneKind::OtherWorker, "OpenCL"};
    case v14::kMaxFpgaKey: return WorkerKind{LaneKind::OtherWorker, "FPGA"};
    case v14::kMpiMsKey: return WorkerKind{LaneKind::OtherWorker, "MPI-MS"};
    case v14::kTcpipMsKey: return WorkerKind{LaneKind::OtherWorker, "TCPIP-MS"};
    case v14::kHipKey: return WorkerKind{LaneKind::OtherWorker, "HIP"};
    default: return std::nullopt;
    }
}

std::optional<TransferKind> transferKind13(std::uint64_t prefetch) {
    switch (prefetch) {
    case v13::kFetch: return TransferKind::Fetch;
    case v13::kPrefetch: return TransferKind::Prefetch;
    case v13::kIdleFetch: return TransferKind::IdleFetch;
    default: return std::nullopt;
    }
}

std::optional<TransferKind> transferKind14(std::uint64_t prefetch) {
    switch (prefetch) {
    case v14::kFetch: return TransferKind::Fetch;
    case v14::kTaskPrefetch: return TransferKind::TaskPrefetch;
    case v14::kPrefetch: return TransferKind::Prefetch;
    case v14::kIdleFetch: return TransferKind::IdleFetch;
    default: return std::nullopt;
    }
}

} // namespace

const StarpuFxtLayout& starpu13Layout() {
    static const StarpuFxtLayout layout{v13::kVersion,         kStarpu13States,          workerKind13,
                                        v13::kCodeletBodyParams, v13::kCodeletNameFlagAt, v13::kTaskNameAt,
                                        transferKind13};
    return layout;
}

const StarpuFxtLayout& starpu14Layout() {
    static const StarpuFxtLayout layout{v14::kVersion,         kStarpu14States, workerKind14,
                                        v14::kCodeletBodyParams, std::nullopt,    v14::kTaskNameAt,
                                        transferKind14,          true};
    return layout;
}

const StarpuFxtLayout* LayoutSniffer::decide(const StarpuFxtLayout& layout, std::string_view reason) {
    m_decided = &layout;
    m_reason = reason;
    return m_decided;
}

const StarpuFxtLayout* LayoutSniffer::feed(const RawEvent& ev) {
    if (m_decided != nullptr) {
        return m_decided;
    }
    switch (ev.code) {
    case v14::StartCodeletBody:
        // 1.3 always appends has_name (and the name); 1.4 never does.
        return ev.paramCount == v14::kCodeletBodyParams ? decide(starpu14Layout(), "StartCodeletBody with 4 parameters")
                                  : decide(starpu13Layout(), "StartCodeletBody with the codelet name");
    case v14::WorkerInitStart:
        // 1.3's key 0x100 is "APPS", which its CPU, CUDA, ... workers never use; it is 1.4's CPU.
        return ev.paramCount > 0 && ev.params[0] == v14::kCpuKey
                   ? decide(starpu14Layout(), "a CPU worker of kind key 0x100")
                   : nullptr;
    // (TaskExcludeFromDag, 0x5187, is not among them: 1.3.10 writes it too, for the tasks of
    // starpu_execute_on_each_worker, and a 1.3 trace taken for 1.4 has its CPU workers read as
    // CUDA ones and its codelet names cut.)
    case v14::TaskLine:
    case v14::PapiTaskEventValue:
    case v14::TaskEndDep:
    case v14::TaskBubble:
    case v14::StartParallelSync:
    case v14::EndParallelSync: return decide(starpu14Layout(), "an event code that only 1.4 writes");
    case kFutSetupCode:
    case kFutKeychangeCode: {
        // 1.3 only ever sets every bit (libfxt records 0x7fffffff), none, or bit 0 alone;
        // 1.4's default leaves its two "verbose extra" bits off (0x7fcfffff).
        const std::uint64_t mask = ev.paramCount > 0 ? ev.params[0] & 0x7fffffffU : 0x7fffffffU;
        return mask != 0 && mask != 1 && mask != 0x7fffffffU ? decide(starpu14Layout(), "a 1.4 key mask") : nullptr;
    }
    default: return nullptr;
    }
}

} // namespace starscope::tracer::detail
