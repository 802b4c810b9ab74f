#include "tracer/readers/paje/paje_decoder.hpp"

#include "tracer/model/starpu_states.hpp"
#include "tracer/model/time_unit.hpp"

#include <algorithm>
#include <charconv>
#include <string>
#include <sys/mman.h>

namespace starscope::tracer::detail::paje {

namespace {

// The timed records' table is written once front to back, about a hundred MB for a 90 MB
// trace: in the kernel's 2 MB pages it takes 512 times fewer page faults than in 4 KB ones,
// which it grants only where asked. Advice only: nothing changes if the kernel declines.
void adviseHugePages(const void* data, std::size_t bytes) {
    constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
    const auto first = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t begin = (first + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t end = (first + bytes) & ~(kHugePage - 1);
    if (end > begin) {
        ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    }
}

} // namespace

void Decoder::reserveFor(std::size_t textBytes) {
    // At most about one timed record per 32 bytes of StarPU's Paje: growing the vector copied
    // it over and over. Reserved, not touched, so a generous guess costs no memory; capped so
    // that an enormous file does not ask for more address space than the machine grants.
    m_timed.reserve(std::min(textBytes / 32, std::size_t{1} << 24));
    adviseHugePages(m_timed.data(), m_timed.capacity() * sizeof(Timed));
}

void Decoder::on(const DefineType& record) {
    const auto name = id(record.name);
    const auto alias = record.aliasOrName();
    m_containers.defineType(id(alias), name);
    if (record.kind == Kind::DefineEventType && alias == "prog_event") {
        m_starpuEvents = true;
    }
}

void Decoder::on(const DefineEntityValue& record) {
    const std::uint64_t key = (std::uint64_t{id(record.type)} << 32) | id(record.aliasOrName());
    m_entityValues[key] = id(record.name);
}

void Decoder::on(const CreateContainer& record) {
    if (auto problem = m_containers.create(record)) {
        m_problem = Problem{std::move(*problem), nullptr};   // apply() knows the line
    }
}

void Decoder::on(const DestroyContainer& record) {
    const auto destroyed = m_containers.find(record.name);
    if (destroyed < 0) {
        ++m_unknownContainers;
        return;
    }
    m_timed.push_back(Timed{record.stamp.mantissa, destroyed, 0, 0, 0, record.stamp.decimals,
                            Kind::DestroyContainer});
}

bool Decoder::isStarpuUserEventType(const std::string& alias) {
    return alias == "prog_event" || alias == "user_event" || alias == "thread_event"
           || alias == "user_user_event" || alias == "user_thread_event";
}

bool Decoder::isStarpuRuntimeState(const std::string& name) {
    return name == kNotProfiledState || name == kTraceFlushState
           || std::any_of(std::begin(kStarpu13States), std::end(kStarpu13States),
                          [&](const auto& s) { return s.alias == name || s.name == name; });
}

template <typename Record> void Decoder::addTimed(Kind kind, const Record& record) {
    Timed t{record.stamp.mantissa,
            m_containers.find(record.container),
            id(record.type),
            0,
            0,
            record.stamp.decimals,
            kind};
    if (t.container < 0) {
        ++m_unknownContainers;
        return;
    }
    if (kind == Kind::NewEvent && m_starpuEvents && !isUserEventType(t.type)) {
        // Dropped here rather than in applyInTimeOrder(), which would drop it too: these values
        // are addresses and job ids, and interning them grew the name table by 71,535 names on
        // the 5-epoch CNN trace (14,983 on the 1-epoch one), a table every lookup then missed in
        // cache.
        return;
    }
    if constexpr (requires { record.value; }) {
        t.value = id(record.value);
    }
    if (kind != Kind::NewEvent) {
        const auto& container = m_containers.at(t.container);
        m_memoryStates += container.memoryManager ? 1U : 0U;
        // A thread that drives a set of workers (StarPU's CUDA driver thread "T0") is no worker:
        // its "Executing" covers only a part of its workers' tasks. The FxT reader shows no
        // such thread either.
        if (container.workerThread) {
            return;
        }
    }
    if constexpr (requires { record.jobId; }) {
        if (record.jobId != 0 || record.footprint != 0) {
            m_jobs.push_back(TimedJob{record.jobId, record.footprint});
            t.job = static_cast<std::uint32_t>(m_jobs.size());
        }
    }
    m_timed.push_back(t);
}

void Decoder::on(const SetState& record) {
    addTimed(Kind::SetState, record);
}
void Decoder::on(const PushState& record) {
    addTimed(Kind::PushState, record);
}
void Decoder::on(const PopState& record) {
    addTimed(Kind::PopState, record);
}
void Decoder::on(const ResetState& record) {
    addTimed(Kind::ResetState, record);
}
void Decoder::on(const NewEvent& record) {
    addTimed(Kind::NewEvent, record);
}

void Decoder::on(const StartLink& record) {
    // Our own export's task dependencies: link type "dep", valued "<from>-><to>" (job ids).
    if (record.type == "dep") {
        const auto value = record.value;
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
    m_links.add(record);
    ++m_linkEvents;
}

void Decoder::on(const EndLink& record) {
    m_links.add(record);
    ++m_linkEvents;
}

void Decoder::apply(const LineBatch& batch) {
    for (const auto& e : batch.events) {
        typeRecord(batch, e, [this](const auto& record) { on(record); });
        if (m_problem) {
            m_problem->at = batch.fields[e.firstField - 1].data();   // the line's event id
            return;
        }
    }
    m_variables += batch.variables;
    m_truncatedTimes += batch.truncatedTimes;
    m_maxDecimals = std::max(m_maxDecimals, batch.maxDecimals);
    m_maxAbsMs = std::max(m_maxAbsMs, batch.maxAbsMs);
    if (batch.endMs > m_endMs) {
        m_endMs = batch.endMs;
        m_end = batch.end;
    }
}

// Events in time order, equal times in file order. Sorting 16-byte keys instead of the events
// moves far less memory; starpu_fxt_tool's output is nearly sorted already.
Decoder::Order Decoder::timeOrder() const {
    Order order;
    order.reserve(m_timed.size());
    // The events no earlier than every one before them are in order already; only the others
    // (few in starpu_fxt_tool's output) are sorted, then merged in: the pairs are distinct, so
    // this is the order a full sort gives.
    Order late;
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
        std::inplace_merge(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(inOrder),
                           order.end());
    }
    return order;
}

// A set or push (order[i]), which on a worker may start a task.
void Decoder::applyState(const Order& order, std::size_t i) {
    const Timed& e = m_timed[order[i].second];
    const auto lane = m_containers.laneFor(e.container, e.type);
    const auto laneKind = m_b.trace().lanes[static_cast<std::size_t>(lane)].kind;
    // State ids by (interned name, lane class): the builder's own lookup builds a string key.
    const auto stateFor = [&](std::uint32_t name) {
        const std::uint64_t key =
            (std::uint64_t{name} << 1) | (laneKind == LaneKind::MainThread ? 1U : 0U);
        const auto it = m_stateIds.find(key);
        if (it != m_stateIds.end()) {
            return it->second;
        }
        const auto state = m_b.state(m_names[name], laneKind);
        m_stateIds.emplace(key, state);
        return state;
    };
    const std::uint64_t key = (std::uint64_t{e.type} << 32) | e.value;
    const auto entity = m_entityValues.find(key);
    const bool worker = laneKind == LaneKind::CpuWorker || laneKind == LaneKind::CudaWorker;
    // starpu_fxt_tool declares each codelet name as an entity value of "WS" too: on its worker
    // states, only its own state aliases are runtime states (and the "Not profiled" state our
    // Paje export adds).
    const bool starpuWorkerState = worker && isWorkerStateType(e.type);
    const bool runtimeState =
        starpuWorkerState ? isRuntimeValue(e.value) : entity != m_entityValues.end();
    std::uint32_t state = 0;
    TaskIndex task = kNoTask;
    if (runtimeState && entity != m_entityValues.end()) {
        state = stateFor(entity->second);
    } else if (runtimeState) {
        state = stateFor(e.value);
    } else if (worker) {
        // starpu_fxt_tool writes each codelet start twice at the same instant: plainly, then
        // with its job id. Keep the one with the job id.
        const std::uint64_t jobId = jobIdOf(e);
        if (jobId == 0 && hasLaterJobTwin(order, i)) {
            return;
        }
        task = m_b.task(jobId != 0 ? jobId : m_syntheticJob++);
        m_b.trace().setCodelet(m_b.taskAt(task), m_b.intern(m_names[e.value]), footprintOf(e));
        state = stateFor(id(kExecutingState));
    } else {
        state = stateFor(e.value);
    }
    if (e.kind == Kind::SetState) {
        m_b.setState(lane, e.time, state, task);
    } else {
        m_b.pushState(lane, e.time, state, task);
    }
}

bool Decoder::applyInTimeOrder() {
    // Every date is read: now the tick that holds them all exactly is known.
    m_tick = choosePajeTick(m_maxDecimals, m_maxAbsMs);
    for (auto& t : m_timed) {
        t.time = toPajeTicks(PajeStamp{t.time, t.decimals, false}, m_tick.decimals);
    }
    const Order order = timeOrder();
    for (std::size_t i = 0; i < order.size(); ++i) {
        const Timed& e = m_timed[order[i].second];
        if (m_options.progress && (i & 0xffff) == 0
            && !m_options.progress(
                0.6 + 0.4 * static_cast<double>(i) / static_cast<double>(m_timed.size()))) {
            return false;
        }
        switch (e.kind) {
        case Kind::DestroyContainer: {
            // The container and everything inside it end here.
            std::vector<std::int32_t> pending{e.container};
            while (!pending.empty()) {
                const auto& node = m_containers.at(pending.back());
                pending.pop_back();
                for (const auto lane : node.lanes) {
                    m_b.resetState(lane, e.time);
                }
                pending.insert(pending.end(), node.children.begin(), node.children.end());
            }
            break;
        }
        case Kind::SetState:
        case Kind::PushState:
            applyState(order, i);
            break;
        case Kind::PopState:
            if (!m_b.popState(m_containers.laneFor(e.container, e.type), e.time)) {
                ++m_badPops;
            }
            break;
        case Kind::ResetState:
            m_b.resetState(m_containers.laneFor(e.container, e.type), e.time);
            break;
        case Kind::NewEvent: {
            if (m_starpuEvents && !isUserEventType(e.type)) {
                break;
            }
            const auto& container = m_containers.at(e.container);
            m_b.addMarker(e.time, container.lanes.empty() ? -1 : container.lanes.front(),
                          m_names[e.value]);
            m_b.trace().markers.back().rank = Trace::shortIndex(container.rank);
            break;
        }
        default:
            break;
        }
    }
    return true;
}

bool Decoder::hasLaterJobTwin(const Order& order, std::size_t i) {
    const auto keyOf = [](const Timed& t) {
        return TwinKey{(std::uint64_t{static_cast<std::uint32_t>(t.container)} << 32) | t.type,
                       (std::uint64_t{t.value} << 8) | static_cast<std::uint8_t>(t.kind)};
    };
    // Indexed once per instant, so that many events at one instant stay linear.
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
    const auto it = m_lastJobEvent.find(keyOf(m_timed[order[i].second]));
    return it != m_lastJobEvent.end() && it->second > i;
}

TraceResult<Trace> Decoder::finish(std::optional<std::size_t> cutAt) {
    if (!applyInTimeOrder()) {
        return fail(TraceError{ErrorCode::Cancelled, "reading cancelled", m_file.string(), {}});
    }
    m_links.build(m_tick.decimals, m_b);
    if (cutAt) {
        m_b.warn("byte " + std::to_string(*cutAt)
                 + ": the last line has no line end; the file looks truncated");
    }
    if (m_tick.reduced) {
        m_b.warn("dates need more than " + std::to_string(m_tick.decimals)
                 + " decimals of a millisecond, more than the model's 48-bit times hold over "
                   "this trace's span: read at 1e-"
                 + std::to_string(m_tick.decimals) + " ms");
    }
    if (m_truncatedTimes > 0) {
        m_b.warn(std::to_string(m_truncatedTimes)
                 + " dates had more digits than 64 bits hold; the last ones were dropped");
    }
    if (m_unknownContainers > 0) {
        m_b.warn(std::to_string(m_unknownContainers)
                 + " events on undeclared containers were dropped");
    }
    if (m_badPops > 0) {
        m_b.warn(std::to_string(m_badPops)
                 + " PopState events without a pushed state were ignored");
    }
    m_b.setMetadata("format", "paje");
    m_b.setMetadata("source", m_file.string());
    m_b.setMetadata("paje.time_unit", "ms");
    if (m_tick.ticksPerSecond != kNsPerSecond) {
        m_b.setMetadata(std::string(kTicksPerSecondMetadata),
                        std::to_string(m_tick.ticksPerSecond));
    }
    m_b.setMetadata("paje.variable_events", std::to_string(m_variables));
    m_b.setMetadata("paje.link_events", std::to_string(m_linkEvents));
    m_b.setMetadata("paje.containers", std::to_string(m_containers.size()));
    m_b.setMetadata("paje.memory_manager_states", std::to_string(m_memoryStates));
    return m_b.finish(toPajeTicks(m_end, m_tick.decimals));
}

} // namespace starscope::tracer::detail::paje
