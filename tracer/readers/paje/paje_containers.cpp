#include "tracer/readers/paje/paje_containers.hpp"

#include "tracer/model/names.hpp"

#include <algorithm>
#include <charconv>

namespace starscope::tracer::detail::paje {

namespace {

// "0_" of a process's names in a multi-process trace (StarPU's prefix), empty otherwise.
std::size_t rankPrefixLength(std::string_view name) {
    std::size_t i = 0;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9') {
        ++i;
    }
    return i > 0 && i < name.size() && name[i] == '_' ? i + 1 : 0;
}

} // namespace

const std::string* Containers::declaredTypeName(std::uint32_t alias) const {
    const auto it = m_typeNames.find(alias);
    return it == m_typeNames.end() ? nullptr : &m_names[it->second];
}

const std::string& Containers::typeName(std::uint32_t alias) const {
    const std::string* declared = declaredTypeName(alias);
    return declared != nullptr ? *declared : m_names[alias];
}

std::optional<std::string> Containers::create(const CreateContainer& record) {
    const auto keyOf = [](std::string_view alias, std::string_view name) { return alias.empty() ? name : alias; };
    const auto alias = keyOf(record.alias, record.name);
    if (const auto other = find(alias); other >= 0) {
        const auto& c = m_containers[static_cast<std::size_t>(other)];
        if (keyOf(c.alias, c.name) == alias) {
            return "container \"" + std::string(alias) + "\" is created twice";
        }
    }
    if (record.container != "0" && find(record.container) < 0) {
        return "container \"" + std::string(alias) + "\" is in container \"" + std::string(record.container)
               + "\", which was never created";
    }
    Container c;
    c.name = std::string(record.name);
    c.alias = std::string(record.alias);
    c.type = m_names.intern(record.type);
    c.parent = find(record.container);
    const auto index = static_cast<std::int32_t>(m_containers.size());
    if (c.parent >= 0) {
        // starpu_fxt_tool nests workers in their thread, in their memory node ("Mn",
        // "MEMNODE<n>"). Inherited here once, not searched upwards per lane.
        auto& parent = m_containers[static_cast<std::size_t>(c.parent)];
        parent.children.push_back(index);
        c.memoryNode = parent.memoryNode;
        // The node's number ends its name ("MEMNODE1", "0_MEMNODE1" in rank 0).
        const auto digit = parent.name.find_last_not_of("0123456789") + 1;
        if (m_names[parent.type] == "Mn" && digit < parent.name.size()) {
            std::from_chars(parent.name.data() + digit, parent.name.data() + parent.name.size(),
                            c.memoryNode);
        }
    }
    // Its process: the rank its name or alias starts with, else its parent's (our Paje export
    // names a program "program 0_" with the alias "0_p"; its markers are the rank's).
    for (const std::string* ref : {&c.name, &c.alias}) {
        if (const auto prefix = rankPrefixLength(*ref); prefix > 0 && c.rank < 0) {
            std::from_chars(ref->data(), ref->data() + prefix - 1, c.rank);
        }
    }
    if (c.rank < 0 && c.parent >= 0) {
        c.rank = m_containers[static_cast<std::size_t>(c.parent)].rank;
    }
    m_containers.push_back(std::move(c));
    const auto type = m_containers.back().type;
    const auto& typeAlias = m_names[type];
    const auto& name = typeName(type);
    m_containers.back().memoryManager = typeAlias == "Mm" || name == "Memory Manager";
    const bool worker = typeAlias == "W" || name == "Worker";
    // starpu_fxt_tool puts each worker in its thread's container, and shows the thread's own
    // states there only when it drives several workers (a CUDA device's worker set).
    if (const auto parent = m_containers.back().parent; worker && parent >= 0) {
        m_containers[static_cast<std::size_t>(parent)].workerThread = true;
    }
    if (typeAlias == "UT" || name == "User Thread" || worker) {
        newLane(index, type);
    }
    const auto byName = [&](std::string_view ref, bool replace) {
        const auto id = m_names.intern(ref);
        if (m_byName.size() <= id) {
            m_byName.resize(id + 1, -1);
        }
        if (replace || m_byName[id] < 0) {
            m_byName[id] = index;
        }
    };
    byName(alias, true);
    byName(record.name, false);
    return std::nullopt;
}

std::int32_t Containers::laneFor(std::int32_t index, std::uint32_t type) {
    const std::uint64_t key = (std::uint64_t(static_cast<std::uint32_t>(index)) << 32) | type;
    if (const auto it = m_laneByKey.find(key); it != m_laneByKey.end()) {
        return it->second;
    }
    auto& c = m_containers[static_cast<std::size_t>(index)];
    if (!c.laneClaimed && !c.lanes.empty()) {
        c.laneClaimed = true;
        m_laneByKey.emplace(key, c.lanes.front());
        return c.lanes.front();
    }
    const auto lane = newLane(index, type);
    c.laneClaimed = true;
    m_laneByKey.emplace(key, lane);
    return lane;
}

std::int32_t Containers::newLane(std::int32_t index, std::uint32_t type) {
    auto& c = m_containers[static_cast<std::size_t>(index)];
    const std::string& typeAlias = m_names[c.type];
    const std::string& containerTypeName = typeName(c.type);
    LaneKind kind = LaneKind::OtherWorker;
    std::string name = c.name;
    std::int32_t workerId = -1;
    // StarPU prefixes every name of a process with its rank ("0_") in multi-process traces.
    const auto prefix = rankPrefixLength(name);
    const std::string_view bare = std::string_view(name).substr(prefix);
    if (typeAlias == "MPICt" || containerTypeName == "MPI Communication Thread") {
        // StarPU-MPI's communication thread "<rank>_mpict": named as the FxT reader names it.
        kind = LaneKind::MpiThread;
        name = name.substr(0, prefix) + "MPI thread";
    } else if (typeAlias == "UT" || containerTypeName == "User Thread") {
        kind = LaneKind::MainThread;
        // starpu_fxt_tool names user threads "UserThread<tid>": the first one of each program
        // is its main thread, the others are numbered as the FxT reader numbers them
        // (userThreadName). Other names are kept.
        auto* program = c.parent >= 0 ? &m_containers[static_cast<std::size_t>(c.parent)] : nullptr;
        auto& seen = program == nullptr ? m_userThreads : program->userThreads;
        ++seen;
        if (bare.starts_with("UserThread") && bare.size() > 10
            && std::all_of(bare.begin() + 10, bare.end(),
                           [](char ch) { return ch >= '0' && ch <= '9'; })) {
            name = name.substr(0, prefix) + userThreadName(seen);
        }
    } else if (c.memoryManager) {
        // StarPU's "MEMMANAGER<n>" in its "MEMNODE<n>": named as the FxT reader names it.
        kind = LaneKind::MemoryNode;
        name = name.substr(0, prefix) + "Memory node " + std::to_string(c.memoryNode);
    } else if (typeAlias == "W" || containerTypeName == "Worker") {
        // starpu_fxt_tool names workers "CPU0", "CUDA0_1" and aliases them "w<id>": read as our
        // lanes "CPU 0", "CUDA 0_1", a device's first CUDA worker "CUDA 0" (as the FxT reader
        // names it). Names of another shape are kept.
        kind = bare.starts_with("CUDA")  ? LaneKind::CudaWorker
               : bare.starts_with("CPU") ? LaneKind::CpuWorker
                                         : LaneKind::OtherWorker;
        const auto digit = bare.find_first_of("0123456789");
        if (digit != std::string::npos && digit > 0
            && std::all_of(bare.begin(), bare.begin() + static_cast<std::ptrdiff_t>(digit),
                           [](char ch) { return (ch >= 'A' && ch <= 'Z') || ch == '_'; })) {
            name.insert(prefix + digit, 1, ' ');
        }
        if (kind == LaneKind::CudaWorker && name.ends_with("_0")) {
            name.resize(name.size() - 2);
        }
        for (const std::string* ref : {&c.name, &c.alias}) {
            const auto id = std::string_view(*ref).substr(rankPrefixLength(*ref));
            if (id.size() > 1 && id[0] == 'w') {
                std::from_chars(id.data() + 1, id.data() + id.size(), workerId);
            }
        }
    }
    if (!c.lanes.empty()) {
        name += " " + typeName(type);
    }
    const auto lane = m_builder.addLane(std::move(name), kind, c.memoryNode, workerId);
    m_builder.trace().lanes[static_cast<std::size_t>(lane)].rank = c.rank;
    c.lanes.push_back(lane);
    return lane;
}

} // namespace starscope::tracer::detail::paje
