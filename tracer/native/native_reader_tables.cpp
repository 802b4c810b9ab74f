// Reading the native format's payload, continued: the markers, the ranks and messages of a
// StarPU-MPI run (version 2 on), the transfers (version 3 on), the metadata and the warnings.

#include "tracer/native/native_payload.hpp"

#include <optional>

namespace starscope::tracer::detail::native {

namespace {

// What is wrong with the interval of a message or transfer record, if anything: it must lie
// inside the trace, and the table is sorted by start (previousStart: the record before it's,
// the trace's begin for the first).
std::optional<std::string> intervalProblem(TimeNs start, TimeNs end, TimeNs previousStart,
                                           const Trace& trace, const char* table) {
    if (start < trace.begin || end < start || end > trace.end) {
        return "runs from " + std::to_string(start) + " to " + std::to_string(end)
               + ", not inside the trace (" + std::to_string(trace.begin) + " to "
               + std::to_string(trace.end) + ")";
    }
    if (start < previousStart) {
        return std::string(table) + " are not sorted by start";
    }
    return std::nullopt;
}

} // namespace

TraceResult<Done> PayloadReader::markers() {
    auto& trace = m_trace;
    std::uint64_t n = 0;
    if (!m_c.count(n, 30)) {
        return fail(corrupt("marker table"));
    }
    trace.markers.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto at = m_c.offset();
        FileMarker record;
        if (!get(record)) {
            return fail(corrupt("marker table"));
        }
        const std::string where = "marker " + std::to_string(i);
        if (record.kind > static_cast<std::uint8_t>(markers::Kind::PrefetchEnd)) {
            return fail(
                inconsistent(at, where, "unknown marker kind " + std::to_string(record.kind)));
        }
        if (!validLane(record.lane, trace.lanes.size())) {
            return fail(outOfLanes(at, where, record.lane));
        }
        // Transitions and exporters walk the markers in time order.
        if (i > 0 && record.time < trace.markers[i - 1].time) {
            return fail(inconsistent(
                at, where,
                "at " + std::to_string(record.time) + ", before the previous marker ("
                    + std::to_string(trace.markers[i - 1].time) + "): markers are unsorted"));
        }
        if (record.rank < -1 || record.rank > kMaxRank) {
            return fail(inconsistent(at, where,
                                     "rank " + std::to_string(record.rank) + " is out of range"));
        }
        if (record.time < -kMaxTraceTime || record.time > kMaxTraceTime) { // 48-bit times
            return fail(inconsistent(at, where,
                                     "a time beyond what the model holds ("
                                         + std::to_string(kMaxTraceTime) + " ns)"));
        }
        // The fields as the file gives them, and the text kept where they would not give it
        // back. Fields wider than the model holds (a file of an older starscope) leave the text
        // only.
        markers::Marker marker{static_cast<markers::Kind>(record.kind),
                               record.epoch,
                               record.batch,
                               record.slot,
                               record.handles,
                               std::move(record.arena)};
        MarkerEvent m;
        if (Trace::fits(marker)) {
            m = trace.makeMarker(record.time, marker);
            m.parsed = record.parsed != 0;
        } else {
            m.time = record.time;
        }
        if (!m.parsed || markers::format(marker) != record.text) {
            m.rawText = trace.names.intern(record.text);
        }
        m.lane = Trace::shortIndex(record.lane); // validLane: within the lane table
        m.rank = Trace::shortIndex(record.rank);
        trace.markers.push_back(m);
    }
    return Done{};
}

// The rank table (version 2 on): ranks sorted and unique, every lane's and marker's rank one of
// them.
TraceResult<Done> PayloadReader::ranks() {
    if (m_version < kFirstWithRanks) {
        return Done{};
    }
    auto& trace = m_trace;
    auto read = table(trace.ranks, 48, "rank table",
                      [&](std::size_t i, std::uint64_t at) -> std::optional<TraceError> {
                          const auto& r = trace.ranks[i];
                          if (r.rank > kMaxRank) {
                              return unsupported(
                                  at, "rank " + std::to_string(r.rank) + ", beyond the rank "
                                          + std::to_string(kMaxRank) + " starscope's model holds");
                          }
                          if (r.rank < 0 || (i > 0 && r.rank <= trace.ranks[i - 1].rank)) {
                              return inconsistent(at, "rank entry " + std::to_string(i),
                                                  "rank " + std::to_string(r.rank)
                                                      + " is negative, repeated or unsorted");
                          }
                          return std::nullopt;
                      });
    if (!read) {
        return read;
    }
    const auto known = [&trace](std::int32_t rank) {
        return rank == -1 ? trace.ranks.empty() : trace.rankInfo(rank) != nullptr;
    };
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        if (!known(trace.lanes[l].rank)) {
            return fail(inconsistent(m_c.offset(), laneRecord(l, trace.lanes[l]),
                                     "rank " + std::to_string(trace.lanes[l].rank)
                                         + " is not in the rank table"));
        }
    }
    for (std::size_t i = 0; i < trace.markers.size(); ++i) {
        if (!known(trace.markers[i].rank)) {
            return fail(inconsistent(m_c.offset(), "marker " + std::to_string(i),
                                     "rank " + std::to_string(trace.markers[i].rank)
                                         + " is not in the rank table"));
        }
    }
    return Done{};
}

// The message table (version 2 on): messages between known ranks, inside the trace, sorted.
TraceResult<Done> PayloadReader::messages() {
    if (m_version < kFirstWithRanks) {
        return Done{};
    }
    auto& trace = m_trace;
    return table(
        trace.messages, 64, "message table",
        [&](std::size_t i, std::uint64_t at) -> std::optional<TraceError> {
            const auto& m = trace.messages[i];
            const std::string where = "message " + std::to_string(i);
            if (trace.rankInfo(m.fromRank) == nullptr || trace.rankInfo(m.toRank) == nullptr) {
                return inconsistent(at, where,
                                    "from rank " + std::to_string(m.fromRank) + " to rank "
                                        + std::to_string(m.toRank)
                                        + ": not both in the rank table");
            }
            for (const auto lane : {m.fromLane, m.toLane}) {
                if (!validLane(lane, trace.lanes.size())) {
                    return outOfLanes(at, where, lane);
                }
            }
            const TimeNs previous = i > 0 ? trace.messages[i - 1].start : trace.begin;
            if (const auto problem = intervalProblem(m.start, m.end, previous, trace, "messages")) {
                return inconsistent(at, where, *problem);
            }
            return std::nullopt;
        });
}

// The transfer table (version 3 on): each of a known rank (-1 without ranks), of a known kind,
// inside the trace, sorted by start.
TraceResult<Done> PayloadReader::transfers() {
    if (m_version < kFirstWithTransfers) {
        return Done{};
    }
    auto& trace = m_trace;
    return table(
        trace.transfers, 37, "transfer table",
        [&](std::size_t i, std::uint64_t at) -> std::optional<TraceError> {
            const auto& x = trace.transfers[i];
            const std::string where = "transfer " + std::to_string(i);
            if (x.rank == -1 ? !trace.ranks.empty() : trace.rankInfo(x.rank) == nullptr) {
                return inconsistent(at, where,
                                    "rank " + std::to_string(x.rank) + " is not in the rank table");
            }
            const auto kind = static_cast<std::uint8_t>(x.kind);
            if (kind > static_cast<std::uint8_t>(TransferKind::IdleFetch)) {
                return inconsistent(at, where, "kind " + std::to_string(kind) + " is unknown");
            }
            const TimeNs previous = i > 0 ? trace.transfers[i - 1].start : trace.begin;
            if (const auto problem =
                    intervalProblem(x.start, x.end, previous, trace, "transfers")) {
                return inconsistent(at, where, *problem);
            }
            return std::nullopt;
        });
}

TraceResult<Done> PayloadReader::metadataAndWarnings() {
    std::uint64_t n = 0;
    if (!m_c.count(n, 8)) {
        return fail(corrupt("metadata"));
    }
    for (std::uint64_t i = 0; i < n; ++i) {
        std::string key;
        std::string value;
        FieldReader in(m_c, m_version);
        in(key, value);
        if (!in.ok()) {
            return fail(corrupt("metadata"));
        }
        m_trace.metadata[key] = value;
    }
    if (!m_c.count(n, 4)) {
        return fail(corrupt("warnings"));
    }
    m_trace.warnings.resize(n);
    for (auto& warning : m_trace.warnings) {
        if (!m_c.str(warning)) {
            return fail(corrupt("warnings"));
        }
    }
    return Done{};
}

} // namespace starscope::tracer::detail::native
