#pragma once
// Data-parallel SGD through StarPU-MPI: after each batch every rank has applied the update of
// its own shard to identical parameters; the ranks send their parameters to rank 0, which
// averages them in a task and sends the average back. From identical parameters and one
// learning rate, the average of the updated parameters is the update by the average gradient,
// i.e. the step of one process training on the whole global batch. The messages are
// StarPU-MPI's detached sends and receives on the parameters' handles, ordered by StarPU's data
// dependencies (nothing waits on the main thread), so they show in each rank's FxT trace.
// After each exchange a task records a checksum of the parameters: the ranks' checksums of a
// step are equal when their weights are (bit for bit).

#include "workloads/train/step_exchange.hpp"

#include <cstdint>
#include <deque>
#include <mpi.h>
#include <vector>

namespace starscope::workloads::mpi {

class ParamExchange final : public StepExchange {
public:
    ParamExchange(MPI_Comm comm, int rank, int size);
    ~ParamExchange() override;
    ParamExchange(const ParamExchange&) = delete;
    ParamExchange& operator=(const ParamExchange&) = delete;

    WorkloadResult<std::size_t> afterBatch(std::span<const starpu_data_handle_t> params,
                                           std::size_t step) override;
    bool agreeStop(bool localStop) override;

    // One per exchanged step; read after every task ran (after starpu_task_wait_for_all).
    const std::deque<std::uint64_t>& checksums() const { return m_checksums; }
    // Unregisters rank 0's receive buffers; StarPU must still run. Waits for their tasks.
    void release();

private:
    MPI_Comm m_comm;
    int m_rank;
    int m_size;
    // On rank 0, per parameter handle, one receive buffer per other rank.
    std::vector<std::vector<std::vector<float>>> m_buffers;
    std::vector<std::vector<starpu_data_handle_t>> m_received;
    std::deque<std::uint64_t> m_checksums; // stable addresses: the tasks write into them
};

} // namespace starscope::workloads::mpi
