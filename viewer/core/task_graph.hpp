#pragma once
// The task graph as the viewer walks it: a task's predecessors (the jobs it waited for, by job
// id in Task::dependencies) and its successors (the tasks that waited for it), both as indices
// into Trace::tasks. Built once per trace, off the UI thread, with the document.

#include "tracer/model/trace.hpp"

#include <cstdint>
#include <optional>
#include <span>
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

class TaskGraph {
public:
    TaskGraph() = default;
    explicit TaskGraph(const tracer::Trace& trace);

    // The task of a job id; nullopt when the trace holds no such job.
    std::optional<tracer::TaskIndex> taskOfJob(std::uint64_t jobId) const;
    // The tasks task waited for that the trace holds, in the order the trace lists them (a
    // dependency on a job the trace does not hold is left out).
    std::vector<tracer::TaskIndex> predecessors(const tracer::Trace& trace, tracer::TaskIndex task) const;
    // The tasks that waited for task, by index.
    std::span<const tracer::TaskIndex> successors(tracer::TaskIndex task) const;

private:
    std::vector<std::pair<std::uint64_t, tracer::TaskIndex>> m_byJob;   // sorted by job id
    std::vector<std::size_t> m_successorBegin;                           // [task], size tasks + 1
    std::vector<tracer::TaskIndex> m_successors;
};

} // namespace starscope::viewer
