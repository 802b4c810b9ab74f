#pragma once
// A trace handed to the native writer as it is made, for a trace too big to hold in memory (a
// synthetic job of 1 G spans, 36 GB of file: bench/tracer/scale_steps.sh): its small tables
// whole, in a Trace, and its big ones as columns that hand their records over in file order.
// The writer needs each column's count before its records (the payload's size precedes the
// payload) and may ask a column for its records more than once (the markers and messages, whose
// encoded size it counts first). A trace in memory is written through TraceStream::of: one
// payload walk for both, the same bytes.

#include "tracer/model/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace starscope::tracer {

// Takes some records, in order.
template <typename T> using EmitRecords = std::function<void(std::span<const T>)>;

template <typename T> struct StreamedColumn {
    using Record = T;
    std::uint64_t count = 0;
    // Hands exactly count records to emit, in order, each time it is called; may be left empty
    // when count is 0.
    std::function<void(const EmitRecords<T>&)> produce;

    // Records that lie in memory, handed over from there (valid while they are).
    static StreamedColumn of(std::span<const T> records) {
        return {records.size(), [records](const EmitRecords<T>& emit) { emit(records); }};
    }
};

// Gathers records and hands them to emit some thousands at a time: a std::function call per
// record would cost more than the record.
template <typename T> class RecordBatcher {
public:
    explicit RecordBatcher(const EmitRecords<T>& emit) : m_emit(emit) { m_records.reserve(kBatch); }
    RecordBatcher(const RecordBatcher&) = delete;
    RecordBatcher& operator=(const RecordBatcher&) = delete;
    ~RecordBatcher() { flush(); }
    void push(const T& record) {
        m_records.push_back(record);
        if (m_records.size() == kBatch) {
            flush();
        }
    }
    void flush() {
        if (!m_records.empty()) {
            m_emit(m_records);
            m_records.clear();
        }
    }

private:
    static constexpr std::size_t kBatch = (std::size_t{64} << 10) / sizeof(T) + 1;
    const EmitRecords<T>& m_emit;
    std::vector<T> m_records;
};

struct TraceStream {
    // Every table but those below: the extent, names, states, codelet keys, the lanes' own fields
    // (their levels are spans[lane]), ranks, transfers, metadata, warnings. Markers name their
    // arena and raw text in its names.
    const Trace* tables = nullptr;
    std::vector<std::vector<StreamedColumn<Span>>> spans;   // [lane][level], as Lane::levels
    StreamedColumn<Task> tasks;                             // as Trace's tables, sorted alike
    StreamedColumn<std::uint32_t> dependencyStarts;
    StreamedColumn<std::uint64_t> outsideJobs;
    StreamedColumn<TaskIndex> dependencies;
    StreamedColumn<MarkerEvent> markers;
    StreamedColumn<Message> messages;

    // A trace's tables where they lie: valid while the trace is.
    static TraceStream of(const Trace& trace);
    // Calls visit(column) for each column above, in file order.
    template <typename Visit> void forEachColumn(Visit visit) {
        for (auto& levels : spans) {
            for (auto& level : levels) {
                visit(level);
            }
        }
        visit(tasks);
        visit(dependencyStarts);
        visit(outsideJobs);
        visit(dependencies);
        visit(markers);
        visit(messages);
    }
    std::uint64_t spanCount() const;
};

// The trace a stream hands over, whole in memory (tests compare it with what was streamed).
Trace collectTrace(const TraceStream& stream);

} // namespace starscope::tracer
