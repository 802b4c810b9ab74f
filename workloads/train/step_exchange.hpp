#pragma once
// What data-parallel training adds to the training loop, without the loop knowing about MPI:
// after each batch's tasks are submitted the parameters are made equal on every rank, and the
// ranks agree at each batch boundary on whether to stop (a signal may reach only one of them,
// and all must submit the same batches or the exchanges never match).

#include "workloads/error.hpp"

#include <cstddef>
#include <span>
#include <starpu.h>

namespace starscope::workloads {

class StepExchange {
public:
    virtual ~StepExchange() = default;
    // Submits the exchange of step `step` (batches counted over the run) on the parameters'
    // handles; nothing waits here, StarPU orders it after the batch's update. Returns the
    // tasks submitted.
    virtual WorkloadResult<std::size_t> afterBatch(std::span<const starpu_data_handle_t> params,
                                                   std::size_t step) = 0;
    // True when this rank or any other asked to stop (collective: every rank calls it at every
    // batch boundary).
    virtual bool agreeStop(bool localStop) = 0;
};

} // namespace starscope::workloads
