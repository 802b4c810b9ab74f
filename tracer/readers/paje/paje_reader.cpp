// Paje traces -> trace model. Any Paje trace: event definitions with arbitrary ids and extra
// fields, events in any time order, quoted strings, containers, Set/Push/Pop/ResetState,
// NewEvent, variables and links, the field names of the Paje specification and ViTE
// ("ContainerType", "EntityType", "SourceContainer"...) as well as pajeng's. Paje has no time
// unit; like StarPU and ViTE we read milliseconds, exactly (paje_time.hpp): a file whose dates
// need more than six decimals is read at a finer tick than nanoseconds (time_unit.hpp).
//
// StarPU specifics (starpu_fxt_tool's paje.trace): a worker state whose value is no declared
// entity value is a running codelet; its extra JobId/Footprint fields give the task record.
// Its memory managers ("Mm") are no lanes: the FxT reader draws no memory node states either.
// StarPU-MPI's "MPIL" links between communication threads are the messages between ranks, its
// fetch links between memory managers the data transfers.

#include "common/mapped_file.hpp"
#include "tracer/model/starpu_states.hpp"
#include "tracer/model/time_unit.hpp"
#include "tracer/readers/paje/paje_names.hpp"
#include "tracer/readers/paje/paje_reader.hpp"
#include "tracer/readers/paje/paje_syntax.hpp"
#include "tracer/readers/paje/paje_time.hpp"
#include "tracer/readers/read_trace.hpp"
#include "tracer/readers/trace_builder.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <future>
#include <string_view>
#include <system_error>
#include <unordered_map>

#include <sys/mman.h>

namespace starscope::tracer {

namespace fs = std::filesystem;

namespace {

using detail::TraceBuilder;
using namespace detail::paje;

// Lines per batch: about 1 MB of StarPU's Paje, few enough thread starts per file.
constexpr std::size_t kBatchLines = std::size_t{1} << 14;

struct Container {
    std::string name;
    std::string alias;
    std::uint32_t type = 0;    // interned container type alias
    std::int32_t parent = -1;
    std::int32_t memoryNode = -1;   // of the nearest enclosing StarPU memory node
    std::vector<std::int32_t> children;
    std::vector<std::int32_t> lanes;
    // A worker or user thread has its lane from its creation on, so lanes keep the order of
    // the containers (a Paje export of ours keeps the trace's lane order); the first state
    // type set on it takes that lane.
    bool laneClaimed = false;
    bool userThreadSeen = false;   // of a program: whether it holds a user thread yet
    bool memoryManager = false;    // StarPU's "Mm": its states are dropped
    std::int32_t rank = -1;        // from StarPU's "<rank>_" name prefix
};

// An MPIL link (a message) or a fetch link (a transfer) while its two ends are read; times are
// PajeStamps until the tick is chosen.
struct PendingLink {
    std::optional<TransferKind> transfer;   // nullopt: a message
    detail::PajeStamp start;
    detail::PajeStamp end;
    std::int32_t from = -1;   // containers
    std::int32_t to = -1;
    std::uint64_t size = 0;
    std::int64_t tag = 0;
    bool started = false;
    bool ended = false;
};

// "0_" of a process's names in a multi-process trace (StarPU's prefix), empty otherwise.
std::size_t rankPrefixLength(std::string_view name) {
    std::size_t i = 0;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9') {
        ++i;
    }
    return i > 0 && i < name.size() && name[i] == '_' ? i + 1 : 0;
}

// A timed event, kept compact until the stable sort by time. Its time is a PajeStamp's
// mantissa until all dates are read, then ticks of the chosen unit. StarPU's job id and
// footprint, which only codelet states carry (one event in 25 of the CNN traces), are in a side
// table: 32 bytes per event instead of 40 in a table whose fresh pages the kernel zeroes (a fifth
// of the samples of a 1-epoch render went to zeroing them).
struct Timed {
    TimeNs time;
    std::int32_t container;
    std::uint32_t type;
    std::uint32_t value;
    std::uint32_t job;        // in PajeParser::m_jobs, + 1; 0 without a job id or footprint
    std::int8_t decimals;
    Kind kind;
};
static_assert(sizeof(Timed) == 32);

struct TimedJob {
    std::uint64_t jobId;      // 0 when absent
    std::uint32_t footprint;
};

// The events' table is written once front to back, about a hundred MB for a 90 MB trace: in the
// kernel's 2 MB pages it takes 512 times fewer page faults than in 4 KB ones, which it grants
// only where asked. Advice only: nothing changes if the kernel declines.
void adviseHugePages(const void* data, std::size_t bytes) {
    constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
    const auto first = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t begin = (first + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t end = (first + bytes) & ~(kHugePage - 1);
    if (end > begin) {
        ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    }
}

// A second thread can prepare lines while this one applies them, but on this 2-core machine
// busy with other work it cost time: a headless render of the 5-epoch CNN trace (90 MB) took
// 1.036 s with two threads and 0.890 s with one at nice 10 among niced builds (611 vs 549 ms
// of CPU, medians of 5 alternating runs, load 3.5), and render_vs_vite.sh and the CNN traces
// showed the same. So one thread unless STARSCOPE_PAJE_THREADS=2 asks for two (1 or 2).
bool preparesOnAnotherThread() {
    const char* threads = std::getenv("STARSCOPE_PAJE_THREADS");
    return threads != nullptr && std::string_view(threads) == "2";
}

class PajeParser {
public:
    PajeParser(const fs::path& file, const ReadOptions& options)
        : m_file(file), m_options(options), m_twoThreads(preparesOnAnotherThread()) {}
    TraceResult<Trace> run(std::string_view text);

private:
    std::uint32_t id(std::string_view s) { return m_strings.intern(s); }
    TraceError error(std::string message, std::size_t offset, std::size_t line) const {
        return TraceError{ErrorCode::Corrupt, "line " + std::to_string(line) + ": " + message,
                          m_file.string(), offset};
    }
    std::optional<TraceError> header(std::string_view line, std::size_t offset, std::size_t lineNo);
    std::optional<TraceError> events(std::string_view text, std::size_t& pos, std::size_t& lineNo);
    void apply(const LineBatch& batch, const PreparedEvent& e);
    std::int32_t container(std::string_view ref);
    bool isUserEventType(std::uint32_t type);
    std::int32_t laneFor(std::int32_t container, std::uint32_t type);
    std::int32_t newLane(std::int32_t index, std::uint32_t type);
    bool process();
    void link(bool start, std::string_view type, std::string_view key, std::string_view end,
              std::string_view value, std::string_view tag, const detail::PajeStamp& stamp);
    void buildLinks();
    bool hasLaterJobTwin(const std::vector<std::pair<TimeNs, std::size_t>>& order, std::size_t i);

    // Events of one instant that carry a job id, by what they set, for hasLaterJobTwin():
    // indexed once per instant so that many events at one instant stay linear.
    std::size_t m_instantBegin = 0;
    std::size_t m_instantEnd = 0;
    using TwinKey = std::pair<std::uint64_t, std::uint64_t>;   // container+type, value+kind
    struct TwinHash {
        std::size_t operator()(const TwinKey& k) const {
            return std::hash<std::uint64_t>{}(k.first * 0x9e3779b97f4a7c15ULL ^ k.second);
        }
    };
    std::unordered_map<TwinKey, std::size_t, TwinHash> m_lastJobEvent;

    const fs::path& m_file;
    const ReadOptions& m_options;
    detail::paje::NameIds m_strings;
    EventDefs m_defs;
    std::optional<std::pair<std::string, EventDef>> m_openDef;
    std::vector<std::string> m_openFields;
    std::unordered_map<std::uint32_t, std::uint32_t> m_typeNames;       // type alias -> name
    std::unordered_map<std::uint64_t, std::uint32_t> m_entityValues;    // (type, alias) -> name
    std::unordered_map<std::uint32_t, std::uint32_t> m_stateTypeOwner;  // state type -> container type
    std::vector<std::uint8_t> m_userEventTypes;   // by type name id: 0 not known yet, 1 yes, 2 no
    std::vector<Container> m_containers;
    std::vector<std::int32_t> m_containerByName;   // container by the name id of its alias or name
    std::unordered_map<std::uint64_t, std::int32_t> m_laneByKey;
    std::vector<Timed> m_timed;
    std::vector<TimedJob> m_jobs;
    std::uint64_t jobIdOf(const Timed& t) const { return t.job == 0 ? 0 : m_jobs[t.job - 1].jobId; }
    std::uint32_t footprintOf(const Timed& t) const { return t.job == 0 ? 0 : m_jobs[t.job - 1].footprint; }
    std::vector<std::string_view> m_tokens;
    std::array<LineBatch, 2> m_batches;   // one applied while the other is prepared
    bool m_twoThreads = false;
    TraceBuilder m_b;
    detail::PajeStamp m_end;
    double m_endMs = 0;
    double m_maxAbsMs = 0;
    int m_maxDecimals = 0;
    std::size_t m_truncatedTimes = 0;
    detail::PajeTick m_tick;
    bool m_haveMainLane = false;
    std::size_t m_variables = 0;
    std::size_t m_links = 0;
    std::size_t m_memoryStates = 0;
    std::vector<PendingLink> m_pendingLinks;
    TextMap<std::size_t> m_linkByKey;
    std::size_t m_unknownContainers = 0;
    std::size_t m_badPops = 0;
    std::uint64_t m_syntheticJob = std::uint64_t{1} << 62;
    bool m_starpuEvents = false;
};

std::optional<TraceError> PajeParser::header(std::string_view line, std::size_t offset, std::size_t lineNo) {
    tokenize(line.substr(1), m_tokens);
    if (m_tokens.empty()) {
        return std::nullopt;
    }
    if (m_tokens[0] == "EventDef") {
        if (m_tokens.size() < 3) {
            return error("%EventDef needs a name and an id", offset, lineNo);
        }
        EventDef def;
        def.kind = kindOf(m_tokens[1]);
        m_openDef.emplace(std::string(m_tokens[2]), def);
        m_openFields.clear();
    } else if (m_tokens[0] == "EndEventDef") {
        if (!m_openDef) {
            return error("%EndEventDef without %EventDef", offset, lineNo);
        }
        auto& [key, def] = *m_openDef;
        std::fill(std::begin(def.index), std::end(def.index), -1);
        def.fieldCount = m_openFields.size();
        for (std::size_t i = 0; i < m_openFields.size(); ++i) {
            if (const auto field = fieldOf(m_openFields[i])) {
                def.index[*field] = static_cast<int>(i);
            }
        }
        m_defs.add(key, def);
        m_openDef.reset();
    } else if (m_openDef) {
        m_openFields.emplace_back(m_tokens[0]);
    }
    return std::nullopt;
}

std::int32_t PajeParser::container(std::string_view ref) {
    const auto name = id(ref);
    return name < m_containerByName.size() ? m_containerByName[name] : -1;
}

// In StarPU's trace only these event types carry user events; pushes, pops and data
// registrations are runtime bookkeeping.
bool PajeParser::isUserEventType(std::uint32_t type) {
    if (m_userEventTypes.size() <= type) {
        m_userEventTypes.resize(std::max<std::size_t>(type + 1, m_strings.size()), 0);
    }
    auto& known = m_userEventTypes[type];
    if (known == 0) {
        const auto& alias = m_strings[type];
        known = alias == "prog_event" || alias == "user_event" || alias == "thread_event"
                        || alias == "user_user_event" || alias == "user_thread_event"
                    ? 1 : 2;
    }
    return known == 1;
}

void PajeParser::apply(const LineBatch& batch, const PreparedEvent& e) {
    const EventDef& def = *e.def;
    const auto field = [&](Field f) -> std::string_view {
        return def.index[f] < 0 ? std::string_view{} : batch.fields[e.firstField + static_cast<std::size_t>(def.index[f])];
    };
    const detail::PajeStamp& stamp = e.stamp;
    const TimeNs time = stamp.mantissa;
    switch (def.kind) {
    case Kind::DefineContainerType:
    case Kind::DefineStateType:
    case Kind::DefineEventType:
    case Kind::DefineVariableType:
    case Kind::DefineLinkType: {
        const auto alias = field(FAlias).empty() ? field(FName) : field(FAlias);
        m_typeNames[id(alias)] = id(field(FName));
        if (def.kind == Kind::DefineStateType) {
            m_stateTypeOwner[id(alias)] = id(field(FType));
        }
        if (def.kind == Kind::DefineEventType && alias == "prog_event") {
            m_starpuEvents = true;
        }
        break;
    }
    case Kind::DefineEntityValue: {
        const auto alias = field(FAlias).empty() ? field(FName) : field(FAlias);
        const std::uint64_t key = (std::uint64_t{id(field(FType))} << 32) | id(alias);
        m_entityValues[key] = id(field(FName));
        break;
    }
    case Kind::CreateContainer: {
        Container c;
        c.name = std::string(field(FName));
        c.alias = std::string(field(FAlias));
        c.type = id(field(FType));
        c.parent = container(field(FContainer));
        const auto index = static_cast<std::int32_t>(m_containers.size());
        if (c.parent >= 0) {
            // starpu_fxt_tool nests workers in their thread, in their memory node ("Mn",
            // "MEMNODE<n>"). Inherited here once, not searched upwards per lane.
            auto& parent = m_containers[static_cast<std::size_t>(c.parent)];
            parent.children.push_back(index);
            c.memoryNode = parent.memoryNode;
            // The node's number ends its name ("MEMNODE1", "0_MEMNODE1" in rank 0).
            const auto digit = parent.name.find_last_not_of("0123456789") + 1;
            if (m_strings[parent.type] == "Mn" && digit < parent.name.size()) {
                std::from_chars(parent.name.data() + digit, parent.name.data() + parent.name.size(), c.memoryNode);
            }
        }
        if (const auto prefix = rankPrefixLength(c.name); prefix > 0) {
            std::from_chars(c.name.data(), c.name.data() + prefix - 1, c.rank);
        }
        m_containers.push_back(std::move(c));
        const auto& typeAlias = m_strings[m_containers.back().type];
        const auto typeName = m_typeNames.contains(m_containers.back().type)
                                  ? m_strings[m_typeNames[m_containers.back().type]] : typeAlias;
        m_containers.back().memoryManager = typeAlias == "Mm" || typeName == "Memory Manager";
        if (typeAlias == "UT" || typeName == "User Thread" || typeAlias == "W" || typeName == "Worker") {
            newLane(index, m_containers.back().type);
        }
        const auto alias = field(FAlias);
        const auto byName = [&](std::string_view ref, bool replace) {
            const auto name = id(ref);
            if (m_containerByName.size() <= name) {
                m_containerByName.resize(name + 1, -1);
            }
            if (replace || m_containerByName[name] < 0) {
                m_containerByName[name] = index;
            }
        };
        byName(alias.empty() ? field(FName) : alias, true);
        byName(field(FName), false);
        break;
    }
    case Kind::DestroyContainer: {
        const auto destroyed = container(field(FName));
        if (destroyed < 0) {
            ++m_unknownContainers;
            break;
        }
        m_timed.push_back(Timed{time, destroyed, 0, 0, 0, stamp.decimals, def.kind});
        break;
    }
    case Kind::SetState:
    case Kind::PushState:
    case Kind::PopState:
    case Kind::ResetState:
    case Kind::NewEvent: {
        Timed t{time, container(field(FContainer)), id(field(FType)), 0, 0, stamp.decimals, def.kind};
        if (t.container < 0) {
            ++m_unknownContainers;
            break;
        }
        if (def.kind == Kind::NewEvent && m_starpuEvents && !isUserEventType(t.type)) {
            // Dropped here rather than in process(), which would drop it too: these values are
            // addresses and job ids, and interning them grew the name table by 71,535 names on the
            // 5-epoch CNN trace (14,983 on the 1-epoch one), a table every lookup then missed in cache.
            break;
        }
        if (def.kind == Kind::SetState || def.kind == Kind::PushState || def.kind == Kind::NewEvent) {
            t.value = id(field(FValue));
        }
        if (def.kind != Kind::NewEvent && m_containers[static_cast<std::size_t>(t.container)].memoryManager) {
            ++m_memoryStates;
            break;
        }
        if (e.jobId != 0 || e.footprint != 0) {
            m_jobs.push_back(TimedJob{e.jobId, e.footprint});
            t.job = static_cast<std::uint32_t>(m_jobs.size());
        }
        m_timed.push_back(t);
        break;
    }
    case Kind::StartLink:
        // Our own export's task dependencies: link type "dep", valued "<from>-><to>" (job ids).
        if (field(FType) == "dep") {
            const auto value = field(FValue);
            const auto arrow = value.find("->");
            std::uint64_t from = 0;
            std::uint64_t to = 0;
            if (arrow != std::string_view::npos
                && std::from_chars(value.data(), value.data() + arrow, from).ptr == value.data() + arrow
                && std::from_chars(value.data() + arrow + 2, value.data() + value.size(), to).ptr
                       == value.data() + value.size()) {
                m_b.addDependency(to, from);
            }
        }
        link(true, field(FType), field(FKey), field(FStartContainer), field(FValue), field(FTag), stamp);
        ++m_links;
        break;
    case Kind::EndLink:
        link(false, field(FType), field(FKey), field(FEndContainer), field(FValue), field(FTag), stamp);
        ++m_links;
        break;
    case Kind::SetVariable:   // counted by prepareLines(), which keeps no event of them
    case Kind::AddVariable:
    case Kind::SubVariable:
    case Kind::Unknown: break;
    }
}

// starpu_fxt_tool's MPIL links (and our export's): start on the sender's communication thread
// at the send's submission, end on the receiver's at the receive's termination. Its F, TF, PF
// and IF links: a driver copy from one memory manager to another. Both paired by key.
void PajeParser::link(bool start, std::string_view type, std::string_view key, std::string_view end,
                      std::string_view value, std::string_view tag, const detail::PajeStamp& stamp) {
    const auto name = m_typeNames.find(id(type));
    const bool message = type == "MPIL" || (name != m_typeNames.end() && m_strings[name->second] == "MPI communication");
    const auto transfer = transferKindOfLinkType(type);
    if (!message && !transfer) {
        return;
    }
    std::string fullKey(type);
    fullKey.append(1, '\0').append(key);
    auto [it, added] = m_linkByKey.try_emplace(std::move(fullKey), m_pendingLinks.size());
    if (added) {
        m_pendingLinks.emplace_back();
        m_pendingLinks.back().transfer = transfer;
    }
    auto& m = m_pendingLinks[it->second];
    (start ? m.from : m.to) = container(end);
    (start ? m.start : m.end) = stamp;
    (start ? m.started : m.ended) = true;
    std::from_chars(value.data(), value.data() + value.size(), m.size);
    if (!tag.empty()) {
        std::from_chars(tag.data(), tag.data() + tag.size(), m.tag);
    }
}

// Once the tick is chosen and the communication threads have their lanes.
void PajeParser::buildLinks() {
    std::size_t unpaired = 0;
    auto& messages = m_b.trace().messages;
    auto& transfers = m_b.trace().transfers;
    for (const auto& pending : m_pendingLinks) {
        if (!pending.started || !pending.ended || pending.from < 0 || pending.to < 0) {
            ++unpaired;
            continue;
        }
        const auto& from = m_containers[static_cast<std::size_t>(pending.from)];
        const auto& to = m_containers[static_cast<std::size_t>(pending.to)];
        const auto start = detail::toPajeTicks(pending.start, m_tick.decimals);
        const auto end = detail::toPajeTicks(pending.end, m_tick.decimals);
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
        m.end = end;
        m.size = pending.size;
        m.tag = pending.tag;
        messages.push_back(m);
    }
    std::stable_sort(messages.begin(), messages.end(),
                     [](const Message& a, const Message& b) { return a.start < b.start; });
    std::stable_sort(transfers.begin(), transfers.end(),
                     [](const Transfer& a, const Transfer& b) { return a.start < b.start; });
    if (unpaired > 0) {
        m_b.warn(std::to_string(unpaired) + " MPI communication or data transfer links without both ends (or on "
                                            "undeclared containers) were dropped");
    }
}

std::int32_t PajeParser::laneFor(std::int32_t index, std::uint32_t type) {
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

std::int32_t PajeParser::newLane(std::int32_t index, std::uint32_t type) {
    auto& c = m_containers[static_cast<std::size_t>(index)];
    const std::string& typeAlias = m_strings[c.type];
    const auto typeName = m_typeNames.contains(c.type) ? m_strings[m_typeNames[c.type]] : typeAlias;
    LaneKind kind = LaneKind::OtherWorker;
    std::string name = c.name;
    std::int32_t workerId = -1;
    // StarPU prefixes every name of a process with its rank ("0_") in multi-process traces.
    const auto prefix = rankPrefixLength(name);
    const std::string_view bare = std::string_view(name).substr(prefix);
    if (typeAlias == "MPICt" || typeName == "MPI Communication Thread") {
        // StarPU-MPI's communication thread "<rank>_mpict": named as the FxT reader names it.
        kind = LaneKind::MpiThread;
        name = name.substr(0, prefix) + "MPI thread";
    } else if (typeAlias == "UT" || typeName == "User Thread") {
        kind = LaneKind::MainThread;
        // starpu_fxt_tool names user threads "UserThread<tid>": the first one of each program
        // is its main thread. Other names are kept.
        auto* program = c.parent >= 0 ? &m_containers[static_cast<std::size_t>(c.parent)] : nullptr;
        const bool first = program == nullptr ? !m_haveMainLane : !program->userThreadSeen;
        if (first && bare.starts_with("UserThread") && bare.size() > 10
            && std::all_of(bare.begin() + 10, bare.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
            name = name.substr(0, prefix) + "main";
        }
        if (program != nullptr) {
            program->userThreadSeen = true;
        }
        m_haveMainLane = true;
    } else if (typeAlias == "W" || typeName == "Worker") {
        // starpu_fxt_tool names workers "CPU0", "CUDA0_1" and aliases them "w<id>": read as our
        // lanes "CPU 0", "CUDA 0_1". Names of another shape are kept.
        kind = bare.starts_with("CUDA") ? LaneKind::CudaWorker
               : bare.starts_with("CPU") ? LaneKind::CpuWorker
                                         : LaneKind::OtherWorker;
        const auto digit = bare.find_first_of("0123456789");
        if (digit != std::string::npos && digit > 0
            && std::all_of(bare.begin(), bare.begin() + static_cast<std::ptrdiff_t>(digit),
                           [](char ch) { return (ch >= 'A' && ch <= 'Z') || ch == '_'; })) {
            name.insert(prefix + digit, " ");
        }
        for (const std::string* ref : {&c.name, &c.alias}) {
            const auto id = std::string_view(*ref).substr(rankPrefixLength(*ref));
            if (id.size() > 1 && id[0] == 'w') {
                std::from_chars(id.data() + 1, id.data() + id.size(), workerId);
            }
        }
    }
    const std::int32_t memoryNode = c.memoryNode;
    if (!c.lanes.empty()) {
        name += " " + (m_typeNames.contains(type) ? m_strings[m_typeNames[type]] : m_strings[type]);
    }
    const auto lane = m_b.addLane(std::move(name), kind, memoryNode, workerId);
    m_b.trace().lanes[static_cast<std::size_t>(lane)].rank = c.rank;
    c.lanes.push_back(lane);
    return lane;
}

bool PajeParser::process() {
    // Every date is read: now the tick that holds them all exactly is known.
    m_tick = detail::choosePajeTick(m_maxDecimals, m_maxAbsMs);
    for (auto& t : m_timed) {
        t.time = detail::toPajeTicks(detail::PajeStamp{t.time, t.decimals, false}, m_tick.decimals);
    }
    // Events in time order, equal times in file order. Sorting 16-byte keys instead of the
    // events moves far less memory; starpu_fxt_tool's output is nearly sorted already.
    std::vector<std::pair<TimeNs, std::size_t>> order;
    order.reserve(m_timed.size());
    // The events no earlier than every one before them are in order already; only the others
    // (few in starpu_fxt_tool's output) are sorted, then merged in: the pairs are distinct, so
    // this is the order a full sort gives.
    std::vector<std::pair<TimeNs, std::size_t>> late;
    for (std::size_t i = 0; i < m_timed.size(); ++i) {
        const std::pair<TimeNs, std::size_t> key{m_timed[i].time, i};
        if (order.empty() || order.back() < key) {
            order.push_back(key);
        } else {
            late.push_back(key);
        }
    }
    if (!late.empty()) {
        std::sort(late.begin(), late.end());
        const auto inOrder = order.size();
        order.insert(order.end(), late.begin(), late.end());
        std::inplace_merge(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(inOrder), order.end());
    }
    const auto executing = detail::kExecutingState;
    const auto& starpuStates = kStarpu13States;
    // Whether a value set on StarPU's worker state type "WS" is one of its runtime states, by
    // the value's name id, decided once per name instead of comparing it with the two names of
    // each of StarPU's 21 states at every event. 0: not known yet, 1: a runtime state, 2: not.
    std::vector<std::uint8_t> runtimeValue;
    const auto isRuntimeValue = [&](std::uint32_t value) {
        if (runtimeValue.size() <= value) {
            runtimeValue.resize(std::max<std::size_t>(value + 1, m_strings.size()), 0);
        }
        auto& known = runtimeValue[value];
        if (known == 0) {
            const auto& name = m_strings[value];
            const bool runtime = name == kNotProfiledState || name == kTraceFlushState
                                 || std::any_of(std::begin(starpuStates), std::end(starpuStates),
                                                [&](const auto& s) { return s.alias == name || s.name == name; });
            known = runtime ? 1 : 2;
        }
        return known == 1;
    };
    std::vector<std::uint8_t> workerStateType;   // the same for "WS" itself, by type name id
    const auto isWorkerStateType = [&](std::uint32_t type) {
        if (workerStateType.size() <= type) {
            workerStateType.resize(std::max<std::size_t>(type + 1, m_strings.size()), 0);
        }
        auto& known = workerStateType[type];
        if (known == 0) {
            known = m_strings[type] == "WS" ? 1 : 2;
        }
        return known == 1;
    };
    // State ids by (interned name, lane class): the builder's own lookup builds a string key.
    std::unordered_map<std::uint64_t, std::uint32_t> stateIds;
    const auto stateFor = [&](std::uint32_t name, LaneKind kind) {
        const std::uint64_t key = (std::uint64_t{name} << 1) | (kind == LaneKind::MainThread ? 1U : 0U);
        const auto it = stateIds.find(key);
        if (it != stateIds.end()) {
            return it->second;
        }
        const auto state = m_b.state(m_strings[name], kind);
        stateIds.emplace(key, state);
        return state;
    };
    for (std::size_t i = 0; i < order.size(); ++i) {
        const Timed& e = m_timed[order[i].second];
        if (m_options.progress && (i & 0xffff) == 0
            && !m_options.progress(0.6 + 0.4 * static_cast<double>(i) / static_cast<double>(m_timed.size()))) {
            return false;
        }
        const auto& c = m_containers[static_cast<std::size_t>(e.container)];
        switch (e.kind) {
        case Kind::DestroyContainer: {
            // The container and everything inside it end here.
            std::vector<std::int32_t> pending{e.container};
            while (!pending.empty()) {
                const auto& node = m_containers[static_cast<std::size_t>(pending.back())];
                pending.pop_back();
                for (const auto lane : node.lanes) {
                    m_b.resetState(lane, e.time);
                }
                pending.insert(pending.end(), node.children.begin(), node.children.end());
            }
            break;
        }
        case Kind::SetState:
        case Kind::PushState: {
            const auto lane = laneFor(e.container, e.type);
            const auto laneKind = m_b.trace().lanes[static_cast<std::size_t>(lane)].kind;
            const std::uint64_t key = (std::uint64_t{e.type} << 32) | e.value;
            const auto entity = m_entityValues.find(key);
            const bool worker = laneKind == LaneKind::CpuWorker || laneKind == LaneKind::CudaWorker;
            // starpu_fxt_tool declares each codelet name as an entity value of "WS" too: on
            // its worker states, only its own state aliases are runtime states (and the
            // "Not profiled" state our Paje export adds).
            const bool starpuWorkerState = worker && isWorkerStateType(e.type);
            const bool runtimeState = starpuWorkerState ? isRuntimeValue(e.value) : entity != m_entityValues.end();
            std::uint32_t state = 0;
            TaskIndex task = kNoTask;
            if (runtimeState && entity != m_entityValues.end()) {
                state = stateFor(entity->second, laneKind);
            } else if (runtimeState) {
                state = stateFor(e.value, laneKind);
            } else if (worker) {
                // starpu_fxt_tool writes each codelet start twice at the same instant: plainly,
                // then with its job id. Keep the one with the job id.
                const std::uint64_t jobId = jobIdOf(e);
                if (jobId == 0 && hasLaterJobTwin(order, i)) {
                    break;
                }
                task = m_b.task(jobId != 0 ? jobId : m_syntheticJob++);
                m_b.trace().setCodelet(m_b.taskAt(task), m_b.intern(m_strings[e.value]), footprintOf(e));
                state = stateFor(id(executing), laneKind);
            } else {
                state = stateFor(e.value, laneKind);
            }
            if (e.kind == Kind::SetState) {
                m_b.setState(lane, e.time, state, task);
            } else {
                m_b.pushState(lane, e.time, state, task);
            }
            break;
        }
        case Kind::PopState:
            if (!m_b.popState(laneFor(e.container, e.type), e.time)) {
                ++m_badPops;
            }
            break;
        case Kind::ResetState: m_b.resetState(laneFor(e.container, e.type), e.time); break;
        case Kind::NewEvent: {
            if (m_starpuEvents && !isUserEventType(e.type)) {
                break;
            }
            m_b.addMarker(e.time, c.lanes.empty() ? -1 : c.lanes.front(), m_strings[e.value]);
            break;
        }
        default: break;
        }
    }
    return true;
}

bool PajeParser::hasLaterJobTwin(const std::vector<std::pair<TimeNs, std::size_t>>& order, std::size_t i) {
    const auto keyOf = [](const Timed& t) {
        return TwinKey{(std::uint64_t{static_cast<std::uint32_t>(t.container)} << 32) | t.type,
                       (std::uint64_t{t.value} << 8) | static_cast<std::uint8_t>(t.kind)};
    };
    if (i >= m_instantEnd || i < m_instantBegin) {
        const TimeNs time = order[i].first;
        m_instantBegin = i;
        while (m_instantBegin > 0 && order[m_instantBegin - 1].first == time) {
            --m_instantBegin;
        }
        m_instantEnd = i;
        m_lastJobEvent.clear();
        for (; m_instantEnd < order.size() && order[m_instantEnd].first == time; ++m_instantEnd) {
            const Timed& t = m_timed[order[m_instantEnd].second];
            if (jobIdOf(t) != 0) {
                m_lastJobEvent[keyOf(t)] = m_instantEnd;
            }
        }
    }
    const Timed& e = m_timed[order[i].second];
    const auto it = m_lastJobEvent.find(keyOf(e));
    if (it == m_lastJobEvent.end() || it->second <= i) {
        return false;
    }
    return true;
}

// The event lines from pos to the next '%' line or the end, prepared in batches and applied here
// in file order. With two threads (preparesOnAnotherThread) the next batch is prepared while
// one is applied: prepareLines needs only the definitions, which no event line changes.
std::optional<TraceError> PajeParser::events(std::string_view text, std::size_t& pos, std::size_t& lineNo) {
    prepareLines(text, pos, lineNo, kBatchLines, m_defs, m_batches[0]);
    for (std::size_t k = 0;; k ^= 1U) {
        const LineBatch& ready = m_batches[k];
        LineBatch& next = m_batches[k ^ 1U];
        std::future<void> preparing;
        if (ready.stop == LineStop::Batch) {
            const auto prepare = [this, text, &next, from = ready.next, line = ready.nextLine] {
                prepareLines(text, from, line, kBatchLines, m_defs, next);
            };
            if (m_twoThreads) {
                try {
                    preparing = std::async(std::launch::async, prepare);
                } catch (const std::system_error&) {
                    prepare();   // no thread to be had: prepared here, as a short file is
                }
            } else {
                prepare();
            }
        }
        for (const auto& e : ready.events) {
            apply(ready, e);
        }
        m_variables += ready.variables;
        m_truncatedTimes += ready.truncatedTimes;
        m_maxDecimals = std::max(m_maxDecimals, ready.maxDecimals);
        m_maxAbsMs = std::max(m_maxAbsMs, ready.maxAbsMs);
        if (ready.endMs > m_endMs) {
            m_endMs = ready.endMs;
            m_end = ready.end;
        }
        pos = ready.next;
        lineNo = ready.nextLine;
        if (ready.stop == LineStop::Problem) {
            return ready.problemIsFormat ? TraceError{ErrorCode::Format, ready.problem, m_file.string(), pos}
                                         : error(ready.problem, pos, lineNo + 1);
        }
        if (ready.stop != LineStop::Batch) {
            return std::nullopt;
        }
        if (m_options.progress
            && !m_options.progress(0.6 * static_cast<double>(pos) / static_cast<double>(text.size()))) {
            return TraceError{ErrorCode::Cancelled, "reading cancelled", m_file.string(), pos};
        }
        if (preparing.valid()) {
            preparing.get();
        }
    }
}

TraceResult<Trace> PajeParser::run(std::string_view text) {
    // At most about one timed event per 32 bytes of StarPU's Paje: growing the vector copied
    // it over and over. Reserved, not touched, so a generous guess costs no memory; capped so
    // that an enormous file does not ask for more address space than the machine grants.
    m_timed.reserve(std::min(text.size() / 32, std::size_t{1} << 24));
    adviseHugePages(m_timed.data(), m_timed.capacity() * sizeof(Timed));
    std::size_t pos = 0;
    std::size_t lineNo = 0;
    while (pos < text.size()) {
        if (auto problem = events(text, pos, lineNo)) {
            return fail(*problem);
        }
        if (pos >= text.size()) {
            break;
        }
        // A '%' line (events() checked its length): definitions change only here, in file order.
        const auto eol = text.find('\n', pos);
        const auto end = eol == std::string_view::npos ? text.size() : eol;
        std::string_view line = text.substr(pos, end - pos);
        line.remove_prefix(line.find('%'));
        ++lineNo;
        if (auto problem = header(line, pos, lineNo)) {
            return fail(*problem);
        }
        pos = end + 1;
    }
    if (m_openDef) {
        return fail(TraceError{ErrorCode::Corrupt, "%EventDef " + m_openDef->first + " is never closed (truncated file?)",
                               m_file.string(), text.size()});
    }
    if (!process()) {
        return fail(TraceError{ErrorCode::Cancelled, "reading cancelled", m_file.string(), {}});
    }
    buildLinks();
    // Paje writers end every line: a last line without one is where the file was cut.
    if (!text.empty() && text.back() != '\n') {
        m_b.warn("byte " + std::to_string(text.size())
                 + ": the last line has no line end; the file looks truncated");
    }
    if (m_tick.reduced) {
        m_b.warn("dates need more than " + std::to_string(m_tick.decimals)
                 + " decimals of a millisecond, more than the model's 48-bit times hold over this trace's span: read "
                   "at 1e-" + std::to_string(m_tick.decimals) + " ms");
    }
    if (m_truncatedTimes > 0) {
        m_b.warn(std::to_string(m_truncatedTimes) + " dates had more digits than 64 bits hold; the last ones were dropped");
    }
    if (m_unknownContainers > 0) {
        m_b.warn(std::to_string(m_unknownContainers) + " events on undeclared containers were dropped");
    }
    if (m_badPops > 0) {
        m_b.warn(std::to_string(m_badPops) + " PopState events without a pushed state were ignored");
    }
    m_b.setMetadata("format", "paje");
    m_b.setMetadata("source", m_file.string());
    m_b.setMetadata("paje.time_unit", "ms");
    if (m_tick.ticksPerSecond != kNsPerSecond) {
        m_b.setMetadata(std::string(kTicksPerSecondMetadata), std::to_string(m_tick.ticksPerSecond));
    }
    m_b.setMetadata("paje.variable_events", std::to_string(m_variables));
    m_b.setMetadata("paje.link_events", std::to_string(m_links));
    m_b.setMetadata("paje.containers", std::to_string(m_containers.size()));
    m_b.setMetadata("paje.memory_manager_states", std::to_string(m_memoryStates));
    return m_b.finish(detail::toPajeTicks(m_end, m_tick.decimals));
}

} // namespace

TraceResult<Trace> readPaje(const fs::path& file, const ReadOptions& options) {
    const files::MappedFile map(file);
    if (!map.error().empty()) {
        return fail(TraceError{ErrorCode::Io, "cannot read: " + map.error(), file.string(), {}});
    }
    PajeParser parser(file, options);
    return parser.run(map.text());
}

} // namespace starscope::tracer
