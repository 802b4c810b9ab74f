#pragma once
// Which data each transfer of an FxT trace copied and which data each task accessed: StarPU
// records the copied handle at a driver copy's start and every handle of a task as its codelet
// starts (CodeletDataHandle), never the task a copy was for. Once the tasks' times are known,
// a transfer is for the first task to run on its destination node, from the copy's start on,
// that accesses the copied data (Transfer::job).

#include "tracer/model/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace starscope::tracer::detail {

class DataUse {
public:
    // transfer: its index in Trace::transfers, as the decoders add them (before any sort).
    void copied(std::size_t transfer, std::uint64_t handle) { m_copies.push_back({transfer, handle}); }
    // job: as the trace numbers it (with its file's job base).
    void accessed(std::uint64_t job, std::uint64_t handle) { m_accesses.push_back({job, handle}); }
    // Sets each copied transfer's job; tasks sorted by job id, lanes with their ranks.
    void assignTransferTasks(Trace& trace) const;

private:
    struct Copy {
        std::size_t transfer = 0;
        std::uint64_t handle = 0;
    };
    struct Access {
        std::uint64_t job = 0;
        std::uint64_t handle = 0;
    };
    std::vector<Copy> m_copies;
    std::vector<Access> m_accesses;
};

} // namespace starscope::tracer::detail
