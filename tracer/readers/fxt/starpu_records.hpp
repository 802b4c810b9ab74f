#pragma once
// StarPU's FxT events as typed records, the same for every StarPU release: what the FxT reader
// knows of an event once its release's layout (starpu_layout.hpp) has placed each parameter.
// decodeStarpuEvent (starpu_record_decoding.hpp) is the only code that reads parameters by
// position; the decoder that builds the model (record_decoder.hpp) reads fields by name.
//
// Strings are views into the event's parameters: valid while the event is.

#include "tracer/model/trace.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>

namespace starscope::tracer::detail {

// What a worker start's kind key means in a release.
struct WorkerKind {    LaneKind lane = LaneKind::OtherWorker;
    std::string_view name; // lane name prefix: "CPU", "CUDA", ...
    bool operator==(const WorkerKind&) const = default;
};

namespace starpu {

// StarPU's state aliases (the keys of tracer/model/starpu_states.hpp's tables) that events
// set: one definition each, so that the decoder's cache can key them by address.
inline constexpr std::string_view kIdle = "I";
inline constexpr std::string_view kInitializing = "In";
inline constexpr std::string_view kDeinitializing = "D";
inline constexpr std::string_view kFetchingInput = "Fi";
inline constexpr std::string_view kPushingOutput = "Po";
inline constexpr std::string_view kCallback = "C";
inline constexpr std::string_view kOverhead = "B";
inline constexpr std::string_view kScheduling = "Sc";
inline constexpr std::string_view kSleeping = "Sl";
inline constexpr std::string_view kProgressing = "P";
inline constexpr std::string_view kUnpartitioning = "U";
inline constexpr std::string_view kBuildingTask = "Bu";
inline constexpr std::string_view kSubmittingTask = "Su";
inline constexpr std::string_view kThrottling = "Th";
inline constexpr std::string_view kMpiDecoding = "MD";
inline constexpr std::string_view kMpiPreparing = "MPr";
inline constexpr std::string_view kMpiPostProcessing = "MPo";
inline constexpr std::string_view kWaitingTask = "W";
inline constexpr std::string_view kWaitingAllTasks = "WA";
// A memory node's states (kStarpuMemoryNodeStates).
inline constexpr std::string_view kAllocating = "A";
inline constexpr std::string_view kAllocatingReuse = "Ar";
inline constexpr std::string_view kFreeing = "F";
inline constexpr std::string_view kWritingBack = "W";
inline constexpr std::string_view kWritingBackAsync = "Wa";
inline constexpr std::string_view kReclaiming = "R";
inline constexpr std::string_view kDriverCopy = "Co";
inline constexpr std::string_view kDriverCopyAsync = "CoA";

// An event of a code the reader decodes, with fewer parameters than its layout has.
struct TooFewParameters {
    bool operator==(const TooFewParameters&) const = default;
};

// A worker thread starts (WorkerInitStart).
struct WorkerStart {    std::uint64_t kindKey = 0;      // as recorded, for the message about unknown kinds
    std::optional<WorkerKind> kind; // nullopt: a kind this release does not have
    std::uint64_t workerId = 0;
    std::int64_t devId = 0;
    std::int32_t memNode = 0;
    bool sync = false; // the thread runs this one worker (not a worker set)
    std::uint64_t tid = 0;
    bool operator==(const WorkerStart&) const = default;
};

// A worker thread finished initialising (WorkerInitEnd); 1.3 names the worker, 1.4 too, older
// traces only the thread.
struct WorkerReady {    std::uint64_t tid = 0;
    std::optional<std::uint64_t> workerId;
    bool operator==(const WorkerReady&) const = default;
};

// A worker thread's driver is gone (WorkerDeinitEnd): its worker's states end here.
struct WorkerEnd {    std::uint64_t tid = 0;
    bool operator==(const WorkerEnd&) const = default;
};

// A codelet's body starts on a worker (StartCodeletBody). 1.3 carries the codelet's name
// ("unknown" when the task had none); 1.4 names tasks at submission (TaskName) instead.
struct CodeletStart {    std::uint64_t job = 0;
    std::uint64_t workerId = 0;
    std::optional<std::string_view> codelet;
    bool operator==(const CodeletStart&) const = default;
};

struct CodeletEnd {    std::uint64_t job = 0;
    std::uint32_t footprint = 0;
    std::uint64_t workerId = 0;
    std::uint64_t tid = 0;
    bool operator==(const CodeletEnd&) const = default;
};

struct Callback {    std::uint64_t tid = 0;
    bool start = false;
    bool operator==(const Callback&) const = default;
};

// A thread's state replaced (starpu_fxt_tool's thread_set_state).
struct ThreadSet {    std::uint64_t tid = 0;
    std::string_view state;
    bool operator==(const ThreadSet&) const = default;
};

// A worker's state replaced, the worker named by its id rather than its thread.
struct WorkerSet {    std::uint64_t workerId = 0;
    std::string_view state;
    bool operator==(const WorkerSet&) const = default;
};

// A state pushed on / popped off a thread's stack (scheduling inside another state).
struct ThreadPush {    std::uint64_t tid = 0;
    std::string_view state;
    bool operator==(const ThreadPush&) const = default;
};
struct ThreadPop {    std::uint64_t tid = 0;
    bool operator==(const ThreadPop&) const = default;
};

// The submitting side's states (building, submitting, waiting...): pushed on the thread that
// submits, which is the MPI communication thread for the tasks StarPU-MPI submits.
struct SubmitPush {    std::uint64_t tid = 0;
    std::string_view state;
    bool operator==(const SubmitPush&) const = default;
};
struct SubmitPop {    std::uint64_t tid = 0;
    bool operator==(const SubmitPop&) const = default;
};

struct TaskSubmitted {    std::uint64_t job = 0;
    bool operator==(const TaskSubmitted&) const = default;
};

struct TaskName {    std::uint64_t job = 0;
    std::string_view name;
    bool operator==(const TaskName&) const = default;
};

struct TaskFootprint {    std::uint64_t job = 0;
    std::uint32_t footprint = 0;
    bool operator==(const TaskFootprint&) const = default;
};

// job depends on dependsOn (TaskDeps: "previous job, successor job").
struct TaskDependency {    std::uint64_t job = 0;
    std::uint64_t dependsOn = 0;
    bool operator==(const TaskDependency&) const = default;
};

struct TagOfJob {    std::uint64_t tag = 0;
    std::uint64_t job = 0;
    bool operator==(const TagOfJob&) const = default;
};

struct TagDependency {    std::uint64_t child = 0;
    std::uint64_t father = 0;
    bool operator==(const TagDependency&) const = default;
};

// A data copy's start or end between memory nodes; the two ends share the request's com id.
struct DriverCopy {    bool start = false;
    std::int32_t fromNode = 0;
    std::int32_t toNode = 0;
    std::uint64_t size = 0;
    std::uint64_t comId = 0;
    std::optional<TransferKind> kind; // nullopt: a reason this release does not have
    std::uint64_t handle = 0;         // the data copied (its start only); 0 when not recorded
    bool operator==(const DriverCopy&) const = default;
};

// A memory node's manager starts something (a copy into the node, an allocation, a free, a
// write-back, a reclaim: starpu_fxt_tool's memnode_push_state), or ends the last one it started.
struct MemoryNodePush {
    std::int32_t node = 0;
    std::string_view state; // kStarpuMemoryNodeStates' alias
    bool operator==(const MemoryNodePush&) const = default;
};
struct MemoryNodePop {
    std::int32_t node = 0;
    bool operator==(const MemoryNodePop&) const = default;
};

// A task accesses a piece of data (CodeletDataHandle, as its codelet starts): which transfers
// it needed.
struct DataAccess {
    std::uint64_t job = 0;
    std::uint64_t handle = 0;
    bool operator==(const DataAccess&) const = default;
};

// starpu_fxt_trace_user_event_string (the markers, and StarPU's own "stop_profiling").
struct UserString {    std::string_view text;
    bool operator==(const UserString&) const = default;
};

// A string event of one thread (ThreadEvent).
struct ThreadString {    std::uint64_t tid = 0;
    std::string_view text;
    bool operator==(const ThreadString&) const = default;
};

// starpu_fxt_trace_user_event: a number.
struct UserValue {    std::uint64_t value = 0;
    std::uint64_t tid = 0;
    bool operator==(const UserValue&) const = default;
};

// FxT's key mask, at setup and at every change: which event categories are recorded.
struct KeyMask {    std::uint64_t mask = 0;
    bool operator==(const KeyMask&) const = default;
};

// libfxt's own events around a write of its full buffer to the trace file (fut_start_flush,
// fut_stop_flush). They carry no parameter and no thread: which thread wrote is told by the
// events that follow (buffer_flushes.hpp).
struct BufferFlush {
    bool start = false;
    bool operator==(const BufferFlush&) const = default;
};

// StarPU-MPI's communication thread.
struct MpiStart {    std::optional<std::uint64_t> tid; // of the communication thread
    bool operator==(const MpiStart&) const = default;
};
struct MpiStop {
    bool operator==(const MpiStop&) const = default;
};
struct MpiCommSet {    std::string_view state;
    bool operator==(const MpiCommSet&) const = default;
};
struct MpiCommPush {    std::string_view state;
    bool operator==(const MpiCommPush&) const = default;
};
struct MpiCommPop {
    bool operator==(const MpiCommPop&) const = default;
};
// A send submitted: the message starts (the communication thread's state is an MpiCommSet).
struct SendSubmitted {    std::int32_t dest = 0;
    std::int32_t mpiTag = 0;
    std::uint64_t size = 0;
    std::int64_t job = 0; // the task that sent, when positive
    bool operator==(const SendSubmitted&) const = default;
};
// A receive completed: the message ends.
struct ReceiveTerminated {    std::int32_t source = 0;
    std::int32_t mpiTag = 0;
    std::int64_t job = 0;
    bool operator==(const ReceiveTerminated&) const = default;
};

// Every record, for code that holds records of any kind (tests, tools); the decoder itself
// takes each kind through its own overload.
using Record = std::variant<TooFewParameters, WorkerStart, WorkerReady, WorkerEnd, CodeletStart, CodeletEnd, Callback,
                            ThreadSet, WorkerSet, ThreadPush, ThreadPop, SubmitPush, SubmitPop, TaskSubmitted, TaskName,
                            TaskFootprint, TaskDependency, TagOfJob, TagDependency, DriverCopy, MemoryNodePush,
                            MemoryNodePop, DataAccess, UserString, ThreadString,
                            UserValue, KeyMask, BufferFlush, MpiStart, MpiStop, MpiCommSet, MpiCommPush, MpiCommPop, SendSubmitted,
                            ReceiveTerminated>;

} // namespace starpu

} // namespace starscope::tracer::detail
