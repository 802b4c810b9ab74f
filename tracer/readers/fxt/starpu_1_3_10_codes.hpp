#pragma once
// StarPU's private FxT event codes and parameter layouts, as StarPU 1.3.10 writes them.
// Checked against src/common/fxt.h (codes and the _STARPU_TRACE_* macros that fill the
// parameters) and src/debug/traces/starpu_fxt.c (how starpu_fxt_tool reads them) of the
// 1.3.10 source. StarPU does not promise these codes across versions: a reader for another
// version gets its own file, never an edit of this one.

#include <cstdint>
#include <string_view>

namespace starscope::tracer::detail::starpu_1_3_10 {

inline constexpr std::string_view kVersion = "1.3.10";

// Worker kinds, parameter 0 of WorkerInitStart.
inline constexpr std::uint64_t kAppsKey = 0x100;
inline constexpr std::uint64_t kCpuKey = 0x101;
inline constexpr std::uint64_t kCudaKey = 0x102;
inline constexpr std::uint64_t kOpenclKey = 0x103;
inline constexpr std::uint64_t kMicKey = 0x104;
inline constexpr std::uint64_t kMpiKey = 0x106;

// Why a driver copy ran: its "prefetch" parameter (enum _starpu_is_prefetch of src/datawizard/copy_driver.h).
enum Fetch : std::uint64_t { kFetch = 0, kPrefetch = 1, kIdleFetch = 2 };

// Parameters are listed as p0, p1, ...; "tid" is StarPU's _starpu_gettid() of the emitting
// thread, "str@N" a NUL-terminated string packed from parameter N on.
enum Code : std::uint64_t {
    WorkerInitStart = 0x5100,        // kind, workerid, devid, memnode, bindid, sync, tid
    WorkerInitEnd = 0x5101,          // tid, workerid
    StartCodeletBody = 0x5102,       // job, sched_ctx, workerid, memnode, has_name, str@5
    EndCodeletBody = 0x5103,         // job, size, footprint, workerid, tid, str@5 (arch)
    JobPush = 0x5104,                // job, prio, tid
    JobPop = 0x5105,                 // job, prio, tid
    UpdateTaskCnt = 0x5106,          // counter, tid
    StartFetchInputOnTid = 0x5107,   // job, tid
    EndFetchInputOnTid = 0x5108,     // job, tid
    StartPushOutputOnTid = 0x5109,   // job, tid
    EndPushOutputOnTid = 0x5110,     // job, tid
    Tag = 0x5111,                    // tag, job
    TagDeps = 0x5112,                // child tag, father tag
    TaskDeps = 0x5113,               // previous job, successor job, type, 1, str@4
    DataCopy = 0x5114,
    WorkStealing = 0x5115,
    WorkerDeinitStart = 0x5116,      // tid
    WorkerDeinitEnd = 0x5117,        // kind, tid
    WorkerSleepStart = 0x5118,       // tid
    WorkerSleepEnd = 0x5119,         // tid
    TaskSubmit = 0x511a,             // job, iter, subiter, submit order, prio, type, tid
    CodeletDataHandle = 0x511b,      // job, handle, size, mode
    ModelName = 0x511c,              // job, str@1
    DataName = 0x511d,
    DataCoordinates = 0x511e,
    HandleDataUnregister = 0x511f,
    UserDefinedStart = 0x5120,
    UserDefinedEnd = 0x5121,
    NewMemNode = 0x5122,             // node, tid
    StartCallback = 0x5123,          // job, tid
    EndCallback = 0x5124,            // job, tid
    TaskDone = 0x5125,               // job, tid
    TagDone = 0x5126,
    StartAlloc = 0x5127,             // memnode, tid, size, handle, prefetch
    EndAlloc = 0x5128,               // memnode, tid, handle, result
    StartAllocReuse = 0x5129,        // memnode, tid, size, handle, prefetch
    EndAllocReuse = 0x5130,          // memnode, tid, handle, result
    StartMemReclaim = 0x5131,        // memnode, prefetch, tid
    EndMemReclaim = 0x5132,          // memnode, prefetch, tid
    TaskName = 0x512b,               // job, str@1
    TaskColor = 0x512d,
    StartDriverCopy = 0x5133,        // src node, dst node, size, com id, prefetch, handle
    EndDriverCopy = 0x5134,          // src node, dst node, size, com id, prefetch
    StartDriverCopyAsync = 0x5135,   // src node, dst node
    EndDriverCopyAsync = 0x5136,     // src node, dst node
    StartProgressOnTid = 0x5137,     // memnode, tid
    EndProgressOnTid = 0x5138,       // memnode, tid
    UserEvent = 0x5139,              // code, tid (starpu_fxt_trace_user_event)
    SetProfiling = 0x513a,
    TaskWaitForAll = 0x513b,         // (no parameter)
    Event = 0x513c,                  // str@0 (starpu_fxt_trace_user_event_string)
    ThreadEvent = 0x513d,            // tid, str@1
    CodeletDetails = 0x513e,         // sched_ctx, size, footprint, flops, tag, workerid, job
    CodeletData = 0x513f,
    StartUnpartitionOnTid = 0x5154,  // memnode, tid
    EndUnpartitionOnTid = 0x5155,    // memnode, tid
    StartFree = 0x5156,              // memnode, tid, size, handle
    EndFree = 0x5157,                // memnode, tid, handle
    StartWriteback = 0x5158,         // memnode, tid, handle
    EndWriteback = 0x5159,           // memnode, tid, handle
    StartWritebackAsync = 0x515c,    // memnode, tid
    EndWritebackAsync = 0x515d,      // memnode, tid
    HypervisorBegin = 0x5160,
    HypervisorEnd = 0x5161,
    WorkerSchedulingStart = 0x5164,  // tid
    WorkerSchedulingEnd = 0x5165,    // tid
    WorkerSchedulingPush = 0x5166,   // tid
    WorkerSchedulingPop = 0x5167,    // tid
    StartExecuting = 0x5168,         // tid (only for worker sets)
    EndExecuting = 0x5169,           // tid
    TaskSubmitStart = 0x516e,        // tid
    TaskSubmitEnd = 0x516f,          // tid
    TaskBuildStart = 0x5170,         // tid
    TaskBuildEnd = 0x5171,           // tid
    TaskMpiDecodeStart = 0x5172,     // tid
    TaskMpiDecodeEnd = 0x5173,
    TaskMpiPreStart = 0x5174,
    TaskMpiPreEnd = 0x5175,
    TaskMpiPostStart = 0x5176,
    TaskMpiPostEnd = 0x5177,
    TaskWaitStart = 0x5178,          // job, tid
    TaskWaitEnd = 0x5179,            // tid
    TaskWaitForAllStart = 0x517a,    // tid
    TaskWaitForAllEnd = 0x517b,      // tid
    HandleDataRegister = 0x517c,
    StartFetchInput = 0x517e,        // job, workerid
    EndFetchInput = 0x517f,          // job, workerid
    TaskThrottleStart = 0x5180,      // tid
    TaskThrottleEnd = 0x5181,        // tid
    TaskExcludeFromDag = 0x5187,     // job, exclude (starpu_execute_on_each_worker's tasks, among others)
};

// Parameters the FxT reader finds at other places in other releases (StarpuFxtLayout).
inline constexpr std::uint32_t kCodeletBodyParams = 5;   // StartCodeletBody: up to the name flag (at 4); the name from 5
inline constexpr std::uint32_t kCodeletNameFlagAt = 4;
inline constexpr std::uint32_t kTaskNameAt = 1;          // TaskName: str@1

// StarPU's codes all live in 0x5100..0x51ff; FxT's own bookkeeping events are outside.
inline constexpr std::uint64_t kFirstCode = 0x5100;
inline constexpr std::uint64_t kLastCode = 0x51ff;

// Its worker and user-thread states: kStarpu13States (tracer/model/starpu_states.hpp).

} // namespace starscope::tracer::detail::starpu_1_3_10
