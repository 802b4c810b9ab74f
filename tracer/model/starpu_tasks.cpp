#include "tracer/model/starpu_tasks.hpp"

#include "common/gallop.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <utility>

namespace starscope::tracer {

bool isStarpuInternalCodelet(std::string_view codelet) {
    // The tasks StarPU makes itself but names without the prefix (1.3.10's and 1.4.12's src/:
    // starpu_execute_on_each_worker's default name, which StarPU's start-up uses to initialise
    // each CUDA worker, the synchronisation task of starpu_data_unregister, copies, reductions,
    // conversions, pinned memory on a GPU, transactions, control tasks).
    static constexpr std::string_view kUnprefixed[] = {
        "execute_on_all_wrapper",
        "starpu_data_unregister",
        "data_cpy",
        "create_sync_task",
        "empty_task",
        "cuda_malloc_pinned",
        "cuda_free_pinned",
        "redux_task_between_replicates",
        "redux_task_empty",
        "redux_task_reduction",
        "convert_data",
        "data_partition_switch",
        "conversion_task",
        "ucontrol",
        "starpu_transaction_begin",
        "starpu_transaction_begin_no_sync",
        "starpu_transaction_end",
        "starpu_transaction_next_epoch",
        "parallel_worker_internal_runtime_init",
    };
    return codelet.starts_with("_starpu")
           || std::ranges::find(kUnprefixed, codelet) != std::end(kUnprefixed);
}

StarpuTasks::StarpuTasks(const Trace& trace) : m_byKey(trace.codeletKeys.size(), 0) {
    const auto keys = trace.codeletKeys.keys();
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const auto codelet = keys[k].codelet;
        const bool own = codelet != kNoName && codelet < trace.names.size()
                         && isStarpuInternalCodelet(trace.names.name(codelet));
        m_byKey[k] = own ? 1 : 0;
        m_any = m_any || own;
    }
}

ExecutionWindow executionWindow(const Trace& trace) {
    return executionWindow(trace, StarpuTasks(trace));
}

ExecutionWindow executionWindow(const Trace& trace, const StarpuTasks& starpu) {
    ExecutionWindow window;
    for (const auto& task : trace.tasks) {
        if (task.start < 0 || starpu.contains(task)) {
            continue;
        }
        ++window.tasks;
        window.first = window.first < 0 ? task.start : std::min<TimeNs>(window.first, task.start);
        window.last = std::max<TimeNs>(window.last, task.end);
    }
    return window;
}

TaskIndex LaneTaskCursor::taskOf(const Span& span) {
    if (span.runsTask == 0) {
        return kNoTask;
    }
    using Times = std::pair<TimeNs, TimeNs>;
    const Times wanted{span.start, span.end};
    const auto& tasks = m_lane.tasks;
    const auto timesOf = [&](std::size_t at) {
        const TaskIndex i = tasks[at];
        return i < m_trace.tasks.size() ? Times{m_trace.tasks[i].start, m_trace.tasks[i].end}
                                        : Times{std::numeric_limits<TimeNs>::max(), 0};
    };
    // From where the last span's task was: the next span's is usually the next task.
    const std::size_t past = gallopPast(tasks.size(), m_at, wanted, timesOf);
    if (past > m_at && timesOf(past - 1) == wanted) {
        m_at = past;
        return tasks[past - 1];
    }
    // A span visited out of time order: looked for as taskIndexOf does.
    return m_trace.findTask(m_lane, span.start, span.end);
}

} // namespace starscope::tracer
