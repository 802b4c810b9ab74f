#include "tracer/analysis/critical_path.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>

namespace starscope::tracer {

namespace {

// A message between ranks as an edge of the task graph: the receive's job waits for the
// send's, for the time the data were in flight.
struct MessageEdge {
    TaskIndex to = kNoTask;
    TaskIndex from = kNoTask;
    TimeNs flight = 0;

    bool operator<(const MessageEdge& other) const {
        return std::pair(to, from) < std::pair(other.to, other.from);
    }
};

// The task graph as the model holds it: each task's dependency entries, read straight from the
// model's table (entries on jobs the trace does not hold are skipped); an index of the
// dependencies built first copied the table (47 M entries on a 100 M-span job). The messages'
// edges, a few thousand on a job of millions of tasks, are kept apart, sorted by receiving task,
// with a bit per task saying which receive one (a search per task was as long as the walk).
class ChainGraph {
public:
    explicit ChainGraph(const Trace& trace) : m_trace(trace) {
        const auto taskOfJob = [&](std::uint64_t job) {
            const auto it =
                std::lower_bound(trace.tasks.begin(), trace.tasks.end(), job,
                                 [](const Task& t, std::uint64_t j) { return t.jobId < j; });
            return job != 0 && it != trace.tasks.end() && it->jobId == job
                       ? static_cast<TaskIndex>(it - trace.tasks.begin())
                       : kNoTask;
        };
        for (const auto& m : trace.messages) {
            const TaskIndex from = taskOfJob(m.sendJob);
            const TaskIndex to = taskOfJob(m.recvJob);
            if (from != kNoTask && to != kNoTask && from != to) {
                m_messages.push_back({to, from, std::max<TimeNs>(0, m.duration())});
            }
        }
        std::sort(m_messages.begin(), m_messages.end());
        if (!m_messages.empty()) {
            m_receives.assign(trace.tasks.size(), false);
            for (const auto& e : m_messages) {
                m_receives[e.to] = true;
            }
        }
    }

    TimeNs own(std::size_t i) const {
        const auto& t = m_trace.tasks[i];
        return t.start >= 0 && t.end >= t.start ? t.end - t.start : 0;
    }
    // Calls f(task, edge time) for each task that task i waits for: its dependencies in the
    // trace, then the senders of the messages it receives.
    template <typename F> void forEachBefore(std::size_t i, F&& f) const {
        for (const TaskIndex dep : m_trace.dependencyEntries(static_cast<TaskIndex>(i))) {
            if ((dep & kOutsideJob) == 0 && dep < m_trace.tasks.size()) {
                f(dep, TimeNs{0});
            }
        }
        for (const auto& e : messagesInto(i)) {
            f(e.from, e.flight);
        }
    }
    // How many entries the search below walks for task i, and the k-th one's task (kNoTask for
    // an entry on a job the trace does not hold).
    std::size_t beforeCount(std::size_t i) const {
        return m_trace.dependencyEntries(static_cast<TaskIndex>(i)).size() + messagesInto(i).size();
    }
    TaskIndex before(std::size_t i, std::size_t k) const {
        const auto entries = m_trace.dependencyEntries(static_cast<TaskIndex>(i));
        if (k < entries.size()) {
            const TaskIndex dep = entries[k];
            return (dep & kOutsideJob) == 0 && dep < m_trace.tasks.size() ? dep : kNoTask;
        }
        return messagesInto(i)[k - entries.size()].from;
    }

    // The longest chain before task i, the task it comes through (the first of the longest;
    // kNoTask when none is longer than 0), from the chains known (-1: not yet), and whether a
    // chain before it was not known.
    struct Before {
        TimeNs time = 0;
        TaskIndex via = kNoTask;
        bool unsettled = false;
    };
    Before longestBefore(const std::vector<TimeNs>& best, std::size_t i) const {
        Before before;
        forEachBefore(i, [&](TaskIndex dep, TimeNs edge) {
            before.unsettled = before.unsettled || best[dep] < 0;
            if (best[dep] >= 0 && best[dep] + edge > before.time) {
                before.time = best[dep] + edge;
                before.via = dep;
            }
        });
        return before;
    }

private:
    std::span<const MessageEdge> messagesInto(std::size_t i) const {
        if (m_receives.empty() || !m_receives[i]) {
            return {};
        }
        const auto range = std::equal_range(
            m_messages.begin(), m_messages.end(), MessageEdge{static_cast<TaskIndex>(i), 0, 0},
            [](const MessageEdge& a, const MessageEdge& b) { return a.to < b.to; });
        return {range.first, range.second};
    }

    const Trace& m_trace;
    std::vector<MessageEdge> m_messages;
    std::vector<bool> m_receives;
};

// The longest chain ending at each task, whether a dependency was found unsettled when its
// task was (a cycle, from a damaged trace), and when asked for the dependency each chain
// came through (kNoTask: none).
struct LongestChains {
    std::vector<TimeNs> best;
    std::vector<TaskIndex> via;
    bool cyclic = false;
};

LongestChains longestChains(const Trace& trace, const ChainGraph& graph, bool withVia) {
    const std::size_t n = trace.tasks.size();
    // Longest path ending at each task, by iterative DFS (the graph can be deep: no recursion).
    LongestChains chains{std::vector<TimeNs>(n, -1), {}, false};
    if (withVia) {
        chains.via.assign(n, kNoTask);
    }
    auto& best = chains.best;
    // Settles a task whose dependencies are settled, or on the search's stack (a cycle: -1).
    const auto settle = [&](std::size_t node, const ChainGraph::Before& before) {
        chains.cyclic = chains.cyclic || before.unsettled;
        if (withVia) {
            chains.via[node] = before.via;
        }
        best[node] = before.time + graph.own(node);
    };
    std::vector<std::uint8_t> onStack; // made for the first search that needs it
    std::vector<std::pair<std::size_t, std::size_t>> stack;
    for (std::size_t root = 0; root < n; ++root) {
        if (best[root] >= 0) {
            continue;
        }
        // Tasks come by job id, so a task's dependencies are mostly settled already: then the
        // search below would push nothing but the task itself, and settle it at once (one
        // depending on itself included: the search would find it on its stack).
        if (const auto before = graph.longestBefore(best, root); !before.unsettled) {
            settle(root, before);
            continue;
        }
        bool onlyItself = true;
        graph.forEachBefore(root, [&](TaskIndex dep, TimeNs) {
            onlyItself = onlyItself && (best[dep] >= 0 || dep == root);
        });
        if (onlyItself) {
            settle(root, graph.longestBefore(best, root));
            continue;
        }
        onStack.resize(n, 0);
        stack.emplace_back(root, 0);
        onStack[root] = 1;
        while (!stack.empty()) {
            auto& [node, next] = stack.back();
            if (next < graph.beforeCount(node)) {
                const TaskIndex dep = graph.before(node, next++);
                if (dep != kNoTask && best[dep] < 0 && !onStack[dep]) {
                    onStack[dep] = 1;
                    stack.emplace_back(dep, 0);
                }
                continue;
            }
            settle(node, graph.longestBefore(best, node));
            onStack[node] = 0;
            stack.pop_back();
        }
    }
    // Every task and dependency read: a mapped file's pages of them may go (not the spans,
    // which the passes beside this one, on the other core, are reading).
    trace.tasks.releaseResident();
    trace.dependencyStarts.releaseResident();
    trace.dependencies.releaseResident();
    return chains;
}

} // namespace

TimeNs criticalPathLength(const Trace& trace) {
    const ChainGraph graph(trace);
    const auto chains = longestChains(trace, graph, false);
    return chains.best.empty()
               ? 0
               : std::max<TimeNs>(0, *std::max_element(chains.best.begin(), chains.best.end()));
}

std::vector<TaskIndex> criticalPath(const Trace& trace) {
    // Without a cycle every chain was settled after its dependencies' and is final: the link
    // each came through is found again from the chains, walking back from the end, instead of
    // being kept for every task (4 bytes a task). With one, the walk is redone keeping them.
    const ChainGraph graph(trace);
    auto chains = longestChains(trace, graph, false);
    if (chains.cyclic) {
        chains = longestChains(trace, graph, true);
    }
    const auto end = std::max_element(chains.best.begin(), chains.best.end());
    if (end == chains.best.end() || *end <= 0) {
        return {};
    }
    std::vector<TaskIndex> path;
    for (auto task = static_cast<TaskIndex>(end - chains.best.begin()); task != kNoTask;
         task = chains.cyclic ? chains.via[task] : graph.longestBefore(chains.best, task).via) {
        path.push_back(task);
    }
    std::reverse(path.begin(), path.end());
    return path;
}

} // namespace starscope::tracer
