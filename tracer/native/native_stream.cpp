#include "tracer/native/native_stream.hpp"

namespace starscope::tracer {

namespace {

template <typename T> std::vector<T> collect(const StreamedColumn<T>& column) {
    std::vector<T> records;
    records.reserve(column.count);
    if (!column.produce) {
        return records;   // an empty column, made by no one
    }
    column.produce([&records](std::span<const T> some) { records.insert(records.end(), some.begin(), some.end()); });
    return records;
}

} // namespace

TraceStream TraceStream::of(const Trace& trace) {
    TraceStream stream;
    stream.tables = &trace;
    stream.spans.reserve(trace.lanes.size());
    for (const auto& lane : trace.lanes) {
        auto& levels = stream.spans.emplace_back();
        for (const auto& level : lane.levels) {
            levels.push_back(StreamedColumn<Span>::of(level));
        }
    }
    stream.tasks = StreamedColumn<Task>::of(trace.tasks);
    stream.dependencyStarts = StreamedColumn<std::uint32_t>::of(trace.dependencyStarts);
    stream.outsideJobs = StreamedColumn<std::uint64_t>::of(trace.outsideJobs);
    stream.dependencies = StreamedColumn<TaskIndex>::of(trace.dependencies);
    stream.markers = StreamedColumn<MarkerEvent>::of(trace.markers);
    stream.messages = StreamedColumn<Message>::of(trace.messages);
    return stream;
}

std::uint64_t TraceStream::spanCount() const {
    std::uint64_t count = 0;
    for (const auto& levels : spans) {
        for (const auto& level : levels) {
            count += level.count;
        }
    }
    return count;
}

Trace collectTrace(const TraceStream& stream) {
    Trace trace = *stream.tables;
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        auto& levels = trace.lanes[l].levels;
        levels.clear();
        for (const auto& level : stream.spans[l]) {
            levels.push_back(collect(level));
        }
    }
    trace.tasks = collect(stream.tasks);
    trace.dependencyStarts = collect(stream.dependencyStarts);
    trace.outsideJobs = collect(stream.outsideJobs);
    trace.dependencies = collect(stream.dependencies);
    trace.markers = collect(stream.markers);
    trace.messages = collect(stream.messages);
    trace.indexTasks();
    return trace;
}

} // namespace starscope::tracer
