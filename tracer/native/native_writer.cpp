// Writing the native format's payload, table by table through the records' field lists
// (native_records.hpp); native_format.cpp frames it.

#include "tracer/native/native_payload.hpp"

#include <map>

namespace starscope::tracer::detail::native {

namespace {

FileSpan fileSpan(const Trace& trace, const Lane& lane, const Span& span) {
    // The file keeps each span's task index (the model finds it by lane and times). Written as
    // the struct holds it: a span whose task is not found by its times (a model changed after
    // its tasks were indexed) gets kNoTask, and the reader says what is inconsistent.
    return FileSpan{span.start, span.end, span.state,
                    span.runsTask != 0 ? trace.findTask(lane, span.start, span.end) : kNoTask};
}

FileTask fileTask(const Trace& trace, const Task& task) {
    // The file keeps each task's codelet and footprint (the model interns the pair) and its
    // lane at 32 bits (16 in the model).
    return FileTask{task.jobId,
                    trace.codeletIdOf(task),
                    trace.footprintOf(task),
                    task.submit,
                    task.start,
                    task.end,
                    task.lane};
}

FileMarker fileMarker(const Trace& trace, const MarkerEvent& m) {
    // The file's widths, wider than the model's (MarkerEvent).
    return FileMarker{m.time,
                      m.lane,
                      m.rank,
                      static_cast<std::uint8_t>(m.parsed ? 1 : 0),
                      static_cast<std::uint8_t>(m.kind),
                      m.epoch,
                      m.batch,
                      m.slot,
                      m.handles,
                      std::string(trace.arenaOf(m)),
                      trace.textOf(m)};
}

// A table: its count, then each record's fields.
template <typename Records> void table(FieldWriter& out, const Records& records) {
    out.count(records.size());
    for (const auto& record : records) {
        fields(out, record);
    }
}

} // namespace

Writer writePayload(const Trace& trace) {
    Writer w;
    FieldWriter out(w);
    out(trace.begin, trace.end);
    out.count(trace.names.size());
    for (std::size_t i = 0; i < trace.names.size(); ++i) {
        out(trace.names.name(static_cast<NameId>(i)));
    }
    table(out, trace.states);
    out.count(trace.lanes.size());
    for (const auto& lane : trace.lanes) {
        fields(out, lane);
        out.count(lane.levels.size());
        for (const auto& level : lane.levels) {
            out.count(level.size());
            for (const auto& span : level) {
                const FileSpan record = fileSpan(trace, lane, span);
                fields(out, record);
            }
        }
    }
    out.count(trace.tasks.size());
    for (const auto& task : trace.tasks) {
        const FileTask record = fileTask(trace, task);
        fields(out, record);
        // The file names dependencies by job id, as the model did before its 4-byte entries.
        const auto dependencies = trace.dependenciesOf(task);
        out.count(dependencies.size());
        for (const std::uint64_t job : dependencies) {
            out(job);
        }
    }
    out.count(trace.markers.size());
    for (const auto& marker : trace.markers) {
        const FileMarker record = fileMarker(trace, marker);
        fields(out, record);
    }
    table(out, trace.ranks);
    table(out, trace.messages);
    table(out, trace.transfers);
    // Sorted, so the same trace always gives the same bytes.
    const std::map<std::string, std::string> metadata(trace.metadata.begin(), trace.metadata.end());
    out.count(metadata.size());
    for (const auto& [key, value] : metadata) {
        out(key, value);
    }
    out.count(trace.warnings.size());
    for (const auto& warning : trace.warnings) {
        out(warning);
    }
    return w;
}

} // namespace starscope::tracer::detail::native
