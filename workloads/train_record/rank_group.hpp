#pragma once
// The ranks of a data-parallel recording, as the recorder sees them (StarPU-MPI stays in
// workloads/mpi/): rank 0 prepares the run folder and writes run.json, every rank starts
// StarPU through StarPU-MPI, writes its own prof file into the run folder (StarPU-MPI names it
// prof_file_USER_RANK) and its weight checksums, and reports its figures to rank 0.

#include "tracer/run_folder/run_status.hpp"
#include "workloads/error.hpp"
#include "workloads/record/mpi_presence.hpp"
#include "workloads/train/step_exchange.hpp"
#include "workloads/train_record/record_plan.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace starscope::workloads {

// One rank's figures, gathered on rank 0 for run.json.
struct RankFigures {
    int rank = 0;
    std::string host;
    tracer::run::RunStatus status = tracer::run::RunStatus::Failed; // how this rank's part ended
    std::string error;  // why, when failed
    int interruptSignal = 0; // the stop signal this rank got, when it got one
    double wallSeconds = 0.0;
    std::size_t batches = 0;
    std::optional<std::uint64_t> tasksExecuted;
    std::optional<double> trainLoss; // the last epoch's, on this rank's shard
    std::string weightsFile;         // its per-step weight checksums, in the run folder
};

class RankGroup {
public:
    virtual ~RankGroup() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // Collective: true when `ok` holds on every rank.
    virtual bool allAgree(bool ok) = 0;
    // Collective: every rank learns whether rank 0 could prepare the run folder.
    virtual bool shareFolderReady(bool ready) = 0;
    // starpu_mpi_init_conf: 0, or a negative errno as starpu_init returns.
    virtual int startRuntime() = 0;
    // The trainer's hook: parameters averaged after each batch, the stop agreed.
    virtual StepExchange& exchange() = 0;
    // Shuts StarPU-MPI down (this rank's trace is written), writes the weight checksums into
    // dir and returns when every rank's trace is written.
    virtual WorkloadResult<std::string> stopRuntime(const std::filesystem::path& dir) = 0;
    // Collective: every rank's figures on rank 0 (in rank order), nothing elsewhere.
    virtual std::vector<RankFigures> gather(const RankFigures& mine) = 0;
};

// Whether this starscope was built with StarPU-MPI (workloads/mpi/ answers).
bool haveStarpuMpi();

// Initialises MPI and returns this process's rank group; an error without StarPU-MPI.
WorkloadResult<std::unique_ptr<RankGroup>> joinRankGroup();

// Turns a plan into rank `rank`'s part of a data-parallel run of `size` ranks: the global batch
// (--batch-size) is split evenly between the ranks, so one step of the job is one step of a
// single process on the same batch; each rank trains on its shard of the training images;
// rank 0 alone evaluates (the weights are the same on every rank). The FxT buffer is sized
// again for what this rank writes (sizeTrace).
WorkloadResult<Done> planRank(RecordPlan& plan, int rank, int size);

// Weight checksums' file name of a rank: "weights_rank_R.txt".
std::string weightsFileName(int rank);

} // namespace starscope::workloads
