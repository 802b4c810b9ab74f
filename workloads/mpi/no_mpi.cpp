// The rank group of a starscope built against a StarPU without StarPU-MPI: one process only.
#include "workloads/train_record/rank_group.hpp"

namespace starscope::workloads {

bool haveStarpuMpi() { return false; }

WorkloadResult<std::unique_ptr<RankGroup>> joinRankGroup() {
    return workloadError(ErrorCode::InvalidArgument,
                         "this starscope was built against a StarPU without StarPU-MPI, so it "
                         "records one rank only: rebuild StarPU with --enable-mpi "
                         "(scripts/build_starpu.sh does) and reconfigure",
                         "--ranks");
}

} // namespace starscope::workloads
