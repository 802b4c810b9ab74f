#pragma once
// Each worker's share of the run, the figure StarVZ writes beside every worker's lane: how much
// of the makespan's window (executionWindow: the program's first task start to its last task
// end, the window of TraceSummary::idleness) it spent executing, and so its idleness. The
// summary's idleness is the workers' together; one worker left idle by the scheduler, or a GPU
// that starves, shows here.

#include "tracer/model/trace.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace starscope::tracer {

struct WorkerShare {
    std::int32_t lane = -1; // index into Trace::lanes
    TimeNs executing = 0;   // executing a codelet, within the window
    TimeNs capacity = 0;    // the window less what of it was not recorded on the lane
    // 1 - executing / capacity, as the summary's; none when nothing of the worker was recorded
    // in the window (its time is unknown: neither idle nor busy) or no task ran at all.
    std::optional<double> idleness;

    bool operator==(const WorkerShare&) const = default;
};

// One entry per worker lane (Lane::isWorker), in lane order.
std::vector<WorkerShare> workerShares(const Trace& trace);

} // namespace starscope::tracer
