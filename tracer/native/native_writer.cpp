// Writing the native format's payload: the small tables record by record through their field
// lists (native_records.hpp), the big ones as the model's columns, from a trace in memory or
// streamed (native_stream.hpp); native_format.cpp frames it.

#include "tracer/native/native_payload.hpp"

#include <cassert>
#include <map>
#include <span>
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
        m_pieces.push_back(Piece{&m_encoded.emplace_back(), 0, {}, {}});
    }
    return m_encoded.back();
}

template <typename T> void Payload::column(std::string name, const StreamedColumn<T>& records) {
    static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= kColumnAlignment);
    out().count(records.count);
    const std::size_t pad = (kColumnAlignment - (kHeaderSize + size()) % kColumnAlignment) % kColumnAlignment;
    constexpr char kZeros[kColumnAlignment] = {};
    encoded().raw(kZeros, pad);
    if (records.count > 0 && !records.produce && !m_problem) {
        m_problem = name + ": " + std::to_string(records.count) + " records announced, made by no one";
    }
    if (records.count > 0 && records.produce) {
        m_pieces.push_back(Piece{nullptr, records.count * sizeof(T), [&records](const EmitBytes& emit) {
            records.produce([&emit](std::span<const T> some) {
                static_cast<void>(emit({reinterpret_cast<const char*>(some.data()), some.size_bytes()}));
            });
        }, std::move(name)});
    }
}

template <typename T, typename Encode>
void Payload::table(std::string name, const StreamedColumn<T>& records, Encode encode) {
    out().count(records.count);
    // Encoded in steps of about this many bytes, each handed on while it is in the cache.
    constexpr std::size_t kStep = std::size_t{256} << 10;
    // Up to this many bytes the records are encoded once, into the payload; past them (a streamed
    // job's millions) only counted, and encoded again in steps as the file is written.
    constexpr std::size_t kKeptAtMost = std::size_t{64} << 20;
    Writer& kept = encoded();
    const std::size_t before = kept.bytes().size();
    bool keeping = true;
    Writer counted;
    std::uint64_t size = 0;
    std::uint64_t count = 0;
    if (records.produce) {   // an empty table may be made by no one
        records.produce([&](std::span<const T> some) {
            for (const T& record : some) {
                FieldWriter out(keeping ? kept : counted);
                encode(out, record);
            }
            count += some.size();
            if (keeping && kept.bytes().size() - before > kKeptAtMost) {
                keeping = false;
                size = kept.bytes().size() - before;
                kept.truncate(before);
            } else if (!keeping) {
                size += counted.bytes().size();
                counted.clear();
            }
        });
    }
    if (count != records.count && !m_problem) {
        m_problem = name + ": " + std::to_string(count) + " records handed where " + std::to_string(records.count)
                    + " were announced";
    }
    if (!keeping && size > 0) {
        m_pieces.push_back(Piece{nullptr, size, [&records, encode](const EmitBytes& emit) {
            Writer step;
            records.produce([&](std::span<const T> some) {
                for (const T& record : some) {
                    FieldWriter out(step);
                    encode(out, record);
                    if (step.bytes().size() >= kStep) {
                        static_cast<void>(emit(step.bytes()));
                        step.clear();
                    }
                }
            });
            static_cast<void>(emit(step.bytes()));
        }, std::move(name)});
    }
}

std::uint64_t Payload::size() const {
    std::uint64_t total = 0;
    for (const auto& piece : m_pieces) {
        total += piece.encoded != nullptr ? piece.encoded->bytes().size() : piece.size;
    }
    return total;
}

std::optional<std::string> Payload::write(const EmitBytes& emit) const {
    if (m_problem) {
        return m_problem;
    }
    bool goOn = true;
    for (const auto& piece : m_pieces) {
        if (!goOn) {
            return std::nullopt;   // the pieces after a failed write are not made
        }
        if (piece.encoded != nullptr) {
            goOn = emit(piece.encoded->bytes());
            continue;
        }
        std::uint64_t handed = 0;
        piece.produce([&](std::string_view bytes) {
            handed += bytes.size();
            goOn = goOn && emit(bytes);
            return goOn;
        });
        if (handed != piece.size) {
            return piece.name + ": " + std::to_string(handed) + " bytes handed where " + std::to_string(piece.size)
                   + " were announced";
        }
    }
    return std::nullopt;
}

Payload writePayload(const TraceStream& stream) {
    assert(stream.tables != nullptr && stream.spans.size() == stream.tables->lanes.size());
    const Trace& trace = *stream.tables;
    Payload p;
    p.out()(trace.begin, trace.end);
    p.out().count(trace.names.size());
    for (std::size_t i = 0; i < trace.names.size(); ++i) {
        p.out()(trace.names.name(static_cast<NameId>(i)));
    }
    table(p.out(), trace.states);
    table(p.out(), trace.codeletKeys.keys());
    p.out().count(trace.lanes.size());
    for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
        auto out = p.out();
        fields(out, trace.lanes[l]);
        const auto& levels = stream.spans[l];
        p.out().count(levels.size());
        for (std::size_t level = 0; level < levels.size(); ++level) {
            p.column("lane " + std::to_string(l) + " level " + std::to_string(level) + " spans", levels[level]);
        }
    }
    p.column("tasks", stream.tasks);
    // The jobs outside the trace before the entries that name them, so that each entry is
    // checked as it is read.
    p.column("dependency starts", stream.dependencyStarts);
    p.column("outside jobs", stream.outsideJobs);
    p.column("dependencies", stream.dependencies);
    p.table("markers", stream.markers, [&trace](FieldWriter& out, const MarkerEvent& marker) {
        const FileMarker record = fileMarker(trace, marker);
        fields(out, record);
    });
    table(p.out(), trace.ranks);
    p.table("messages", stream.messages, [](FieldWriter& out, const Message& message) { fields(out, message); });
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
