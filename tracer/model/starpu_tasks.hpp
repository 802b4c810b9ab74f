#pragma once
// StarPU's own tasks: the ones StarPU submits itself (its start-up task on every worker, the
// synchronisation task of an unregister, copies, reductions, ...), which a program never names.
// They are not the program's work: the execution window (the makespan), executing time, the
// area bounds and the barriers leave them out, while the codelet table keeps them in rows of
// their own and the viewer in a colour of its own. What counts as one is decided here only.

#include "tracer/model/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace starscope::tracer {

// StarPU's own codelets: StarPU prefixes most of them "_starpu" (_starpu_data_acquire_post,
// _starpu_mpi_redux...), and names a few otherwise (starpu_execute_on_each_worker's
// "execute_on_all_wrapper", starpu_data_unregister's synchronisation task, data_cpy, ...).
bool isStarpuInternalCodelet(std::string_view codelet);

// Which tasks of one trace are StarPU's own, decided once per codelet key of the trace: a
// figure asks it for every task, where comparing names would cost a string search each.
class StarpuTasks {
public:
    explicit StarpuTasks(const Trace& trace);
    // Whether the trace holds any codelet of StarPU's own: when not, a pass can skip asking.
    bool any() const { return m_any; }
    bool contains(const Task& task) const {
        return task.codeletKey < m_byKey.size() && m_byKey[task.codeletKey] != 0;
    }

private:
    std::vector<std::uint8_t> m_byKey;
    bool m_any = false;
};

// The program's execution window: from the first start to the last end of the tasks that ran,
// StarPU's own left out. The makespan is its length; the figures on it (idleness, shares) use
// it as their time.
struct ExecutionWindow {
    TimeNs first = -1;
    TimeNs last = -1;
    std::size_t tasks = 0; // the program's tasks that ran

    bool empty() const { return tasks == 0; }
    TimeNs length() const { return tasks > 0 ? last - first : 0; }
    bool operator==(const ExecutionWindow&) const = default;
};
ExecutionWindow executionWindow(const Trace& trace);
ExecutionWindow executionWindow(const Trace& trace, const StarpuTasks& starpu);

// The tasks of one lane's spans for a pass over them in time order: Trace::taskIndexOf without
// a search of all the lane's tasks per span (they are sorted by start then end, as the spans
// of a level): from one span to the next it gallops ahead, over the tasks of other levels too.
class LaneTaskCursor {
public:
    LaneTaskCursor(const Trace& trace, const Lane& lane) : m_trace(trace), m_lane(lane) {}
    // The span's task; kNoTask when it runs none.
    TaskIndex taskOf(const Span& span);

private:
    const Trace& m_trace;
    const Lane& m_lane;
    std::size_t m_at = 0;
};

} // namespace starscope::tracer
