#include "tracer/readers/paje/paje_links.hpp"

#include <algorithm>
#include <charconv>
#include <string>

namespace starscope::tracer::detail::paje {

void Links::add(bool start, std::string_view type, std::string_view key, std::string_view container,
                std::string_view value, std::string_view tag, const PajeStamp& stamp) {
    const std::string* name = m_containers.declaredTypeName(m_names.intern(type));
    const bool message = type == "MPIL" || (name != nullptr && *name == "MPI communication");
    const auto transfer = transferKindOfLinkType(type);
    if (!message && !transfer) {
        return;
    }
    std::string fullKey(type);
    fullKey.append(1, '\0').append(key);
    auto [it, added] = m_byKey.try_emplace(std::move(fullKey), m_pending.size());
    if (added) {
        m_pending.emplace_back();
        m_pending.back().transfer = transfer;
    }
    auto& m = m_pending[it->second];
    (start ? m.from : m.to) = m_containers.find(container);
    (start ? m.start : m.end) = stamp;
    (start ? m.started : m.ended) = true;
    std::from_chars(value.data(), value.data() + value.size(), m.size);
    if (!tag.empty()) {
        std::from_chars(tag.data(), tag.data() + tag.size(), m.tag);
    }
}

void Links::build(int decimals, TraceBuilder& builder) const {
    std::size_t unpaired = 0;
    auto& messages = builder.trace().messages;
    auto& transfers = builder.trace().transfers;
    for (const auto& pending : m_pending) {
        if (!pending.started || !pending.ended || pending.from < 0 || pending.to < 0) {
            ++unpaired;
            continue;
        }
        const auto& from = m_containers.at(pending.from);
        const auto& to = m_containers.at(pending.to);
        const auto start = toPajeTicks(pending.start, decimals);
        const auto end = toPajeTicks(pending.end, decimals);
        if (pending.transfer) {
            Transfer x;
            x.rank = from.rank;
            x.fromNode = from.memoryNode;
            x.toNode = to.memoryNode;
            x.kind = *pending.transfer;
            x.start = start;
            x.end = std::max(start, end);
            x.size = pending.size;
            transfers.push_back(x);
            continue;
        }
        Message m;
        m.fromRank = from.rank;
        m.toRank = to.rank;
        m.fromLane = from.lanes.empty() ? -1 : from.lanes.front();
        m.toLane = to.lanes.empty() ? -1 : to.lanes.front();
        m.start = start;
        // Clocks aligned by a barrier are not exact (mpi_merge.cpp): a short message may seem
        // to arrive before it left. It takes no time then.
        m.end = std::max(start, end);
        m.size = pending.size;
        m.tag = pending.tag;
        messages.push_back(m);
    }
    std::stable_sort(messages.begin(), messages.end(),
                     [](const Message& a, const Message& b) { return a.start < b.start; });
    std::stable_sort(transfers.begin(), transfers.end(),
                     [](const Transfer& a, const Transfer& b) { return a.start < b.start; });
    if (unpaired > 0) {
        builder.warn(std::to_string(unpaired)
                     + " MPI communication or data transfer links without both ends (or on "
                       "undeclared containers) were dropped");
    }
}

} // namespace starscope::tracer::detail::paje
