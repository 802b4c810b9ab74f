#include "tests/support/synthetic_trace.hpp"

#include "tests/support/synthetic_job.hpp"

#include <cassert>

namespace starscope::viewer {

tracer::TimeNs SyntheticOptions::period() const {
    const auto maxTask = static_cast<tracer::TimeNs>(static_cast<double>(taskNs) * (1.0 + jitter));
    return submitNs + tasksPerWorker * (overheadNs + maxTask) + barrierNs;
}

tracer::Trace makeSyntheticTrace(const SyntheticOptions& options) {
    return tracer::collectTrace(SyntheticJob(options, 0).stream());
}

tracer::Trace makeSyntheticRanksTrace(const SyntheticOptions& options, int ranks) {
    assert(ranks >= 1 && ranks <= 4);
    return tracer::collectTrace(SyntheticJob(options, ranks).stream());
}

} // namespace starscope::viewer
