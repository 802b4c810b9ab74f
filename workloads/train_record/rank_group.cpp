#include "workloads/train_record/rank_group.hpp"

#include "tracer/run_folder/run_folder_names.hpp"

#include <algorithm>
#include <cstdlib>

namespace starscope::workloads {

WorkloadResult<Done> planRank(RecordPlan& plan, int rank, int size) {
    const auto ranks = static_cast<std::size_t>(size);
    if (plan.options.batchSize % ranks != 0) {
        return workloadError(ErrorCode::InvalidArgument,
                             "the batch of " + std::to_string(plan.options.batchSize)
                                 + " images is split between " + std::to_string(size)
                                 + " ranks and must be a multiple of their number",
                             "--batch-size");
    }
    plan.train.batchSize = plan.options.batchSize / ranks;
    plan.train.chunk = std::min(plan.train.chunk, plan.train.batchSize);
    plan.train.shardIndex = static_cast<std::size_t>(rank);
    plan.train.shardCount = ranks;
    plan.train.evaluate = plan.train.evaluate && rank == 0;
    plan.batchesPerEpoch = Trainer(*plan.dataset, plan.train).batchesPerEpoch();
    if (plan.batchesPerEpoch == 0) {
        return workloadError(ErrorCode::InvalidArgument,
                             "each of the " + std::to_string(size) + " ranks gets "
                                 + std::to_string(plan.train.batchSize)
                                 + " images per batch but too few training images for one batch",
                             "--train-images");
    }
    // Ranks on one machine share its hardware threads: the default worker count is this rank's
    // share (--workers and STARPU_NCPU still choose any count).
    if (plan.workersAsked.source == SettingSource::Default) {
        plan.workersAsked.value = defaultCpuWorkersHere(plan.idleWorkersSpin, ranksOnThisMachine());
        plan.workers = plan.workersAsked.value;
    }
    // The FxT buffer of this rank: its share of the tasks and its messages, not the job's.
    return sizeTrace(plan);
}

std::string weightsFileName(int rank) {
    return std::string(tracer::run::kWeightsFilePrefix) + std::to_string(rank)
           + std::string(tracer::run::kWeightsFileSuffix);
}

} // namespace starscope::workloads
