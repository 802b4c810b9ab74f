#include "tracer/readers/fxt/mpi_merge.hpp"

#include "tracer/readers/fxt/fxt_direct.hpp"
#include "tracer/readers/fxt/fxt_source.hpp"
#include "tracer/readers/fxt/starpu_mpi_codes.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace starscope::tracer::detail {

namespace mpi = starpu_mpi;

RankClock::RankClock(std::int64_t localStart, std::int64_t offsetStart, std::int64_t localEnd, std::int64_t offsetEnd)
    : m_localStart(localStart), m_localEnd(localEnd), m_offsetStart(offsetStart), m_offsetEnd(offsetEnd),
      m_interpolate(localEnd > localStart) {}

TimeNs RankClock::map(std::uint64_t recorded) const {
    // A damaged event's time may be anything: the difference wraps instead of overflowing, and
    // the builder leaves out a span that lands outside the trace.
    const auto minus = [recorded](std::int64_t offset) {
        return static_cast<TimeNs>(recorded - static_cast<std::uint64_t>(offset));
    };
    const auto t = static_cast<std::int64_t>(recorded);
    if (!m_interpolate || t <= m_localStart) {
        return minus(m_offsetStart);
    }
    if (t >= m_localEnd) {
        return minus(m_offsetEnd);
    }
    // starpu_fxt_tool 1.4's compute_time_stamp, in doubles as it computes it.
    const double xA = static_cast<double>(m_localStart);
    const double xB = static_cast<double>(m_localEnd);
    const double yA = -static_cast<double>(m_offsetStart);
    const double yB = -static_cast<double>(m_offsetEnd);
    const double offset = ((yB - yA) / (xB - xA)) * (static_cast<double>(t) - xA) + yA;
    return static_cast<TimeNs>(std::llround(static_cast<double>(t) + offset));
}

namespace {

// One pass over a file's StarPU-MPI start and barrier events.
TraceResult<RankFile> scanFile(const FxtEvents& events, std::size_t source) {
    RankFile out;
    out.file = events.file();
    out.source = source;
    const auto onEvent = [&](const RawEvent& ev) {
        const auto p = [&ev](std::uint32_t i) { return i < ev.paramCount ? ev.params[i] : 0; };
        out.start = ev.origin;
        const NamedRank named{static_cast<std::int64_t>(p(0)), static_cast<std::int64_t>(p(1))};
        if (ev.code == mpi::Start && ev.paramCount >= 2) {
            if (!out.fromStart) {
                out.fromStart = named;
            }
        } else if (ev.code == mpi::Barrier && ev.paramCount >= 3) {
            // 1.3's starpu_fxt_tool uses the first sync point, 1.4's the first two (the second is
            // recorded at shutdown); 1.4's barrier carries the local barrier time.
            const bool v14 = ev.paramCount >= mpi::kBarrierParams14;
            std::uint64_t local = v14 ? p(3) : 0;
            if (local == 0) {
                local = ev.time;   // an MPI_Barrier: the event's own time is the sync time
            }
            if (!out.fromSync) {
                out.fromSync = named;
            }
            if (out.syncPoints == 0) {
                out.key = static_cast<std::int64_t>(static_cast<std::int32_t>(p(2)));
                out.localSyncStart = local;
            } else {
                out.localSyncEnd = local;
            }
            ++out.syncPoints;
            if (out.syncPoints == 2 || !v14) {
                return false;   // all the tool reads: end the pass here
            }
        }
        return true;
    };
    const auto read = events.walk(mpi::Start, mpi::Barrier, onEvent, {});
    if (read) {
        out.start = read->stream.firstTime;   // a pass that ended early set it from an event
    } else if (read.error().code != ErrorCode::Cancelled) {
        return fail(read.error());
    }
    return out;
}

TraceError damaged(const RankFile& r, const std::string& what) {
    return fileError(ErrorCode::Corrupt, r.file, "damaged StarPU-MPI rank or clock synchronisation: " + what);
}

std::string nsText(std::uint64_t t) {
    return std::to_string(t) + " ns";
}

// The rank a file's StarPU-MPI events name, taken once checked: the start event and the first
// sync point agree on it, and it is one of the job's.
std::optional<TraceError> takeRank(RankFile& r) {
    const auto said = [](const char* event, const NamedRank& n) {
        return std::string("its ") + event + " names rank " + std::to_string(n.rank) + " of " + std::to_string(n.worldSize);
    };
    if (r.fromStart && r.fromSync && *r.fromStart != *r.fromSync) {
        return damaged(r, said("StarPU-MPI start", *r.fromStart) + ", " + said("sync point", *r.fromSync));
    }
    const auto& named = r.fromSync ? r.fromSync : r.fromStart;
    if (!named) {
        return std::nullopt;
    }
    if (named->worldSize <= 0 || named->worldSize > std::int64_t{kMaxRank} + 1 || named->rank < 0
        || named->rank >= named->worldSize) {
        return damaged(r, said(r.fromSync ? "sync point" : "StarPU-MPI start", *named) + ": not a rank of a job of that size");
    }
    r.rank = static_cast<std::int32_t>(named->rank);
    r.worldSize = static_cast<std::int32_t>(named->worldSize);
    return std::nullopt;
}

// Every rank's clock is aligned on the latest sync point, so one damaged sync time moves every
// other rank's: a file's sync points must lie in order after its first event, within the 39
// hours the model holds (which also keeps every difference below from overflowing).
std::optional<TraceError> checkSyncPoints(const RankFile& r) {
    if (r.syncPoints == 0) {
        return std::nullopt;
    }
    const std::string whose = "rank " + std::to_string(r.rank) + "'s ";
    constexpr auto kSpan = static_cast<std::uint64_t>(kMaxTraceTime);
    if (r.start > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) - kSpan) {
        return damaged(r, "its first event is at " + nsText(r.start) + ", beyond any clock");
    }
    if (r.localSyncStart < r.start) {
        return damaged(r, whose + "sync point is at " + nsText(r.localSyncStart) + ", before its first event ("
                              + nsText(r.start) + ")");
    }
    if (r.localSyncStart - r.start > kSpan) {
        return damaged(r, whose + "sync point is at " + nsText(r.localSyncStart)
                              + ", more than 39 hours after its first event (" + nsText(r.start) + ")");
    }
    if (r.syncPoints == 2 && r.localSyncEnd < r.localSyncStart) {
        return damaged(r, whose + "last sync point is at " + nsText(r.localSyncEnd) + ", before its first one ("
                              + nsText(r.localSyncStart) + ")");
    }
    if (r.syncPoints == 2 && r.localSyncEnd - r.start > kSpan) {
        return damaged(r, whose + "last sync point is at " + nsText(r.localSyncEnd)
                              + ", more than 39 hours after its first event (" + nsText(r.start) + ")");
    }
    return std::nullopt;
}

} // namespace

std::optional<TraceError> syncBeyondData(const RankFile& rank, std::uint64_t lastRecorded) {
    const auto lastSync = rank.syncPoints == 2 ? rank.localSyncEnd : rank.localSyncStart;
    if (rank.syncPoints == 0 || lastSync <= lastRecorded) {
        return std::nullopt;
    }
    return damaged(rank, "rank " + std::to_string(rank.rank) + "'s sync point is at " + nsText(lastSync)
                             + ", after its last event (" + nsText(lastRecorded) + ")");
}

TraceResult<RankPlan> planRanks(const std::vector<FxtEvents>& files) {
    RankPlan plan;
    auto& ranks = plan.files;
    auto& warnings = plan.warnings;
    for (std::size_t i = 0; i < files.size(); ++i) {
        auto scanned = scanFile(files[i], i);
        if (!scanned) {
            return fail(scanned.error());
        }
        if (auto wrong = takeRank(*scanned)) {
            return fail(std::move(*wrong));
        }
        if (auto wrong = checkSyncPoints(*scanned)) {
            return fail(std::move(*wrong));
        }
        ranks.push_back(std::move(*scanned));
    }
    // Ranks as StarPU-MPI numbered them; two files of one rank are two runs mixed up.
    std::set<std::int32_t> taken;
    for (const auto& r : ranks) {
        if (r.rank < 0) {
            continue;
        }
        if (!taken.insert(r.rank).second) {
            const auto first = std::find_if(ranks.begin(), ranks.end(), [&r](const RankFile& o) { return o.rank == r.rank; });
            return fail(TraceError{ErrorCode::InvalidArgument,
                                   "two prof files of rank " + std::to_string(r.rank) + " (the other is "
                                       + first->file.string() + "): give the files of one run",
                                   r.file.string(), {}});
        }
    }
    std::int32_t next = 0;
    std::size_t unnamed = 0;
    for (auto& r : ranks) {
        if (r.rank < 0) {
            while (taken.contains(next)) {
                ++next;
            }
            r.rank = next;
            taken.insert(next);
            ++unnamed;
        }
    }
    if (unnamed > 0) {
        warnings.push_back(std::to_string(unnamed) + " of the " + std::to_string(ranks.size())
                           + " prof files name no StarPU-MPI rank (not a StarPU-MPI run?): numbered in the order given");
    }
    std::sort(ranks.begin(), ranks.end(), [](const RankFile& a, const RankFile& b) { return a.rank < b.rank; });

    // starpu_fxt_tool's offsets (see the header).
    std::uint64_t mStart = 0;
    std::uint64_t mEnd = 0;
    std::size_t withoutSync = 0;
    std::set<std::int64_t> keys;
    for (const auto& r : ranks) {
        if (r.syncPoints == 0) {
            ++withoutSync;
            continue;
        }
        keys.insert(r.key);
        mStart = std::max(mStart, r.localSyncStart >= r.start ? r.localSyncStart - r.start : 0);
        if (r.syncPoints == 2) {
            mEnd = std::max(mEnd, r.localSyncEnd >= r.start ? r.localSyncEnd - r.start : 0);
        }
    }
    for (auto& r : ranks) {
        if (r.syncPoints == 0) {
            r.clock = RankClock(static_cast<std::int64_t>(r.start));
        } else if (r.syncPoints == 1) {
            r.clock = RankClock(static_cast<std::int64_t>(r.localSyncStart) - static_cast<std::int64_t>(mStart));
        } else {
            r.clock = RankClock(static_cast<std::int64_t>(r.localSyncStart),
                                static_cast<std::int64_t>(r.localSyncStart) - static_cast<std::int64_t>(mStart),
                                static_cast<std::int64_t>(r.localSyncEnd),
                                static_cast<std::int64_t>(r.localSyncEnd) - static_cast<std::int64_t>(mEnd));
        }
        r.info.rank = r.rank;
        r.info.worldSize = r.worldSize;
        r.info.source = r.file.string();
        r.info.syncPoints = r.syncPoints;
        r.info.localSyncStart = static_cast<std::int64_t>(r.localSyncStart);
        r.info.localSyncEnd = static_cast<std::int64_t>(r.syncPoints == 2 ? r.localSyncEnd : r.localSyncStart);
        r.info.clockOffset = r.clock.offsetStart();
        r.info.clockOffsetEnd = r.clock.offsetEnd();
    }
    if (withoutSync > 0) {
        warnings.push_back(std::to_string(withoutSync) + " of the " + std::to_string(ranks.size())
                           + " prof files hold no StarPU-MPI synchronization point: their clocks start at their "
                             "first event, not aligned with the others");
    }
    plan.oneRun = keys.size() <= 1;
    if (!plan.oneRun) {
        warnings.push_back("the prof files come from different StarPU-MPI runs (their sync points carry "
                           + std::to_string(keys.size()) + " different keys): messages between ranks are not matched");
    }
    return plan;
}

std::vector<Message> matchMessages(const std::vector<RankTraffic>& ranks, std::size_t& unmatched) {
    unmatched = 0;
    // Receives per (destination, tag), in file order: a send takes the first unmatched one.
    std::map<std::pair<std::int32_t, std::int64_t>, std::deque<const MpiReceive*>> receives;
    std::map<std::int32_t, std::int32_t> commLane;
    for (const auto& r : ranks) {
        commLane[r.rank] = r.commLane;
        for (const auto& receive : r.receives) {
            receives[{r.rank, receive.tag}].push_back(&receive);
        }
    }
    // Sends in time order across ranks, each rank's in file order; starpu_fxt_tool compares
    // their dates as single-precision milliseconds, a lower rank first on a tie.
    std::vector<std::size_t> next(ranks.size(), 0);
    std::vector<Message> messages;
    for (;;) {
        std::size_t best = ranks.size();
        float bestDate = 0;
        for (std::size_t i = 0; i < ranks.size(); ++i) {
            if (next[i] < ranks[i].sends.size()) {
                const auto date = static_cast<float>(static_cast<double>(ranks[i].sends[next[i]].time) / 1e6);
                if (best == ranks.size() || date < bestDate) {
                    best = i;
                    bestDate = date;
                }
            }
        }
        if (best == ranks.size()) {
            break;
        }
        const auto& send = ranks[best].sends[next[best]++];
        auto it = receives.find({send.to, send.tag});
        if (it == receives.end() || it->second.empty()) {
            ++unmatched;
            continue;
        }
        const MpiReceive* receive = it->second.front();
        it->second.pop_front();
        Message m;
        m.fromRank = ranks[best].rank;
        m.toRank = send.to;
        m.fromLane = ranks[best].commLane;
        m.toLane = commLane.contains(send.to) ? commLane[send.to] : -1;
        m.start = send.time;
        // Clocks aligned by a barrier are not exact: a short message may seem to arrive a few
        // microseconds before it left. It takes no time then.
        m.end = std::max(receive->time, send.time);
        m.size = send.size;
        m.tag = send.tag;
        m.sendJob = send.job;
        m.recvJob = receive->job;
        messages.push_back(m);
    }
    std::stable_sort(messages.begin(), messages.end(),
                     [](const Message& a, const Message& b) { return a.start < b.start; });
    return messages;
}

} // namespace starscope::tracer::detail
