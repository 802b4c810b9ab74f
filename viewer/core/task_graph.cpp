#include "viewer/core/task_graph.hpp"

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
            if (it->task == task) {
                return SpanRef{static_cast<std::size_t>(lane - trace.lanes.data()), level,
                               static_cast<std::size_t>(it - spans.begin())};
            }
        }
    }
    return std::nullopt;
}

TaskGraph::TaskGraph(const tracer::Trace& trace) {
    const auto& tasks = trace.tasks;
    m_byJob.reserve(tasks.size());
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        m_byJob.emplace_back(tasks[i].jobId, static_cast<tracer::TaskIndex>(i));
    }
    std::sort(m_byJob.begin(), m_byJob.end());
    // Successor lists in one array (counts, prefix sums, fill), not a vector per task: a trace
    // of millions of tasks would otherwise cost millions of allocations.
    m_successorBegin.assign(tasks.size() + 1, 0);
    for (const auto& task : tasks) {
        for (const std::uint64_t job : task.dependencies) {
            if (const auto from = taskOfJob(job)) {
                ++m_successorBegin[*from + 1];
            }
        }
    }
    for (std::size_t i = 1; i < m_successorBegin.size(); ++i) {
        m_successorBegin[i] += m_successorBegin[i - 1];
    }
    m_successors.resize(m_successorBegin.back());
    std::vector<std::size_t> next(m_successorBegin.begin(), m_successorBegin.end() - 1);
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        for (const std::uint64_t job : tasks[i].dependencies) {
            if (const auto from = taskOfJob(job)) {
                m_successors[next[*from]++] = static_cast<tracer::TaskIndex>(i);
            }
        }
    }
}

std::optional<tracer::TaskIndex> TaskGraph::taskOfJob(std::uint64_t jobId) const {
    const auto it = std::lower_bound(m_byJob.begin(), m_byJob.end(), jobId,
                                     [](const auto& entry, std::uint64_t id) { return entry.first < id; });
    if (it == m_byJob.end() || it->first != jobId) {
        return std::nullopt;
    }
    return it->second;
}

std::vector<tracer::TaskIndex> TaskGraph::predecessors(const tracer::Trace& trace, tracer::TaskIndex task) const {
    std::vector<tracer::TaskIndex> out;
    if (task >= trace.tasks.size()) {
        return out;
    }
    for (const std::uint64_t job : trace.tasks[task].dependencies) {
        if (const auto from = taskOfJob(job)) {
            out.push_back(*from);
        }
    }
    return out;
}

std::span<const tracer::TaskIndex> TaskGraph::successors(tracer::TaskIndex task) const {
    if (static_cast<std::size_t>(task) + 1 >= m_successorBegin.size()) {
        return {};
    }
    return std::span<const tracer::TaskIndex>(m_successors).subspan(
        m_successorBegin[task], m_successorBegin[task + 1] - m_successorBegin[task]);
}

} // namespace starscope::viewer
