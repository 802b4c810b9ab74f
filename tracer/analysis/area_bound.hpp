#pragma once
// The area bound of a machine whose workers are of several kinds (CPUs and CUDA GPUs), as
// StarPU's starpu_bound and StarVZ compute it: each kind of task (its codelet and footprint)
// takes its mean duration on each kind of worker it ran on; the bound is the shortest time in
// which the kinds' workers could share out the trace's tasks, fractions of a task allowed and
// dependencies ignored. A linear program, solved with GLPK as StarPU solves it. Total task time
// over workers (TraceSummary::areaBound) treats a CPU core and a GPU as interchangeable: on a
// machine with GPUs it is far below what the machine can do.

#include "tracer/analysis/figure.hpp"
#include "tracer/model/trace.hpp"

#include <cstdint>
#include <vector>

namespace starscope::tracer {

// How many tasks of one kind of task one kind of worker runs in the bound's schedule.
struct AreaBoundShare {
    CodeletKeyId key = kNoCodeletKey;   // in Trace::codeletKeys
    LaneKind kind = LaneKind::CpuWorker;
    double tasks = 0.0;
    TimeNs meanDuration = 0;            // of its tasks on that kind of worker in the trace

    bool operator==(const AreaBoundShare&) const = default;
};

struct HeterogeneousBound {
    TimeNs bound = 0;
    std::vector<AreaBoundShare> shares;   // by kind of task, then kind of worker

    bool operator==(const HeterogeneousBound&) const = default;
};

// n/a without an executed task, or when GLPK finds no optimum (with its reason).
Figure<HeterogeneousBound> heterogeneousAreaBound(const Trace& trace);

} // namespace starscope::tracer
