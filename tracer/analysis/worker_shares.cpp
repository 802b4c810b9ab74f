#include "tracer/analysis/worker_shares.hpp"

#include "tracer/analysis/stats.hpp"

#include <algorithm>

namespace starscope::tracer {

std::vector<WorkerShare> workerShares(const Trace& trace) {
    TimeNs first = -1;
    TimeNs last = -1;
    for (const auto& task : trace.tasks) {
        if (task.start >= 0) {
            first = first < 0 ? task.start : std::min<TimeNs>(first, task.start);
            last = std::max<TimeNs>(last, task.end);
        }
    }
    const bool ran = first >= 0 && last > first;
    const RangeStats window = ran ? computeRangeStats(trace, first, last) : RangeStats{};
    std::vector<WorkerShare> shares;
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        if (!trace.lanes[l].isWorker()) {
            continue;
        }
        WorkerShare share;
        share.lane = static_cast<std::int32_t>(l);
        if (ran) {
            const ClassTimes& times = window.lanes[l].classes;
            share.executing = times.executing;
            share.capacity = (last - first) - times.notProfiled;
            if (share.capacity > 0) {
                share.idleness =
                    1.0
                    - static_cast<double>(share.executing) / static_cast<double>(share.capacity);
            }
        }
        shares.push_back(share);
    }
    return shares;
}

} // namespace starscope::tracer
