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
    // Appends what another file's decoder saw, whose transfers follow the first transferOffset of
    // the trace (TraceBuilder::absorb).
    void append(const DataUse& other, std::size_t transferOffset) {
        for (const auto& copy : other.m_copies) {
            m_copies.push_back({copy.transfer + transferOffset, copy.handle});
        }
        m_accesses.insert(m_accesses.end(), other.m_accesses.begin(), other.m_accesses.end());
    }
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
