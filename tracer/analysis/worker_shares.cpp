#include "tracer/analysis/worker_shares.hpp"

#include "tracer/analysis/idleness.hpp"
#include "tracer/analysis/stats.hpp"
#include "tracer/model/starpu_tasks.hpp"

#include <algorithm>

namespace starscope::tracer {

std::vector<WorkerShare> workerShares(const Trace& trace) {
    // The summary's window (the program's tasks, StarPU's own left out), so that the shares add
    // up to its idleness.
    const auto window = executionWindow(trace);
    const TimeNs first = window.first;
    const TimeNs last = window.last;
    const bool ran = first >= 0 && last > first;
    const RangeStats times = ran ? computeRangeStats(trace, first, last) : RangeStats{};
    std::vector<WorkerShare> shares;
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        if (!trace.lanes[l].isWorker()) {
            continue;
        }
        WorkerShare share;
        share.lane = static_cast<std::int32_t>(l);
        if (ran) {
            const ClassTimes& lane = times.lanes[l].classes;
            share.executing = lane.executing;
            share.capacity = (last - first) - lane.notProfiled;
            share.idleness = idleness(share.executing, last - first, 1, lane.notProfiled);
        }
        shares.push_back(share);
    }
    return shares;
}

} // namespace starscope::tracer
