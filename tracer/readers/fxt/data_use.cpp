#include "tracer/readers/fxt/data_use.hpp"

#include <algorithm>
#include <unordered_map>

namespace starscope::tracer::detail {

void DataUse::assignTransferTasks(Trace& trace) const {
    if (m_copies.empty() || m_accesses.empty()) {
        return;
    }
    // The executed tasks accessing each handle. A handle is a process's address: two ranks may
    // reuse one, so a task counts only for transfers of its own rank.
    std::unordered_map<std::uint64_t, std::vector<TaskIndex>> byHandle;
    for (const auto& access : m_accesses) {
        const auto it = std::lower_bound(trace.tasks.begin(), trace.tasks.end(), access.job,
                                         [](const Task& t, std::uint64_t job) { return t.jobId < job; });
        if (it != trace.tasks.end() && it->jobId == access.job && it->start >= 0 && trace.laneAt(it->lane) != nullptr) {
            byHandle[access.handle].push_back(static_cast<TaskIndex>(it - trace.tasks.begin()));
        }
    }
    for (const auto& copy : m_copies) {
        auto& transfer = trace.transfers[copy.transfer];
        const auto users = byHandle.find(copy.handle);
        if (users == byHandle.end()) {
            continue;
        }
        const Task* first = nullptr;
        for (const auto index : users->second) {
            const Task& task = trace.tasks[index];
            const Lane& lane = *trace.laneAt(task.lane);
            if (lane.memoryNode == transfer.toNode && lane.rank == transfer.rank && task.start >= transfer.start
                && (first == nullptr || task.start < first->start)) {
                first = &task;
            }
        }
        if (first != nullptr) {
            transfer.job = first->jobId;
        }
    }
}

} // namespace starscope::tracer::detail
