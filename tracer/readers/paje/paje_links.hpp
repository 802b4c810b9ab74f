#pragma once
// The links of a Paje trace that the model keeps, their two ends paired by type and key:
// starpu_fxt_tool's MPIL links (and our export's) are StarPU-MPI's messages between ranks, from
// the sender's communication thread at the send's submission to the receiver's at the
// receive's termination; its F, TF, PF and IF links between memory managers are driver copies
// between memory nodes. Ends are kept as read until the trace's tick is chosen.

#include "tracer/readers/paje/paje_containers.hpp"
#include "tracer/readers/paje/paje_names.hpp"
#include "tracer/readers/paje/paje_records.hpp"
#include "tracer/readers/trace_builder.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace starscope::tracer::detail::paje {

class Links {
public:
    Links(NameIds& names, Containers& containers) : m_names(names), m_containers(containers) {}

    // Links of other types are ignored.
    void add(const StartLink& record) {
        add(true, record.type, record.key, record.startContainer, record.value, record.tag,
            record.stamp);
    }
    void add(const EndLink& record) {
        add(false, record.type, record.key, record.endContainer, record.value, record.tag,
            record.stamp);
    }

    // Once the tick is chosen (times in ticks of 10^-decimals ms) and the communication threads
    // have their lanes: the trace's messages and transfers, sorted by start. A link without
    // both ends is dropped, with a warning.
    void build(int decimals, TraceBuilder& builder) const;

private:
    // A message or a transfer while its two ends are read.
    struct Pending {
        std::optional<TransferKind> transfer; // nullopt: a message
        PajeStamp start;
        PajeStamp end;
        std::int32_t from = -1; // containers
        std::int32_t to = -1;
        std::uint64_t size = 0;
        std::int64_t tag = 0;
        bool started = false;
        bool ended = false;
    };

    void add(bool start, std::string_view type, std::string_view key, std::string_view container,
             std::string_view value, std::string_view tag, const PajeStamp& stamp);

    NameIds& m_names;
    Containers& m_containers;
    std::vector<Pending> m_pending;
    TextMap<std::size_t> m_byKey; // type, NUL, key -> m_pending
};

} // namespace starscope::tracer::detail::paje
