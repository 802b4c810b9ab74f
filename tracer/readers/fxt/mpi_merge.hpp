#pragma once
// Several prof files of one StarPU-MPI run (one per rank) on one clock, the way
// starpu_fxt_tool -i file1 file2 ... puts them (src/debug/traces/starpu_fxt.c,
// starpu_fxt_mpi.c of each version):
//  - each file's rank is the one its StarPU-MPI synchronization barrier event names;
//  - a file's time t becomes t - offset: with sync points, offset = sync - M, where sync is the
//    file's first sync point and M the largest (sync - start of file) over the files, so every
//    rank's sync point falls at M and nothing before 0; without one, offset = its start.
//    StarPU 1.4 also records a sync point at shutdown: its offset then moves linearly from the
//    first to the last sync point (clock drift), the last one's M taken over (sync - start);
//  - point-to-point messages: each send (submission on the sender) is matched, in time order,
//    with the first unmatched receive (termination on the receiver) of the same destination
//    and data tag.
// The per-file decoder stays as it is; this layer plans the files, maps their clocks and
// matches what they sent and received.

#include "tracer/model/error.hpp"
#include "tracer/model/trace.hpp"
#include "tracer/readers/fxt/fxt_events.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace starscope::tracer::detail {

// A file's clock on the job's: recorded time -> trace time.
class RankClock {
public:
    RankClock() = default;
    // One fixed offset (one process, or no sync point).
    explicit RankClock(std::int64_t offset) : m_offsetStart(offset), m_offsetEnd(offset) {}
    // An offset interpolated between two sync points (StarPU 1.4).
    RankClock(std::int64_t localStart, std::int64_t offsetStart, std::int64_t localEnd, std::int64_t offsetEnd);

    TimeNs map(std::uint64_t recorded) const;
    std::int64_t offsetStart() const { return m_offsetStart; }
    std::int64_t offsetEnd() const { return m_offsetEnd; }

private:
    std::int64_t m_localStart = 0;
    std::int64_t m_localEnd = 0;
    std::int64_t m_offsetStart = 0;
    std::int64_t m_offsetEnd = 0;
    bool m_interpolate = false;
};

// A rank and the job's size as a StarPU-MPI event of a file names them.
struct NamedRank {
    std::int64_t rank = -1;
    std::int64_t worldSize = 0;
    bool operator==(const NamedRank&) const = default;
};

// What a prof file says about its process, from one pass over its events.
struct RankFile {
    std::filesystem::path file;
    std::size_t source = 0;          // its index in the files given to planRanks
    std::optional<NamedRank> fromStart;   // what its StarPU-MPI start event says
    std::optional<NamedRank> fromSync;    // what its first sync point says
    std::int32_t rank = -1;          // -1 when neither a sync point nor an MPI start names it
    std::int32_t worldSize = 0;
    std::uint32_t syncPoints = 0;    // sync points used: 1.3 uses its first, 1.4 its first two
    std::int64_t key = -1;           // the run's unique key, the same in every rank's file
    std::uint64_t start = 0;         // time of its first event
    std::uint64_t localSyncStart = 0;
    std::uint64_t localSyncEnd = 0;
    RankClock clock;
    RankInfo info;                   // what the trace keeps of it
};

struct RankPlan {
    std::vector<RankFile> files;         // in rank order
    bool oneRun = true;                  // false when their sync points carry different keys
    std::vector<std::string> warnings;   // files of different runs, files without a sync point
};

// The files of one run in rank order, with their clocks. A file naming no rank takes the
// first rank no other file has. Errors: a file that cannot be read, two files of one rank, a
// file whose rank or sync points are damaged (a rank outside the job, StarPU-MPI events that
// disagree on it, sync points out of order, before the file's first event or beyond the model's
// 39 hours after it): one damaged sync time moves every rank's clock.
TraceResult<RankPlan> planRanks(const std::vector<FxtEvents>& files);

// Error naming the file when a rank's sync points lie after its last event (lastRecorded, as
// recorded): known once its events are decoded.
std::optional<TraceError> syncBeyondData(const RankFile& rank, std::uint64_t lastRecorded);

// What the decoder of one rank's file saw of StarPU-MPI's point-to-point traffic.
struct MpiSend {
    std::int32_t to = -1;
    std::int64_t tag = 0;
    std::uint64_t size = 0;
    TimeNs time = 0;                 // submission ended (trace time)
    std::uint64_t job = 0;           // trace job id of the task it came from; 0 if none
};
struct MpiReceive {
    std::int32_t from = -1;
    std::int64_t tag = 0;
    TimeNs time = 0;                 // terminated (trace time)
    std::uint64_t job = 0;
};
struct RankTraffic {
    std::int32_t rank = -1;
    std::int32_t commLane = -1;      // its MPI communication thread lane; -1 if none
    std::vector<MpiSend> sends;      // in file order
    std::vector<MpiReceive> receives;
};

// Messages as starpu_fxt_tool matches them, sorted by start. Sends it could not match are
// counted in unmatched.
std::vector<Message> matchMessages(const std::vector<RankTraffic>& ranks, std::size_t& unmatched);

} // namespace starscope::tracer::detail
