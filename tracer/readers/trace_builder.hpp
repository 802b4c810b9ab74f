#pragma once
// Shared by the readers: turns a stream of Set/Push/Pop state changes per lane into sorted
// spans, collects task records by job id and markers, then normalises the whole trace, so
// the FxT and the Paje readers give the same model for the same run.
//
// Two threads may share one builder while a trace is read (the FxT reader's, model_ops.hpp):
// one of them adds lanes and states (addLane, state, laneCount) and the trace's transfers,
// while the other makes the state changes and the tasks, dependencies, markers, names and
// warnings. The state changes keep their stacks and spans apart from the lanes' table for
// that reason, until finish().

#include "tracer/model/trace.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace starscope::tracer::detail {

inline constexpr std::string_view kExecutingState = "Executing";

// Class of a state by its name on a lane of the given kind.
StateClass classOfState(std::string_view name, LaneKind kind);

class TraceBuilder {
public:
    std::int32_t addLane(std::string name, LaneKind kind, std::int32_t memoryNode,
                         std::int32_t workerId);
    std::uint32_t state(std::string_view name, LaneKind kind);
    // The task with this job id, created on first use.
    TaskIndex task(std::uint64_t jobId);
    // Capacity for about this many tasks, from the input's size: growing the task table copies it,
    // and so does growing the job-id table of the first process (the only one of most traces),
    // and the dependencies read (a task or more each when the trace has them: only address space
    // when it has none).
    void reserveTasks(std::size_t count) {
        m_trace.tasks.reserve(count);
        m_dependencyTasks.reserve(count);
        m_dependencyJobs.reserve(count);
        if (m_denseTasks.empty()) {
            m_denseTasks.emplace_back().reserve(std::min<std::size_t>(count, kDenseJobs));
        }
    }
    // Capacity for about this many markers: they are 32-byte records, copied at each growth.
    void reserveMarkers(std::size_t count) { m_trace.markers.reserve(count); }
    // About this many spans in the whole trace, from the input's size (see close()).
    void expectSpans(std::size_t count) { m_expectedSpans = count; }
    Task& taskAt(TaskIndex index) { return m_trace.tasks.edit()[index]; }
    // A task's codelet or footprint, the other one kept (readers learn them from separate events).
    NameId codeletOf(TaskIndex index) const { return m_trace.codeletIdOf(m_trace.tasks[index]); }
    void setCodelet(TaskIndex index, NameId codelet) {
        auto& t = m_trace.tasks.edit()[index];
        m_trace.setCodelet(t, codelet, m_trace.footprintOf(t));
    }
    void setFootprint(TaskIndex index, std::uint32_t footprint) {
        auto& t = m_trace.tasks.edit()[index];
        m_trace.setCodelet(t, m_trace.codeletIdOf(t), footprint);
    }
    NameId intern(std::string_view text) { return m_trace.names.intern(text); }

    // Paje semantics: set replaces the whole stack, push stacks on top, pop removes the top,
    // reset empties the stack. A state running a task records the task's start/end/lane.
    void setState(std::int32_t lane, TimeNs time, std::uint32_t state, TaskIndex task = kNoTask);
    void pushState(std::int32_t lane, TimeNs time, std::uint32_t state, TaskIndex task = kNoTask);
    // Returns false when the stack was empty (the pop is then ignored).
    bool popState(std::int32_t lane, TimeNs time);
    void resetState(std::int32_t lane, TimeNs time);
    // The lane is in `state` from `from` to `to`, whatever it was doing, on its base level: its
    // open states end at `from` and resume at `to`. A task running in one is the longer of its
    // parts (its record and the span that finds it; the other part shows the state without
    // it): a task's execution is one interval, and the interruption is not part of it.
    void interruptState(std::int32_t lane, TimeNs from, TimeNs to, std::uint32_t state);
    std::size_t openDepth(std::int32_t lane) const {
        const auto at = static_cast<std::size_t>(lane);
        return at < m_laneBuilds.size() ? m_laneBuilds[at].stack.size() : 0;
    }

    void addMarker(TimeNs time, std::int32_t lane, std::string_view text);
    void addDependency(std::uint64_t jobId, std::uint64_t dependsOn);
    void warn(std::string text);
    void setMetadata(const std::string& key, std::string value) { m_trace.metadata[key] = std::move(value); }

    Trace& trace() { return m_trace; }
    std::size_t laneCount() const { return m_trace.lanes.size(); }
    std::size_t taskCount() const { return m_trace.tasks.size(); }

    // Appends what another builder read (a rank's prof file decoded on a thread of its own), as
    // if its calls had been made on this builder after this one's: its lanes follow these, its
    // states, names and codelets become this builder's where they are the same (new ones
    // numbered in the order it met them), its tasks, dependencies, markers and transfers follow,
    // and its warnings too (the first fifty of all kept). Its job ids must not be this one's:
    // each file of a job has its own base. part is left empty.
    void absorb(TraceBuilder&& part);

    // Closes every open state at end, sorts spans/tasks/markers and sets begin/end. A trace
    // longer than spans hold ends after kMaxTraceTime, which readTrace reports as an error.
    Trace finish(TimeNs end);

private:
    struct Open {
        TimeNs start;
        std::uint32_t state;
        TaskIndex task;
        // A task resumed after an interruption (interruptState): the length of its longest part
        // so far and the span that holds it (in this depth's level; npos when none was kept).
        TimeNs longest = -1;
        std::size_t longestSpan = std::numeric_limits<std::size_t>::max();
    };
    // A lane's state changes so far: its open states, its clock and its spans (moved into the
    // lane by finish).
    struct LaneBuild {
        std::vector<Open> stack;
        TimeNs clock = std::numeric_limits<TimeNs>::min();
        std::vector<std::vector<Span>> levels;
    };
    // Grown by the state changes, not by addLane: their thread alone touches this table.
    LaneBuild& laneBuild(std::int32_t lane) {
        const auto at = static_cast<std::size_t>(lane);
        if (at >= m_laneBuilds.size()) {
            m_laneBuilds.resize(at + 1);
        }
        return m_laneBuilds[at];
    }
    void close(std::int32_t lane, LaneBuild& build, std::size_t depth, TimeNs end);
    // Ranks of the lanes, markers, transfers and messages made consistent, with their table.
    void settleRanks();
    static constexpr std::size_t kSpansMappedAhead = 16384;   // 256 KB of spans
    static void mapAheadForWriting(const std::vector<Span>& spans);
    // The reading index of the task with this job id; kNoTask when there is none.
    TaskIndex findTask(std::uint64_t jobId) const;
    // Trace::dependencies from the job ids read, once the tasks are in job order (order: the
    // reading index of each sorted task; empty when reading order was job order).
    void fillDependencies(const std::vector<TaskIndex>& order);

    // Time only moves forward on a lane: an earlier time (damaged input) is clamped to the
    // lane's clock, so spans of one level never overlap.
    TimeNs clock(LaneBuild& build, TimeNs time);

    Trace m_trace;
    std::vector<LaneBuild> m_laneBuilds;
    std::size_t m_clamped = 0;
    TimeNs m_latest = 0;          // end of the latest span, even one beyond kMaxTraceTime
    std::size_t m_outOfRange = 0;   // spans beyond what the model holds, left out
    std::size_t m_rerunTasks = 0;   // task spans closed for a task that had one already
    // Tasks by job id. A process numbers its jobs from 1 and the FxT reader gives each file a
    // base (file << 48): a table per base while the ids stay small, a hash map for the rest
    // (a hash lookup per task event was a visible share of reading).
    static constexpr std::uint64_t kDenseJobs = std::uint64_t{1} << 22;   // 16 MB of table per base at most
    static constexpr std::uint64_t kDenseBases = 16;
    std::vector<std::vector<TaskIndex>> m_denseTasks;
    std::unordered_map<std::uint64_t, TaskIndex> m_taskByJob;
    std::unordered_map<std::string, std::uint32_t> m_stateByName;
    std::size_t m_droppedMarkers = 0;
    // Each dependency read: the reading index of the task that waited and the job id it waited
    // for, side by side (Trace::dependencies once finished); empty while the trace has none. A
    // vector per task cost an allocation per task and copies as the table of them grew.
    std::vector<TaskIndex> m_dependencyTasks;
    std::vector<std::uint64_t> m_dependencyJobs;
    std::size_t m_expectedSpans = 0;
    std::size_t m_spanReservations = 8;   // lanes whose base level is reserved whole
};

} // namespace starscope::tracer::detail
