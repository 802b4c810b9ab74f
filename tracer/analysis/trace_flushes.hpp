#pragma once
// The tracing's own cost: where threads wrote FxT's full buffer to the trace file. Readers show
// each write on the writing thread's lane as a span of StateClass::Tracing ("Trace flush"); the
// flushes are those spans, so that every format that keeps a trace's spans (the native file, a
// Paje export) keeps them too, and the analysis finds them here: the barriers they cause, and
// the figures of a run with their time taken out (stats.hpp's WithoutTracing).

#include "tracer/model/trace.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace starscope::tracer {

struct TraceFlush {
    std::int32_t lane = -1; // the thread that wrote (index into Trace::lanes)
    std::int32_t rank = -1; // its process's rank; -1 in a one-process trace
    TimeNs start = 0;
    TimeNs end = 0;

    TimeNs duration() const { return end - start; }
    bool operator==(const TraceFlush&) const = default;
};

// The trace's flushes by start (of that rank's lanes, or of every lane when unset).
std::vector<TraceFlush> findTraceFlushes(const Trace& trace,
                                         std::optional<std::int32_t> rank = std::nullopt);

// The time during which some thread was writing the trace: the flushes' intervals merged
// (flushes of several ranks may overlap), to tell how much of an interval was the tracing's.
class FlushTimeline {
public:
    struct Interval {
        TimeNs start = 0;
        TimeNs end = 0;
    };
    explicit FlushTimeline(const std::vector<TraceFlush>& flushes);

    bool empty() const { return m_intervals.empty(); }
    std::span<const Interval> intervals() const { return m_intervals; }
    // The flush time within [from, to).
    TimeNs within(TimeNs from, TimeNs to) const;

private:
    std::vector<Interval> m_intervals; // by start, disjoint
};

} // namespace starscope::tracer
