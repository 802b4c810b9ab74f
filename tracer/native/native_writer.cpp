// Writing the native format's payload: the small tables record by record through their field
// lists (native_records.hpp), the big ones as the model's columns; native_format.cpp frames it.

#include "tracer/native/native_payload.hpp"

#include <map>
#include <type_traits>

namespace starscope::tracer::detail::native {

namespace {

FileMarker fileMarker(const Trace& trace, const MarkerEvent& m) {
    // The file's widths, wider than the model's (MarkerEvent).
    return FileMarker{m.time,
                      m.lane,
                      m.rank,
                      static_cast<std::uint8_t>(m.parsed ? 1 : 0),
                      static_cast<std::uint8_t>(m.kind),
                      m.epoch,
                      m.batch,
                      m.slot,
                      m.handles,
                      std::string(trace.arenaOf(m)),
                      trace.textOf(m)};
}

// A table: its count, then each record's fields.
template <typename Records> void table(FieldWriter out, const Records& records) {
    out.count(records.size());
    for (const auto& record : records) {
        fields(out, record);
    }
}

} // namespace

Writer& Payload::encoded() {
    if (m_pieces.empty() || m_pieces.back().encoded == nullptr) {
        m_pieces.push_back(Piece{&m_encoded.emplace_back(), {}});
    }
    return m_encoded.back();
}

template <typename T> void Payload::column(const Column<T>& records) {
    static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= kColumnAlignment);
    out().count(records.size());
    const std::size_t pad = (kColumnAlignment - (kHeaderSize + size()) % kColumnAlignment) % kColumnAlignment;
    constexpr char kZeros[kColumnAlignment] = {};
    encoded().raw(kZeros, pad);
    if (!records.empty()) {
        m_pieces.push_back(Piece{nullptr, {reinterpret_cast<const char*>(records.data()), records.size() * sizeof(T)}});
    }
}

std::vector<std::string_view> Payload::pieces() const {
    std::vector<std::string_view> views;
    views.reserve(m_pieces.size());
    for (const auto& piece : m_pieces) {
        views.push_back(piece.encoded != nullptr ? piece.encoded->bytes() : piece.column);
    }
    return views;
}

std::uint64_t Payload::size() const {
    std::uint64_t total = 0;
    for (const auto& piece : pieces()) {
        total += piece.size();
    }
    return total;
}

Payload writePayload(const Trace& trace) {
    Payload p;
    p.out()(trace.begin, trace.end);
    p.out().count(trace.names.size());
    for (std::size_t i = 0; i < trace.names.size(); ++i) {
        p.out()(trace.names.name(static_cast<NameId>(i)));
    }
    table(p.out(), trace.states);
    table(p.out(), trace.codeletKeys.keys());
    p.out().count(trace.lanes.size());
    for (const auto& lane : trace.lanes) {
        auto out = p.out();
        fields(out, lane);
        p.out().count(lane.levels.size());
        for (const auto& level : lane.levels) {
            p.column(level);
        }
    }
    p.column(trace.tasks);
    // The jobs outside the trace before the entries that name them, so that each entry is
    // checked as it is read.
    p.column(trace.dependencyStarts);
    p.column(trace.outsideJobs);
    p.column(trace.dependencies);
    p.out().count(trace.markers.size());
    for (const auto& marker : trace.markers) {
        const FileMarker record = fileMarker(trace, marker);
        auto out = p.out();
        fields(out, record);
    }
    table(p.out(), trace.ranks);
    table(p.out(), trace.messages);
    table(p.out(), trace.transfers);
    // Sorted, so the same trace always gives the same bytes.
    const std::map<std::string, std::string> metadata(trace.metadata.begin(), trace.metadata.end());
    p.out().count(metadata.size());
    for (const auto& [key, value] : metadata) {
        p.out()(key, value);
    }
    p.out().count(trace.warnings.size());
    for (const auto& warning : trace.warnings) {
        p.out()(warning);
    }
    return p;
}

} // namespace starscope::tracer::detail::native
