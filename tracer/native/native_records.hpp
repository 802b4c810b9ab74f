#pragma once
// Every record of the native format with its fields listed once: the writer
// (native_writer.cpp) and the reader (native_reader.cpp, native_tables.cpp) both walk these
// lists, so a field cannot be written by one side and forgotten by the other. Where the file
// keeps a model struct as it is (a state, a lane's own fields, ranks, messages, transfers) the
// list walks the model struct; where it keeps other widths or what the model derives (a
// marker's text; up to version 5 a span's task, a task's codelet and footprint), a file record
// holds the fields, which the writer fills from the model and the reader checks before filling
// the model. The columns of version 6 are the model's own records (below the field lists).
//
// Each model struct the file keeps is pinned to its count of fields: a field added to one
// fails to compile here until the format knows it (its list below, and the round trip of
// NativeFormat.EveryFieldRoundTrips in tests/tracer/native_format_test.cpp).
//
// The payload, in this order:
//   i64 begin, i64 end, then tables, each a u64 count and its records: names (strings),
//   states, from version 6 codelet keys, lanes (each followed by its levels: a u64 count, then
//   per level a table of spans), tasks (up to version 5 each followed by a u64 count and the
//   u64 job ids it depends on; from 6 the tasks' column, then the columns of Trace's
//   dependencyStarts, outsideJobs and dependencies), markers, from version 2 ranks and
//   messages, from version 3 transfers (version 4: with their task), metadata (key, value
//   strings, sorted by key), warnings (strings).
//   From version 6 the span and task tables and the dependency tables are columns: the count,
//   zeros up to a file offset that is a multiple of 8, then the model's records as they lie in
//   memory (a span's 16 bytes, a task's 32), which the model reads where they lie in the mapped
//   file once one checking pass went over them.

#include "tracer/model/trace.hpp"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace starscope::tracer::detail::native {

// Version 2 added the ranks of a StarPU-MPI run: a rank per lane and marker, the rank table and
// the messages between ranks. Version 1 files read as one-process traces.
inline constexpr std::uint32_t kFirstWithRanks = 2;
// Version 3 added the data transfers between memory nodes; older files have none.
inline constexpr std::uint32_t kFirstWithTransfers = 3;
// Version 4 added the task each transfer was for (Transfer::job) and memory-node lanes; a
// version 3 transfer reads as for no known task.
inline constexpr std::uint32_t kFirstWithTransferJobs = 4;

// A record of type T, const while written, not while read.
template <typename R, typename T>
concept RecordOf = std::same_as<std::remove_const_t<R>, T>;

template <typename IO, RecordOf<StateInfo> R> void fields(IO& io, R& state) {
    io(state.name, state.cls);
}

// Its levels follow as tables; its task index is rebuilt from the tasks (Trace::indexTasks).
template <typename IO, RecordOf<Lane> R> void fields(IO& io, R& lane) {
    io(lane.name, lane.kind, lane.memoryNode, lane.workerId);
    io.since(kFirstWithRanks, lane.rank);
}

// A span as files up to version 5 keep it: with the index of the task it runs (the model finds that task by
// the span's lane and times), kNoTask when it runs none.
struct FileSpan {
    TimeNs start = 0;
    TimeNs end = 0;
    std::uint32_t state = 0;
    TaskIndex task = kNoTask;
};
template <typename IO, RecordOf<FileSpan> R> void fields(IO& io, R& span) {
    io(span.start, span.end, span.state, span.task);
}

// A task as files up to version 5 keep it: its codelet and footprint (the model interns the pair), its times
// at 64 bits and its lane at 32. Its dependencies follow, as job ids.
struct FileTask {
    std::uint64_t jobId = 0;
    NameId codelet = kNoName;
    std::uint32_t footprint = 0;
    TimeNs submit = -1;
    TimeNs start = -1;
    TimeNs end = -1;
    std::int32_t lane = -1;
};
template <typename IO, RecordOf<FileTask> R> void fields(IO& io, R& task) {
    io(task.jobId, task.codelet, task.footprint, task.submit, task.start, task.end, task.lane);
}

// A codelet key (version 6 on: tasks name theirs by index into this table, as the model's do).
template <typename IO, RecordOf<CodeletKey> R> void fields(IO& io, R& key) {
    io(key.codelet, key.footprint);
}

// A marker as the file keeps it: its fields at wider widths than the model's (MarkerEvent),
// its arena and its text as strings.
struct FileMarker {
    TimeNs time = 0;
    std::int32_t lane = -1;
    std::int32_t rank = -1;
    std::uint8_t parsed = 0;
    std::uint8_t kind = 0;
    std::int32_t epoch = -1;
    std::int32_t batch = -1;
    std::int32_t slot = -1;
    std::int64_t handles = -1;
    std::string arena;
    std::string text;
};
template <typename IO, RecordOf<FileMarker> R> void fields(IO& io, R& marker) {
    io(marker.time, marker.lane);
    io.since(kFirstWithRanks, marker.rank);
    io(marker.parsed, marker.kind, marker.epoch, marker.batch, marker.slot, marker.handles,
       marker.arena, marker.text);
}

template <typename IO, RecordOf<RankInfo> R> void fields(IO& io, R& rank) {
    io(rank.rank, rank.worldSize, rank.source, rank.syncPoints, rank.localSyncStart,
       rank.localSyncEnd, rank.clockOffset, rank.clockOffsetEnd);
}

template <typename IO, RecordOf<Message> R> void fields(IO& io, R& message) {
    io(message.fromRank, message.toRank, message.fromLane, message.toLane, message.start,
       message.end, message.size, message.tag, message.sendJob, message.recvJob);
}

template <typename IO, RecordOf<Transfer> R> void fields(IO& io, R& transfer) {
    io(transfer.rank, transfer.fromNode, transfer.toNode, transfer.kind, transfer.start,
       transfer.end, transfer.size);
    io.since(kFirstWithTransferJobs, transfer.job);
}

// Version 6 keeps the big tables as the model holds them in memory, a column of records each:
// every level's spans, the tasks, the dependency table. Older files hold them record by record
// (FileSpan, FileTask and job ids), read into the model one field at a time.
inline constexpr std::uint32_t kFirstWithColumns = 6;

// The count of fields of an aggregate: the most initializers T{...} takes. Only ever used
// unevaluated, so AnyField's conversion needs no definition.
struct AnyField {
    template <typename T>
    operator T() const; // NOLINT(google-explicit-constructor): converts to every field
};
template <typename T, typename... Fields> consteval std::size_t fieldCount() {
    if constexpr (requires { T{Fields{}..., AnyField{}}; }) {
        return fieldCount<T, Fields..., AnyField>();
    } else {
        return sizeof...(Fields);
    }
}

// What the file keeps of each model struct; the model's other fields are derived on reading.
static_assert(fieldCount<Trace>() == 16, "Trace: a table the payload does not list");
static_assert(fieldCount<StateInfo>() == 2, "StateInfo: a field fields(StateInfo) does not list");
static_assert(fieldCount<Lane>() == 7, "Lane: a field fields(Lane) does not list");
static_assert(fieldCount<Task>() == 6, "Task: a field FileTask does not hold");
static_assert(fieldCount<MarkerEvent>() == 11, "MarkerEvent: a field FileMarker does not hold");
static_assert(fieldCount<CodeletKey>() == 2, "CodeletKey: a field fields(CodeletKey) does not list");
static_assert(fieldCount<RankInfo>() == 8, "RankInfo: a field fields(RankInfo) does not list");
static_assert(fieldCount<Message>() == 10, "Message: a field fields(Message) does not list");
static_assert(fieldCount<Transfer>() == 8, "Transfer: a field fields(Transfer) does not list");
// Span has constructors, so its fields are not counted: its size is pinned instead (the model
// asserts it too), and a span is start, end, state and runsTask (FileSpan's task).
static_assert(sizeof(Span) == 16, "Span: a field FileSpan does not hold");
// A column's records are the model's bytes: the file's layout is pinned here. A span is its
// 16 bytes as GCC and Clang lay out its bit-fields on a little-endian machine (start in the
// low 48 bits of its first word, end in the low 48 of its second, then the state's 15 bits and
// runsTask's one); NativeFormat.ColumnsHoldTheModelsBytes checks that layout.
static_assert(std::is_trivially_copyable_v<Span> && alignof(Span) == 8);
static_assert(std::is_trivially_copyable_v<Task> && alignof(Task) == 8);
static_assert(offsetof(Task, jobId) == 0 && offsetof(Task, codeletKey) == 8 && offsetof(Task, submit) == 12
                  && offsetof(Task, start) == 18 && offsetof(Task, end) == 24 && offsetof(Task, lane) == 30,
              "Task: the file's task column is this layout");

} // namespace starscope::tracer::detail::native
