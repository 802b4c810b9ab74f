#include "viewer/core/document/task_graph.hpp"

#include <algorithm>

namespace starscope::viewer {

std::optional<SpanRef> findTaskSpan(const tracer::Trace& trace, tracer::TaskIndex task) {
    if (task >= trace.tasks.size()) {
        return std::nullopt;
    }
    const tracer::Task& t = trace.tasks[task];
    const tracer::Lane* lane = trace.laneAt(t.lane);
    if (lane == nullptr || t.start < 0) {
        return std::nullopt;
    }
    for (std::size_t level = 0; level < lane->levels.size(); ++level) {
        const auto& spans = lane->levels[level];
        // Spans of a level are sorted and disjoint: the task's is among those overlapping its
        // times (usually the first, starting when it starts).
        auto it = std::partition_point(spans.begin(), spans.end(), [&](const tracer::Span& s) { return s.end < t.start; });
        for (; it != spans.end() && it->start <= std::max(t.start, t.end); ++it) {
            if (trace.taskIndexOf(*lane, *it) == task) {
                return SpanRef{static_cast<std::size_t>(lane - trace.lanes.data()), level,
                               static_cast<std::size_t>(it - spans.begin())};
            }
        }
    }
    return std::nullopt;
}

TaskGraph::TaskGraph(const tracer::Trace& trace)
    : TaskGraph(trace, std::is_sorted(trace.tasks.begin(), trace.tasks.end(),
                                      [](const tracer::Task& a, const tracer::Task& b) { return a.jobId < b.jobId; })) {}

TaskGraph::TaskGraph(const tracer::Trace& trace, bool inJobIdOrder) {
    const auto& tasks = trace.tasks;
    if (inJobIdOrder) {
        return;
    }
    m_byJob.reserve(tasks.size());
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        m_byJob.emplace_back(tasks[i].jobId, static_cast<tracer::TaskIndex>(i));
    }
    std::sort(m_byJob.begin(), m_byJob.end());
}

std::optional<tracer::TaskIndex> TaskGraph::taskOfJob(const tracer::Trace& trace, std::uint64_t jobId) const {
    if (!m_byJob.empty()) {
        const auto it = std::lower_bound(m_byJob.begin(), m_byJob.end(), jobId,
                                         [](const auto& entry, std::uint64_t id) { return entry.first < id; });
        if (it == m_byJob.end() || it->first != jobId) {
            return std::nullopt;
        }
        return it->second;
    }
    const auto& tasks = trace.tasks;
    const auto it = std::lower_bound(tasks.begin(), tasks.end(), jobId,
                                     [](const tracer::Task& task, std::uint64_t id) { return task.jobId < id; });
    if (it == tasks.end() || it->jobId != jobId) {
        return std::nullopt;
    }
    return static_cast<tracer::TaskIndex>(it - tasks.begin());
}

std::vector<tracer::TaskIndex> TaskGraph::predecessors(const tracer::Trace& trace, tracer::TaskIndex task) const {
    std::vector<tracer::TaskIndex> out;
    if (task >= trace.tasks.size()) {
        return out;
    }
    for (const std::uint64_t job : trace.dependenciesOf(task)) {
        if (const auto from = taskOfJob(trace, job)) {
            out.push_back(*from);
        }
    }
    return out;
}

std::vector<tracer::TaskIndex> TaskGraph::successors(const tracer::Trace& trace, tracer::TaskIndex task) const {
    std::vector<tracer::TaskIndex> out;
    if (task >= trace.tasks.size()) {
        return out;
    }
    const std::uint64_t job = trace.tasks[task].jobId;
    // A dependency on this job id leads to the task taskOfJob finds for it, as predecessors
    // reads it: with a job id listed twice, only that one has successors.
    if (taskOfJob(trace, job) != task) {
        return out;
    }
    for (std::size_t i = 0; i < trace.tasks.size(); ++i) {
        for (const std::uint64_t dependency : trace.dependenciesOf(static_cast<tracer::TaskIndex>(i))) {
            if (dependency == job) {
                out.push_back(static_cast<tracer::TaskIndex>(i));
            }
        }
    }
    return out;
}

} // namespace starscope::viewer
