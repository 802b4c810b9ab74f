#pragma once
// The task graph as the viewer walks it: a task's predecessors (the jobs it waited for, by job
// id in Task::dependencies) and its successors (the tasks that waited for it), both as indices
// into Trace::tasks. It holds nothing per task while the trace is open: readers keep
// Trace::tasks sorted by job id, so a job is found by bisecting them, and a task's successors
// are collected when asked, once per selection (one pass over the dependency lists: about a
// millisecond for 190,000 tasks), instead of job and successor tables of about 30 bytes a task.

#include "tracer/model/trace.hpp"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace starscope::viewer {

// Where a span is: Trace::lanes[lane].levels[level][span].
struct SpanRef {
    std::size_t lane = 0;
    std::size_t level = 0;
    std::size_t span = 0;

    bool operator==(const SpanRef&) const = default;
};

// The span that ran task (on its lane, found by its start time); nullopt for a task that never
// ran or whose lane holds no span of it.
std::optional<SpanRef> findTaskSpan(const tracer::Trace& trace, tracer::TaskIndex task);

// Every call takes the trace the graph was built for.
class TaskGraph {
public:
    TaskGraph() = default;
    explicit TaskGraph(const tracer::Trace& trace);
    // The same, the caller having seen whether trace's tasks are in job id order (in a pass of
    // its own over them: a 1 G-span job's task table is 15 GB).
    TaskGraph(const tracer::Trace& trace, bool inJobIdOrder);

    // The task of a job id; nullopt when the trace holds no such job.
    std::optional<tracer::TaskIndex> taskOfJob(const tracer::Trace& trace, std::uint64_t jobId) const;
    // The tasks task waited for that the trace holds, in the order the trace lists them (a
    // dependency on a job the trace does not hold is left out).
    std::vector<tracer::TaskIndex> predecessors(const tracer::Trace& trace, tracer::TaskIndex task) const;
    // The tasks that waited for task, by index.
    std::vector<tracer::TaskIndex> successors(const tracer::Trace& trace, tracer::TaskIndex task) const;

private:
    // Only for a trace whose tasks are not in job id order (one built by hand): (job id, task)
    // sorted by job id. Empty for what readers produce, whose task table is searched directly.
    std::vector<std::pair<std::uint64_t, tracer::TaskIndex>> m_byJob;
};

} // namespace starscope::viewer
